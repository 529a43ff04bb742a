/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;

/**
 * A value quoted in a message, cut to a bounded length: a message names what it found, but a
 * million-character value must not make a million-character message, and a control character must
 * not break the message's line.
 */
@Internal
public final class Clip {
  /** How much of a value a message quotes by default. */
  public static final int DEFAULT = 60;

  private Clip() {}

  /**
   * {@code s} with control characters as {@code \n}, {@code \t} or {@code \xHH}, cut after {@code
   * max} characters with the length of the whole: {@code abc...(1000000 chars)}.
   */
  public static String of(String s, int max) {
    StringBuilder sb = new StringBuilder(Math.min(s.length(), max) + 24);
    int n = Math.min(s.length(), max);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c < 0x20 || c == 0x7f) {
        sb.append(String.format(java.util.Locale.ROOT, "\\x%02x", (int) c));
      } else {
        sb.append(c);
      }
    }
    if (s.length() > max) {
      sb.append("...(").append(s.length()).append(" chars)");
    }
    return sb.toString();
  }

  /** {@link #of(String, int)} with {@link #DEFAULT}. */
  public static String of(String s) {
    return of(s, DEFAULT);
  }
}
