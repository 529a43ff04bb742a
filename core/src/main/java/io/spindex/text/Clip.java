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

  /** How much of a path a message quotes: its start and its end (the file's name) survive. */
  public static final int PATH = 120;

  /**
   * {@code s} with control characters escaped as {@link #of(String, int)} escapes them, and when
   * longer than {@code max}, its start and its end with what was left out counted between them:
   * {@code /data/aaa...(4000 chars)...zzz/geo.spx}. For paths, whose end names the file.
   */
  public static String middle(String s, int max) {
    String e = of(s, Integer.MAX_VALUE);
    if (e.length() <= max) {
      return e;
    }
    String gap = "...(" + s.length() + " chars)...";
    int keep = Math.max(2, max - gap.length());
    int head = keep / 2;
    return e.substring(0, head) + gap + e.substring(e.length() - (keep - head));
  }

  /** {@link #middle} of a path, to {@link #PATH} characters. */
  public static String path(Object p) {
    return middle(String.valueOf(p), PATH);
  }

  /** The longest message {@link #message} gives. */
  public static final int MAX_MESSAGE = 400;

  /** Words of a message longer than this are values to clip ({@link #middle}). */
  private static final int LONG_WORD = 100;

  /**
   * A message as a person reads it on one line, whoever built it: control characters escaped (a
   * value holding a line end does not split it), every word (a run without spaces: a path, a value)
   * longer than 100 characters cut in its middle, and the whole at most {@value #MAX_MESSAGE}
   * characters: its start (what happened) and its end (what to do) kept. Messages that quote values
   * clip them where they are built; this is the last guard.
   */
  public static String message(String m) {
    String e = of(m, Integer.MAX_VALUE);
    if (e.length() <= LONG_WORD) {
      return e;
    }
    StringBuilder sb = new StringBuilder(Math.min(e.length(), 2 * MAX_MESSAGE));
    int from = 0;
    while (from <= e.length()) {
      int sp = e.indexOf(' ', from);
      int to = sp < 0 ? e.length() : sp;
      String word = e.substring(from, to);
      sb.append(word.length() > LONG_WORD ? middle(word, LONG_WORD) : word);
      if (sp < 0) {
        break;
      }
      sb.append(' ');
      from = sp + 1;
    }
    if (sb.length() <= MAX_MESSAGE) {
      return sb.toString();
    }
    String gap = " ... ";
    int tail = 100;
    int head = MAX_MESSAGE - gap.length() - tail;
    return sb.substring(0, head) + gap + sb.substring(sb.length() - tail);
  }
}
