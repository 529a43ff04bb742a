/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Normalisers on bytes against String versions written from their definitions, and the shortcut
 * {@code mayChange == false} never hiding a change.
 */
class NormalizerTest {
  static final String[] PIECES = {
    "a", " ", "  ", "\u00A0", "\u3000", "\u0007", "\u0001", "\u007F", "\u0085", "상품", "-", "1", "9",
    ",", ".", "원", "é"
  };

  static String reference(Normalizer n, String s) {
    switch (n) {
      case STRIP_CONTROL:
        return s.replaceAll("[\\x00-\\x1F\\x7F\\x80-\\x9F]", "");
      case TRIM:
        return s.replaceAll("^[ \u00A0\u3000]+", "").replaceAll("[ \u00A0\u3000]+\\z", "");
      case COLLAPSE_WHITESPACE:
        return s.replaceAll("[ \u00A0\u3000]+", " ");
      default:
        String head = s.contains(".") ? s.substring(0, s.indexOf('.')) : s;
        String digits = head.replaceAll("[^0-9]", "");
        boolean minus = head.indexOf('-') >= 0 && head.indexOf('-') < firstDigit(head);
        return digits.isEmpty() ? "" : (minus ? "-" : "") + digits;
    }
  }

  private static int firstDigit(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isDigit(s.charAt(i))) {
        return i;
      }
    }
    return s.length();
  }

  @Test
  void bytesEqualStrings() {
    long seed = 99;
    SplittableRandom r = new SplittableRandom(seed);
    for (int k = 0; k < 20000; k++) {
      StringBuilder sb = new StringBuilder();
      for (int i = r.nextInt(8); i > 0; i--) {
        sb.append(PIECES[r.nextInt(PIECES.length)]);
      }
      String s = sb.toString();
      byte[] in = s.getBytes(StandardCharsets.UTF_8);
      for (Normalizer n : Normalizer.values()) {
        byte[] out = new byte[in.length];
        int end = n.apply(in, 0, in.length, out, 0);
        String got = new String(out, 0, end, StandardCharsets.UTF_8);
        assertEquals(reference(n, s), got, "seed " + seed + ": " + n + " of '" + s + "'");
        if (!n.mayChange(in, 0, in.length)) {
          assertEquals(s, got, n + " said it would not change '" + s + "'");
        }
      }
    }
  }

  /** The one-pass screen of a normalize step never hides a change of its chain. */
  @Test
  void screenNeverHidesAChange() {
    long seed = 123;
    SplittableRandom r = new SplittableRandom(seed);
    Normalizer[] all = Normalizer.values();
    for (int k = 0; k < 100000; k++) {
      Normalizer[] chain = new Normalizer[1 + r.nextInt(3)];
      for (int i = 0; i < chain.length; i++) {
        chain[i] = all[r.nextInt(all.length)];
      }
      StringBuilder sb = new StringBuilder();
      // Long enough for the word-at-a-time path, with "a" runs to shift the alignment.
      for (int i = r.nextInt(24); i > 0; i--) {
        sb.append(
            r.nextInt(3) == 0
                ? "aaaaaaa".substring(r.nextInt(7))
                : PIECES[r.nextInt(PIECES.length)]);
      }
      byte[] in = sb.toString().getBytes(StandardCharsets.UTF_8);
      byte[] cur = in;
      for (Normalizer n : chain) {
        byte[] out = new byte[cur.length];
        cur = java.util.Arrays.copyOf(out, n.apply(cur, 0, cur.length, out, 0));
      }
      if (!new RowSteps.Screen(chain).mayChange(in, 0, in.length)) {
        assertEquals(
            sb.toString(),
            new String(cur, StandardCharsets.UTF_8),
            "seed " + seed + ": " + java.util.Arrays.toString(chain));
      }
    }
  }

  @Test
  void minusAloneIsNotAPrice() {
    byte[] in = {'-'};
    assertTrue(Normalizer.DIGITS_ONLY.mayChange(in, 0, 1));
    assertEquals(0, Normalizer.DIGITS_ONLY.apply(in, 0, 1, new byte[1], 0));
  }
}
