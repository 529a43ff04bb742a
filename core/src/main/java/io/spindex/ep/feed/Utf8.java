/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep.feed;

import io.spindex.annotations.Internal;
import io.spindex.text.Bytes;

/**
 * UTF-8 checks on bytes, without decoding. Valid means what {@code java.nio.charset} accepts as
 * UTF-8: shortest forms only, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF.
 *
 * <p>Lengths in EP rules are in characters, and a character here is a Unicode code point: a Korean
 * syllable (3 bytes) counts 1, like an ASCII letter; an emoji outside the BMP (4 bytes) counts 1
 * (Java's {@code String.length()} would say 2).
 */
@Internal
public final class Utf8 {
  private Utf8() {}

  /**
   * The position of the first byte of the first invalid sequence in {@code b[from, to)}, or -1 when
   * all of it is valid UTF-8. ASCII runs are skipped eight bytes at a time.
   */
  public static int firstInvalid(byte[] b, int from, int to) {
    int i = from;
    while (i < to) {
      // Fast path: eight ASCII bytes at once (no byte has its top bit set).
      while (i + 8 <= to && (Bytes.le64(b, i) & 0x8080808080808080L) == 0) {
        i += 8;
      }
      if (i >= to) {
        break;
      }
      int c = b[i];
      if (c >= 0) {
        i++;
        continue;
      }
      int n = sequenceLength(b, i, to);
      if (n < 0) {
        return i;
      }
      i += n;
    }
    return -1;
  }

  /** Length of the valid multi-byte sequence at {@code i}, or -1. */
  public static int sequenceLength(byte[] b, int i, int to) {
    int c = b[i] & 0xFF;
    if (c >= 0xC2 && c <= 0xDF) {
      return i + 1 < to && cont(b[i + 1]) ? 2 : -1;
    }
    if (c >= 0xE0 && c <= 0xEF) {
      if (i + 2 >= to || !cont(b[i + 1]) || !cont(b[i + 2])) {
        return -1;
      }
      int c1 = b[i + 1] & 0xFF;
      if (c == 0xE0 && c1 < 0xA0 || c == 0xED && c1 > 0x9F) {
        return -1; // overlong, or a surrogate
      }
      return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
      if (i + 3 >= to || !cont(b[i + 1]) || !cont(b[i + 2]) || !cont(b[i + 3])) {
        return -1;
      }
      int c1 = b[i + 1] & 0xFF;
      if (c == 0xF0 && c1 < 0x90 || c == 0xF4 && c1 > 0x8F) {
        return -1; // overlong, or above U+10FFFF
      }
      return 4;
    }
    return -1;
  }

  private static boolean cont(byte x) {
    return (x & 0xC0) == 0x80;
  }

  /** Characters (code points) in valid UTF-8 {@code b[from, to)}: bytes that start a sequence. */
  public static int chars(byte[] b, int from, int to) {
    int n = 0;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long w = Bytes.le64(b, i);
      n += 8 - Long.bitCount(w & ~(w << 1) & 0x8080808080808080L); // 10xxxxxx bytes start none
    }
    for (; i < to; i++) {
      n += (b[i] & 0xC0) == 0x80 ? 0 : 1;
    }
    return n;
  }
}
