/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.spindex.text.Ipv4Text;
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

  /** Any line, with either common delimiter: a reason, or a range within the line's bounds. */
  @FuzzTest(maxDuration = "")
  void rangeLine(byte[] data) {
    for (byte d : new byte[] {',', '|'}) {
      RangeLine p = new RangeLine(d);
      String reason = p.parse(data, 0, data.length);
      if (reason == null) {
        assertTrue(0 <= p.start() && p.start() <= p.end() && p.end() <= 0xFFFF_FFFFL);
        assertTrue(0 <= p.labelFrom() && p.labelFrom() <= p.labelTo());
        assertTrue(p.labelTo() <= data.length);
      }
    }
    RangeLine.detectDelimiter(data, 0, data.length);
  }
}
