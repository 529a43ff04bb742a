/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
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

  /** Any bytes: a code or an address; an accepted address is canonical text (formats back). */
  @FuzzTest(maxDuration = "")
  void ipv4(byte[] data) {
    long v = Ipv4Text.parse(data, 0, data.length);
    if (v >= 0) {
      assertTrue(v <= 0xFFFF_FFFFL);
      assertArrayEquals(data, Ipv4Text.format((int) v).getBytes(StandardCharsets.US_ASCII));
    } else {
      assertTrue(
          v == Ipv4Text.NOT_IPV4
              || v == Ipv4Text.OCTET_OUT_OF_RANGE
              || v == Ipv4Text.LEADING_ZERO
              || v == Ipv4Text.IPV6);
    }
  }

  /**
   * Any bytes: a reject code, or an address whose canonical text parses back to it (and is its own
   * canonical text); the other entry points may throw nothing either.
   */
  @FuzzTest(maxDuration = "")
  void ipv6(byte[] data) {
    long[] v = new long[2];
    int code = Ipv6Text.parse(data, 0, data.length, v);
    if (code == Ipv6Text.OK) {
      byte[] text = new byte[45];
      int n = Ipv6Text.format(v[0], v[1], text, 0);
      assertTrue(n <= 39);
      long[] back = {~v[0], ~v[1]};
      assertEquals(Ipv6Text.OK, Ipv6Text.parse(text, 0, n, back));
      assertArrayEquals(v, back);
      assertEquals(
          new String(text, 0, n, StandardCharsets.US_ASCII), Ipv6Text.format(back[0], back[1]));
    } else {
      assertTrue(code < 0 && code >= Ipv6Text.NOT_CIDR, "code " + code);
    }
    int len = Ipv6Text.parseCidr(data, 0, data.length, v);
    assertTrue(len <= 128 && (len >= 0 || len >= Ipv6Text.NOT_CIDR));
    int field = Ipv6Text.parseField(data, 0, data.length, v);
    assertTrue(field <= 0 && field >= Ipv6Text.NOT_CIDR);
    int decimal = Ipv6Text.parseDecimal(data, 0, data.length, v);
    assertTrue(decimal <= 0 && decimal >= Ipv6Text.NOT_CIDR);
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
