/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.spindex.text.AddressText;
import io.spindex.text.Ipv4Text;
import io.spindex.text.Ipv6Text;
import io.spindex.text.RangeLine;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzzing of the text parsers (Jazzer). In a normal test run each target replays
 * its saved inputs (and any crash found earlier, kept as a regression fixture); with {@code
 * JAZZER_FUZZ=1} it fuzzes (see {@code scripts/fuzz}). The parsers may throw nothing.
 */
class ParserFuzzTest {

  /**
   * Any bytes, read as an IP list line ({@link AddressText#PLAIN}): a reject code, or an address
   * whose canonical text reads back as it; a dotted quad with nothing around it is its own
   * canonical text.
   */
  @FuzzTest(maxDuration = "")
  void ipv4(byte[] data) {
    long[] out = new long[2];
    long v = AddressText.parse(data, 0, data.length, AddressText.PLAIN, out);
    if (v >= 0 && v != AddressText.IPV6) {
      assertTrue(v <= 0xFFFF_FFFFL);
      byte[] text = Ipv4Text.format((int) v).getBytes(StandardCharsets.US_ASCII);
      assertEquals(v, AddressText.parse(text, 0, text.length, AddressText.PLAIN, out));
    } else if (v < 0) {
      assertTrue(v >= AddressText.LAST_CODE, "code " + v);
    }
  }

  /**
   * Any bytes, read with every context's forms: a reject code, or an address whose canonical text
   * reads back to it (and is its own canonical text). The reader may throw nothing.
   */
  @FuzzTest(maxDuration = "")
  void ipv6(byte[] data) {
    long[] v = new long[AddressText.DETAILED];
    for (int forms :
        new int[] {
          AddressText.PLAIN, AddressText.LOOKUP, AddressText.RANGE, AddressText.RANGE_FIRST
        }) {
      long a = AddressText.parse(data, 0, data.length, forms, v);
      if (a == AddressText.IPV6) {
        assertTrue(!Ipv6Text.isIpv4Mapped(v[0], v[1]), "mapped addresses are read as IPv4");
        byte[] text = new byte[45];
        int n = Ipv6Text.format(v[0], v[1], text, 0);
        assertTrue(n <= 39);
        long[] back = {~v[0], ~v[1]};
        assertEquals(AddressText.IPV6, AddressText.parse(text, 0, n, AddressText.PLAIN, back));
        assertEquals(v[0], back[0]);
        assertEquals(v[1], back[1]);
        assertEquals(
            new String(text, 0, n, StandardCharsets.US_ASCII), Ipv6Text.format(back[0], back[1]));
      } else if (a >= 0) {
        assertTrue(a <= 0xFFFF_FFFFL);
      } else {
        assertTrue(a >= AddressText.LAST_CODE, "code " + a);
      }
      long prefix = v[AddressText.PREFIX];
      assertTrue(a < 0 || (prefix >= -1 && prefix <= (a == AddressText.IPV6 ? 128 : 32)));
    }
  }

  /** Any line, with either common delimiter: a reason, or a range within the line's bounds. */
  @FuzzTest(maxDuration = "")
  void rangeLine(byte[] data) {
    for (byte d : new byte[] {',', '|'}) {
      RangeLine p = new RangeLine(d);
      String reason = p.parse(data, 0, data.length);
      if (reason == null) {
        if (p.family() == 4) {
          assertTrue(0 <= p.start() && p.start() <= p.end() && p.end() <= 0xFFFF_FFFFL);
          assertTrue(p.startHi() == 0 && p.endHi() == 0);
        } else {
          assertEquals(6, p.family());
          int c = Long.compareUnsigned(p.startHi(), p.endHi());
          assertTrue(c < 0 || (c == 0 && Long.compareUnsigned(p.startLo(), p.endLo()) <= 0));
        }
        assertTrue(0 <= p.labelFrom() && p.labelFrom() <= p.labelTo());
        assertTrue(p.labelTo() <= data.length);
      }
    }
    RangeLine.detectDelimiter(data, 0, data.length);
  }
}
