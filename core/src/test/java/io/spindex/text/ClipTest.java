/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Values in messages: cut to a bounded length, one line, the start and the end kept. */
class ClipTest {
  private static String repeat(char c, int n) {
    char[] a = new char[n];
    java.util.Arrays.fill(a, c);
    return new String(a);
  }

  @Test
  void aValueIsEscapedAndCutWithItsLength() {
    assertEquals("a\\tb\\nc\\x1f", Clip.of("a\tb\nc\u001f"));
    assertEquals("xxx...(5000 chars)", Clip.of(repeat('x', 5000), 3));
    assertEquals("short", Clip.of("short", 3 + "short".length()));
  }

  @Test
  void aPathKeepsItsStartAndItsName() {
    String p = "/data/" + repeat('d', 4000) + "/GeoLite2-City.spx";
    String c = Clip.path(p);
    assertEquals(Clip.PATH, c.length(), c);
    assertTrue(c.startsWith("/data/ddd"), c);
    assertTrue(c.endsWith("ddd/GeoLite2-City.spx"), c);
    assertTrue(c.contains("...(" + p.length() + " chars)..."), c);
    assertEquals("/short/path.spx", Clip.path("/short/path.spx"));
  }

  /** Whatever a message holds, it is one line of at most 400 characters. */
  @Test
  void everyMessageIsOneLineOfAtMost400Characters() {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    String alphabet = "ab \t\n\r\u001f/:'é";
    for (int i = 0; i < 2000; i++) {
      StringBuilder sb = new StringBuilder("spindex: ");
      int n = rnd.nextInt(i % 10 == 0 ? 20_000 : 600);
      for (int k = 0; k < n; k++) {
        sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
      }
      String m = Clip.message(sb.toString());
      assertTrue(m.length() <= Clip.MAX_MESSAGE, m.length() + " (seed " + seed + ")");
      assertFalse(m.contains("\n") || m.contains("\r"), "seed " + seed);
      assertTrue(m.startsWith("spindex: "), m);
    }
  }

  @Test
  void aLongValueInAMessageIsCutInItsMiddleAndTheAdviceSurvives() {
    String m =
        Clip.message(
            "spindex: unknown loader '" + repeat('x', 5000) + "': expected one of io, nio, mapped");
    assertTrue(m.startsWith("spindex: unknown loader 'xxx"), m);
    assertTrue(m.contains("...(5003 chars)..."), m); // the word: quotes and colon included
    assertTrue(m.endsWith("xxx': expected one of io, nio, mapped"), m);
    assertTrue(m.length() < 200, m);
    // Many words, each short: the start and the end of the message are kept.
    StringBuilder words = new StringBuilder("spindex: FILE: at offset 7:");
    for (int i = 0; i < 500; i++) {
      words.append(" word").append(i);
    }
    words.append(" (the advice)");
    String w = Clip.message(words.toString());
    assertEquals(Clip.MAX_MESSAGE, w.length(), w);
    assertTrue(w.startsWith("spindex: FILE: at offset 7: word0 word1"), w);
    assertTrue(w.endsWith(" (the advice)"), w);
    assertTrue(w.contains(" ... "), w);
    String ok = "spindex: x.txt: no such file";
    assertEquals(ok, Clip.message(ok));
  }
}
