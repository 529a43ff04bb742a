/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import java.util.Locale;

/**
 * Value normalisers of the {@code normalize} step. Each reads {@code in[from, to)} (valid UTF-8)
 * and writes the result to {@code out} at {@code at}, never longer than the input, returning the
 * end. White space means ASCII space, U+00A0 (no-break space) and U+3000 (ideographic space, common
 * in Korean text); tabs and line ends cannot occur inside EP fields.
 */
enum Normalizer {
  /** Removes ASCII control characters (U+0000..U+001F, U+007F) and C1 controls (U+0080..U+009F). */
  STRIP_CONTROL("strip-control") {
    @Override
    boolean mayChange(byte[] in, int from, int to) {
      for (int i = from; i < to; i++) {
        byte c = in[i];
        if (c >= 0 && (c < 0x20 || c == 0x7F) || c == (byte) 0xC2) {
          return true;
        }
      }
      return false;
    }

    @Override
    int apply(byte[] in, int from, int to, byte[] out, int at) {
      int o = at;
      for (int i = from; i < to; i++) {
        byte c = in[i];
        if (c >= 0 && (c < 0x20 || c == 0x7F)) {
          continue;
        }
        if (c == (byte) 0xC2 && i + 1 < to && (in[i + 1] & 0xFF) < 0xA0) {
          i++; // C2 80..C2 9F: a C1 control
          continue;
        }
        out[o++] = c;
      }
      return o;
    }
  },
  /** Removes white space at both ends. */
  TRIM("trim") {
    @Override
    boolean mayChange(byte[] in, int from, int to) {
      return from < to && (spaceAt(in, from, to) > 0 || spaceEndingAt(in, from, to) > 0);
    }

    @Override
    int apply(byte[] in, int from, int to, byte[] out, int at) {
      int f = from;
      int t = to;
      int w;
      while (f < t && (w = spaceAt(in, f, t)) > 0) {
        f += w;
      }
      while (f < t && (w = spaceEndingAt(in, f, t)) > 0) {
        t -= w;
      }
      System.arraycopy(in, f, out, at, t - f);
      return at + t - f;
    }
  },
  /** Replaces every run of white space with one ASCII space (ends are not trimmed). */
  COLLAPSE_WHITESPACE("collapse-whitespace") {
    @Override
    boolean mayChange(byte[] in, int from, int to) {
      for (int i = from; i < to; i++) {
        byte c = in[i];
        if (c == ' ' && i + 1 < to && in[i + 1] == ' ' || c == (byte) 0xC2 || c == (byte) 0xE3) {
          return true;
        }
      }
      return false;
    }

    @Override
    int apply(byte[] in, int from, int to, byte[] out, int at) {
      int o = at;
      boolean inRun = false;
      for (int i = from; i < to; ) {
        int w = spaceAt(in, i, to);
        if (w > 0) {
          if (!inRun) {
            out[o++] = ' ';
            inRun = true;
          }
          i += w;
        } else {
          out[o++] = in[i++];
          inRun = false;
        }
      }
      return o;
    }
  },
  /**
   * Keeps the ASCII digits of the integer part: {@code "12,000원"} becomes {@code 12000}, {@code
   * "9,900.00"} becomes {@code 9900}; a {@code '-'} before the first digit is kept ({@code
   * shipping} may be -1). Everything from the first {@code '.'} on is dropped.
   */
  DIGITS_ONLY("digits-only") {
    @Override
    boolean mayChange(byte[] in, int from, int to) {
      for (int i = from; i < to; i++) {
        byte c = in[i];
        if ((c < '0' || c > '9') && (c != '-' || i != from || to - from == 1)) {
          return true;
        }
      }
      return false;
    }

    @Override
    int apply(byte[] in, int from, int to, byte[] out, int at) {
      int o = at;
      boolean minus = false;
      for (int i = from; i < to; i++) {
        byte c = in[i];
        if (c >= '0' && c <= '9') {
          if (minus && o == at) {
            out[o++] = '-';
          }
          out[o++] = c;
        } else if (c == '-' && o == at) {
          minus = true;
        } else if (c == '.') {
          break;
        }
      }
      return o;
    }
  };

  private final String specName;

  Normalizer(String specName) {
    this.specName = specName;
  }

  /** The name used in transform specs, e.g. {@code collapse-whitespace}. */
  public String specName() {
    return specName;
  }

  abstract int apply(byte[] in, int from, int to, byte[] out, int at);

  /**
   * A cheap scan: {@code false} only when {@link #apply} would return the value unchanged, so the
   * common clean value is not copied at all.
   */
  abstract boolean mayChange(byte[] in, int from, int to);

  /** The normaliser called {@code name} in a spec. */
  public static Normalizer byName(String name) {
    for (Normalizer n : values()) {
      if (n.specName.equals(name)) {
        return n;
      }
    }
    StringBuilder known = new StringBuilder();
    for (Normalizer n : values()) {
      known.append(known.length() == 0 ? "" : ", ").append(n.specName);
    }
    throw new IllegalArgumentException(
        "unknown normaliser '" + name.toLowerCase(Locale.ROOT) + "' (known: " + known + ")");
  }

  /** Length of the white space character starting at {@code i}, or 0. */
  static int spaceAt(byte[] b, int i, int to) {
    byte c = b[i];
    if (c == ' ') {
      return 1;
    }
    if (c == (byte) 0xC2 && i + 1 < to && b[i + 1] == (byte) 0xA0) {
      return 2;
    }
    if (c == (byte) 0xE3 && i + 2 < to && b[i + 1] == (byte) 0x80 && b[i + 2] == (byte) 0x80) {
      return 3;
    }
    return 0;
  }

  /** Length of the white space character ending just before {@code to}, or 0. */
  static int spaceEndingAt(byte[] b, int from, int to) {
    if (b[to - 1] == ' ') {
      return 1;
    }
    if (to - from >= 2 && b[to - 2] == (byte) 0xC2 && b[to - 1] == (byte) 0xA0) {
      return 2;
    }
    if (to - from >= 3
        && b[to - 3] == (byte) 0xE3
        && b[to - 2] == (byte) 0x80
        && b[to - 1] == (byte) 0x80) {
      return 3;
    }
    return 0;
  }
}
