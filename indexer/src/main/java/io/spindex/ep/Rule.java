/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import java.util.Locale;

/**
 * One check of a {@code require} step on one field's bytes. Checks other than {@link #required}
 * pass an empty value (emptiness is {@code required}'s business). Immutable and thread-safe.
 */
public abstract class Rule {
  /**
   * The reason prefix of a reject, e.g. {@code too-long} (the reason is {@code too-long:title}).
   */
  final String reason;

  Rule(String reason) {
    this.reason = reason;
  }

  /** {@code null} when {@code b[from, to)} passes, else what is wrong, for the rejects file. */
  abstract String check(byte[] b, int from, int to);

  /** The value must not be empty. */
  static Rule required() {
    return new Rule("empty") {
      @Override
      String check(byte[] b, int from, int to) {
        return from == to ? "empty, but required" : null;
      }
    };
  }

  /** At most {@code max} characters (code points, see {@link Utf8}). */
  static Rule maxChars(int max) {
    return new Rule("too-long") {
      @Override
      String check(byte[] b, int from, int to) {
        // Bytes bound characters from above: most values need no counting.
        if (to - from <= max) {
          return null;
        }
        int n = Utf8.chars(b, from, to);
        return n <= max ? null : n + " characters, limit " + max;
      }
    };
  }

  /**
   * Only the ASCII characters of {@code spec}, a character class body such as {@code A-Za-z0-9-_ }
   * (ranges {@code x-y}; a {@code -} first or last is literal).
   */
  static Rule chars(String spec) {
    boolean[] allowed = charClass(spec);
    return new Rule("bad-chars") {
      @Override
      String check(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
          int c = b[i];
          if (c < 0 || !allowed[c]) {
            return "character at byte " + (i - from) + " not in [" + spec + "]";
          }
        }
        return null;
      }
    };
  }

  static boolean[] charClass(String spec) {
    boolean[] allowed = new boolean[128];
    for (int i = 0; i < spec.length(); i++) {
      char c = spec.charAt(i);
      if (c > 127) {
        throw new IllegalArgumentException("chars: only ASCII classes are supported: '" + c + "'");
      }
      if (i + 2 < spec.length() && spec.charAt(i + 1) == '-') {
        char hi = spec.charAt(i + 2);
        if (hi < c || hi > 127) {
          throw new IllegalArgumentException("chars: bad range " + c + "-" + hi);
        }
        for (char x = c; x <= hi; x++) {
          allowed[x] = true;
        }
        i += 2;
      } else {
        allowed[c] = true;
      }
    }
    return allowed;
  }

  /** An integer: an optional '-' and 1 to 18 ASCII digits, nothing else ({@link EpInts}). */
  static Rule integer() {
    return new Rule("not-integer") {
      @Override
      String check(byte[] b, int from, int to) {
        return EpInts.parseLong(b, from, to) == EpInts.NOT_A_NUMBER ? "not an integer" : null;
      }
    };
  }

  /** An integer in {@code [min, max]}; follows {@link #integer()}, which rejects non-integers. */
  static Rule range(long min, long max) {
    return new Rule("out-of-range") {
      @Override
      String check(byte[] b, int from, int to) {
        long v = EpInts.parseLong(b, from, to);
        return v != EpInts.NOT_A_NUMBER && (v < min || v > max)
            ? String.format(Locale.ROOT, "%d outside [%d, %d]", v, min, max)
            : null;
      }
    };
  }

  /** At most {@code max} items separated by {@code sep} (e.g. '|' in add_image_link). */
  static Rule maxItems(int max, byte sep) {
    return new Rule("too-many-items") {
      @Override
      String check(byte[] b, int from, int to) {
        int n = 1;
        for (int i = from; i < to; i++) {
          n += b[i] == sep ? 1 : 0;
        }
        return n <= max ? null : n + " items, limit " + max;
      }
    };
  }

  /** Exactly {@code n} ASCII digits (e.g. naver_category). */
  static Rule digits(int n) {
    return new Rule("not-digits") {
      @Override
      String check(byte[] b, int from, int to) {
        boolean ok = to - from == n;
        for (int i = from; ok && i < to; i++) {
          ok = b[i] >= '0' && b[i] <= '9';
        }
        return ok ? null : "expected " + n + " digits";
      }
    };
  }

  /** Whether a non-empty value is checked only when present (every rule but required). */
  boolean skipsEmpty() {
    return !reason.equals("empty");
  }
}
