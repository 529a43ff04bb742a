/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.ep.feed.EpInts;
import io.spindex.ep.feed.Utf8;
import io.spindex.text.Bytes;
import java.util.Locale;

/**
 * One check of a {@code require} step on one field's bytes. Checks other than {@link #required}
 * pass an empty value (emptiness is {@code required}'s business). One final class with a switch
 * rather than a subclass per rule: a row runs through some twenty rules, and a call site that sees
 * seven classes is not inlined. Immutable and thread-safe.
 */
final class Rule {
  private static final int REQUIRED = 0;
  private static final int MAX_CHARS = 1;
  private static final int CHARS = 2;
  private static final int MAX_ITEMS = 4;
  private static final int DIGITS = 5;
  private static final int INTEGER_RANGE = 3;

  /** The detail of an {@link #integer(long, long)} reject that is not an integer at all. */
  private static final String NOT_AN_INTEGER = "not an integer";

  /**
   * The reason prefix of a reject, e.g. {@code too-long} (the reason is {@code too-long:title}).
   */
  final String reason;

  private final int kind;
  private final long min;
  private final long max;
  private final byte separator;
  private final long separators;
  private final boolean[] allowed;
  private final String spec;

  private Rule(
      String reason, int kind, long min, long max, byte separator, boolean[] allowed, String spec) {
    this.reason = reason;
    this.kind = kind;
    this.min = min;
    this.max = max;
    this.separator = separator;
    this.separators = Bytes.repeat(separator);
    this.allowed = allowed;
    this.spec = spec;
  }

  /** The value must not be empty. */
  static Rule required() {
    return new Rule("empty", REQUIRED, 0, 0, (byte) 0, null, null);
  }

  /** At most {@code max} characters (code points, see {@link Utf8}). */
  static Rule maxChars(int max) {
    return new Rule("too-long", MAX_CHARS, 0, max, (byte) 0, null, null);
  }

  /**
   * Only the ASCII characters of {@code spec}, a character class body such as {@code A-Za-z0-9-_ }
   * (ranges {@code x-y}; a {@code -} first or last is literal).
   */
  static Rule chars(String spec) {
    return new Rule("bad-chars", CHARS, 0, 0, (byte) 0, charClass(spec), spec);
  }

  /**
   * An integer (an optional '-' and 1 to 18 ASCII digits, nothing else: {@link EpInts}) in {@code
   * [min, max]}, parsed once: reason {@code not-integer} or, for an integer out of bounds, {@code
   * out-of-range} (see {@link #reasonFor}).
   */
  static Rule integer(long min, long max) {
    return new Rule("not-integer", INTEGER_RANGE, min, max, (byte) 0, null, null);
  }

  /** The reason of a reject with this {@code detail}: the rule's, or out-of-range. */
  String reasonFor(String detail) {
    return kind == INTEGER_RANGE && !NOT_AN_INTEGER.equals(detail) ? "out-of-range" : reason;
  }

  /** At most {@code max} items separated by {@code sep} (e.g. '|' in add_image_link). */
  static Rule maxItems(int max, byte sep) {
    return new Rule("too-many-items", MAX_ITEMS, 0, max, sep, null, null);
  }

  /** Exactly {@code n} ASCII digits (e.g. naver_category). */
  static Rule digits(int n) {
    return new Rule("not-digits", DIGITS, 0, n, (byte) 0, null, null);
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

  /** Whether an empty value passes without a look (every rule but required). */
  boolean skipsEmpty() {
    return kind != REQUIRED;
  }

  /**
   * The longest value (in bytes, not empty) that passes whatever its bytes, so needs no look: any
   * for required; {@code max} for max-chars (a character is at least a byte); {@code max - 1} for
   * max-items (a value of n bytes has at most n + 1 items); -1 for the others.
   */
  int passesUpTo() {
    switch (kind) {
      case REQUIRED:
        return Integer.MAX_VALUE;
      case MAX_CHARS:
        return (int) Math.min(max, Integer.MAX_VALUE);
      case MAX_ITEMS:
        return (int) Math.min(max - 1, Integer.MAX_VALUE);
      default:
        return -1;
    }
  }

  /** {@code null} when {@code b[from, to)} passes, else what is wrong, for the rejects file. */
  String check(byte[] b, int from, int to) {
    switch (kind) {
      case REQUIRED:
        return from == to ? "empty, but required" : null;
      case MAX_CHARS:
        {
          // Bytes bound characters from above: most values need no counting.
          if (to - from <= max) {
            return null;
          }
          int n = Utf8.chars(b, from, to);
          return n <= max ? null : n + " characters, limit " + max;
        }
      case CHARS:
        for (int i = from; i < to; i++) {
          int c = b[i];
          if (c < 0 || !allowed[c]) {
            return "character at byte " + (i - from) + " not in [" + spec + "]";
          }
        }
        return null;
      case INTEGER_RANGE:
        {
          long v = EpInts.parseLong(b, from, to);
          if (v == EpInts.NOT_A_NUMBER) {
            return NOT_AN_INTEGER;
          }
          return v < min || v > max
              ? String.format(Locale.ROOT, "%d outside [%d, %d]", v, min, max)
              : null;
        }
      case MAX_ITEMS:
        {
          int n = 1 + Bytes.count(b, from, to, separator, separators);
          return n <= max ? null : n + " items, limit " + max;
        }
      default:
        {
          boolean ok = to - from == max;
          for (int i = from; ok && i < to; i++) {
            ok = b[i] >= '0' && b[i] <= '9';
          }
          return ok ? null : "expected " + max + " digits";
        }
    }
  }
}
