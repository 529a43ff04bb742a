/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** One field of a line of text: escaped so that the line stays one, and read back unambiguously. */
class TsvTest {
  @Test
  void controlCharactersAndBackslashesAreEscaped() {
    assertEquals("a\\tb\\nc\\rd\\\\e\\u001ff\\u0000", Tsv.escape("a\tb\nc\rd\\e\u001ff\u0000"));
    assertEquals("서울|\u007f", Tsv.escape("서울|\u007f"));
    byte[] plain = "plain text".getBytes(StandardCharsets.UTF_8);
    assertSame(plain, Tsv.escape(plain));
  }

  /** The bytes and the String forms agree, and unescaping gives the value back. */
  @Test
  void bytesAndTextAgreeAndRoundTrip() {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    String alphabet = "a\\\t\n\r\u0001\u001f é서";
    for (int i = 0; i < 5000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int k = rnd.nextInt(20); k > 0; k--) {
        sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
      }
      String s = sb.toString();
      String e = Tsv.escape(s);
      assertEquals(
          e,
          new String(Tsv.escape(s.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8),
          "seed " + seed);
      assertEquals(-1, e.indexOf('\n'), "seed " + seed);
      assertEquals(-1, e.indexOf('\t'), "seed " + seed);
      assertEquals(s, unescape(e), "seed " + seed);
    }
  }

  /** The reading a consumer of the output does: an independent reference. */
  private static String unescape(String e) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < e.length(); i++) {
      char c = e.charAt(i);
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char n = e.charAt(++i);
      if (n == 'u') {
        sb.append((char) Integer.parseInt(e.substring(i + 1, i + 5), 16));
        i += 4;
      } else {
        sb.append(n == 't' ? '\t' : n == 'n' ? '\n' : n == 'r' ? '\r' : n);
      }
    }
    return sb.toString();
  }
}
