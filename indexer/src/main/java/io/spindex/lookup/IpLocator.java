/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.text.Ipv4Text;
import java.io.Serializable;
import java.util.Locale;

/**
 * Finds the IPv4 address in one line of bytes, without decoding it. Two ways:
 *
 * <ul>
 *   <li><b>field</b>: field {@code index} (from 0) of the line split on one delimiter byte; the
 *       field is trimmed of white space and of one pair of double quotes, and must be exactly a
 *       dotted quad ({@link Ipv4Text#parse}), else the line is rejected with that parser's reason.
 *   <li><b>first</b>: the first dotted quad anywhere on the line, so that raw Apache and nginx
 *       access logs work as they are. A candidate is a maximal run of digits and dots, with
 *       trailing dots dropped (a sentence end); it counts when it parses as a dotted quad, the byte
 *       before the run is not a letter, digit, {@code _}, {@code /} or {@code -} (so {@code
 *       Chrome/120.0.0.0} and {@code v1.2.3.4} are versions, not addresses) and the byte after it
 *       is not a letter. {@code 1.2.3.4:8080} and {@code [1.2.3.4]} count. Later candidates are
 *       tried when one fails, and a line without any is rejected as {@code no-ipv4-found}.
 * </ul>
 *
 * <p>Immutable and thread-safe; serializable so engines can ship it to tasks.
 */
public final class IpLocator implements Serializable {
  private static final long serialVersionUID = 1L;

  /** {@link #index()} of a locator that scans for the first address on the line. */
  public static final int FIRST = -1;

  private final byte delimiter;
  private final int index;

  private IpLocator(byte delimiter, int index) {
    this.delimiter = delimiter;
    this.index = index;
  }

  /** Field {@code index} (from 0) of lines split on {@code delimiter}. */
  public static IpLocator field(byte delimiter, int index) {
    if (index < 0) {
      throw new IllegalArgumentException("field index must be >= 0, got " + index);
    }
    return new IpLocator(delimiter, index);
  }

  /** The first dotted quad on the line. */
  public static IpLocator first() {
    return new IpLocator((byte) 0, FIRST);
  }

  /**
   * From option text: {@code where} is {@code first} or a field index from 0; {@code delimiter} is
   * {@code tab}, {@code space}, {@code comma}, {@code pipe}, {@code semicolon} or one ASCII
   * character (ignored for {@code first}).
   */
  public static IpLocator parse(String where, String delimiter) {
    String w = where.trim().toLowerCase(Locale.ROOT);
    if (w.equals("first")) {
      return first();
    }
    int i;
    try {
      i = Integer.parseInt(w);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "IP position '" + where + "': expected 'first' or a field index from 0");
    }
    return field(delimiterByte(delimiter), i);
  }

  /** The byte for a delimiter name ({@code tab}, {@code comma}, ...) or a one-character string. */
  public static byte delimiterByte(String name) {
    switch (name.toLowerCase(Locale.ROOT)) {
      case "tab":
      case "\\t":
        return '\t';
      case "space":
        return ' ';
      case "comma":
        return ',';
      case "pipe":
        return '|';
      case "semicolon":
        return ';';
      default:
        if (name.length() == 1 && name.charAt(0) < 128) {
          return (byte) name.charAt(0);
        }
        throw new IllegalArgumentException(
            "delimiter '"
                + name
                + "': expected tab, space, comma, pipe, semicolon or one character");
    }
  }

  /** Field index from 0, or {@link #FIRST}. */
  public int index() {
    return index;
  }

  /** Field delimiter (0 for {@link #FIRST}). */
  public byte delimiter() {
    return delimiter;
  }

  /**
   * Locates the address in {@code b[from, to)} (one line, without its line end; a trailing CR is
   * ignored).
   *
   * @return the address as an unsigned value in {@code [0, 2^32)}, or a negative {@link
   *     RejectReason#code()}
   */
  public long locate(byte[] b, int from, int to) {
    int end = to;
    while (end > from && (b[end - 1] == '\r' || b[end - 1] == '\n')) {
      end--;
    }
    if (isBlankLine(b, from, end)) {
      return RejectReason.BLANK_LINE.code();
    }
    return index == FIRST ? scan(b, from, end) : field(b, from, end);
  }

  private long field(byte[] b, int from, int to) {
    int start = from;
    for (int f = 0; f < index; f++) {
      int d = indexOf(b, start, to, delimiter);
      if (d < 0) {
        return RejectReason.MISSING_FIELD.code();
      }
      start = d + 1;
    }
    int d = indexOf(b, start, to, delimiter);
    int s = start;
    int e = d < 0 ? to : d;
    while (s < e && Ipv4Text.isBlank(b[s])) {
      s++;
    }
    while (e > s && Ipv4Text.isBlank(b[e - 1])) {
      e--;
    }
    if (e - s >= 2 && b[s] == '"' && b[e - 1] == '"') {
      s++;
      e--;
    }
    long a = Ipv4Text.parse(b, s, e);
    return a >= 0 ? a : RejectReason.ofParse(a).code();
  }

  private static long scan(byte[] b, int from, int to) {
    int i = from;
    while (i < to) {
      if (!isDigitOrDot(b[i])) {
        i++;
        continue;
      }
      int s = i;
      while (i < to && isDigitOrDot(b[i])) {
        i++;
      }
      int e = i;
      int t = e;
      while (t > s && b[t - 1] == '.') {
        t--;
      }
      // Shortest dotted quad is 7 bytes; most runs (times, sizes, status codes) end here.
      if (t - s >= 7 && (s == from || !versionBefore(b[s - 1])) && (e == to || !isLetter(b[e]))) {
        long a = Ipv4Text.parse(b, s, t);
        if (a >= 0) {
          return a;
        }
      }
    }
    return RejectReason.NO_IPV4_FOUND.code();
  }

  private static boolean isDigitOrDot(byte c) {
    return (c >= '0' && c <= '9') || c == '.';
  }

  private static boolean isLetter(byte c) {
    int l = c | 0x20;
    return l >= 'a' && l <= 'z';
  }

  private static boolean versionBefore(byte c) {
    return isLetter(c) || c == '_' || c == '/' || c == '-';
  }

  private static boolean isBlankLine(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (!Ipv4Text.isBlank(b[i])) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(byte[] b, int from, int to, byte c) {
    for (int i = from; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    return index == FIRST
        ? "first IPv4 on the line"
        : "field " + index + " split on " + describe(delimiter);
  }

  private static String describe(byte d) {
    switch (d) {
      case '\t':
        return "tab";
      case ' ':
        return "space";
      default:
        return "'" + (char) d + "'";
    }
  }
}
