/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.annotations.Internal;
import io.spindex.text.AddressText;
import io.spindex.text.Ipv4Text;
import io.spindex.text.RejectReason;
import java.io.Serializable;
import java.util.Locale;

/**
 * Finds the IPv4 or IPv6 address in one line of bytes, without decoding it. Two ways:
 *
 * <ul>
 *   <li><b>field</b>: field {@code index} (from 0) of the line split on one delimiter byte, read by
 *       {@link AddressText} with {@link AddressText#LOOKUP}: trimmed of white space and of one pair
 *       of double quotes, a dotted quad or IPv6 text, also as {@code [addr]}, {@code [addr]:port}
 *       or {@code a.b.c.d:port}; else the line is rejected with the reader's reason.
 *   <li><b>first</b>: the first address anywhere on the line, so that raw Apache and nginx access
 *       logs work as they are. A candidate is a maximal run of hex digits, colons and dots. With
 *       two colons or more it is tried as IPv6 text (trailing dots and one trailing colon dropped):
 *       it counts when it parses, the byte before it is not a letter, {@code _}, {@code /} or
 *       {@code -}, and the byte after it is not a letter, {@code _} or {@code %} (a zone id). Else,
 *       or when that fails, each run of digits and dots in it is tried as a dotted quad (trailing
 *       dots dropped, a sentence end): it counts when it parses, the byte before it is not a
 *       letter, digit, {@code _}, {@code /} or {@code -} (so {@code Chrome/120.0.0.0} and {@code
 *       v1.2.3.4} are versions, not addresses) and the byte after it is not a letter. {@code
 *       1.2.3.4:8080}, {@code [1.2.3.4]} and {@code [2001:db8::1]:443} count. Later candidates are
 *       tried when one fails, and a line without any is rejected as {@code no-ip-found}. Each
 *       candidate is read by {@link AddressText} ({@link AddressText#PLAIN}).
 * </ul>
 *
 * <p>Either way an IPv4-mapped address ({@code ::ffff:1.2.3.4}) is read as its IPv4 address.
 *
 * <p>Results: an IPv4 address as a value in {@code [0, 2^32)}; {@link #IPV6}, with the address's
 * high and low 64 bits in the caller's {@code long[2]}; or a negative {@link RejectReason#code()}.
 *
 * <p>Immutable and thread-safe; serializable so engines can ship it to tasks.
 */
@Internal
public final class IpLocator implements Serializable {
  private static final long serialVersionUID = 1L;

  /** {@link #index()} of a locator that scans for the first address on the line. */
  public static final int FIRST = -1;

  /** {@link #locate} result for an IPv6 address; its 128 bits are in the caller's array. */
  public static final long IPV6 = AddressText.IPV6;

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

  /** The first IPv4 or IPv6 address on the line. */
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
   * @param v6 receives the high and low 64 bits of an IPv6 address (at least 2 elements)
   * @return an IPv4 address as an unsigned value in {@code [0, 2^32)}, {@link #IPV6}, or a negative
   *     {@link RejectReason#code()}
   */
  public long locate(byte[] b, int from, int to, long[] v6) {
    int end = to;
    while (end > from && (b[end - 1] == '\r' || b[end - 1] == '\n')) {
      end--;
    }
    if (isBlankLine(b, from, end)) {
      return RejectReason.BLANK_LINE.code();
    }
    return index == FIRST ? scan(b, from, end, v6) : field(b, from, end, v6);
  }

  /** {@link #locate(byte[], int, int, long[])} for tests and one-off use (allocates per call). */
  public long locate(byte[] b, int from, int to) {
    return locate(b, from, to, new long[2]);
  }

  private long field(byte[] b, int from, int to, long[] v6) {
    int start = from;
    for (int f = 0; f < index; f++) {
      int d = indexOf(b, start, to, delimiter);
      if (d < 0) {
        return RejectReason.MISSING_FIELD.code();
      }
      start = d + 1;
    }
    int d = indexOf(b, start, to, delimiter);
    int end = d < 0 ? to : d;
    long a = AddressText.parse(b, start, end, AddressText.LOOKUP, v6);
    return a >= 0 ? a : empty(b, start, end) ? RejectReason.EMPTY_FIELD.code() : a;
  }

  /** Whether a field holds nothing but white space, or one pair of empty double quotes. */
  private static boolean empty(byte[] b, int from, int to) {
    int f = Ipv4Text.skipBlanks(b, from, to);
    int t = Ipv4Text.trimBlanks(b, f, to);
    return f == t || (t - f == 2 && b[f] == '"' && b[f + 1] == '"');
  }

  private static long scan(byte[] b, int from, int to, long[] v6) {
    int i = from;
    while (i < to) {
      if (!isAddressByte(b[i])) {
        i++;
        continue;
      }
      int s = i;
      int colons = 0;
      while (i < to && isAddressByte(b[i])) {
        colons += b[i] == ':' ? 1 : 0;
        i++;
      }
      if (colons >= 2) {
        long a = ipv6(b, s, i, from, to, v6);
        if (a >= 0) {
          return a;
        }
      }
      long a = ipv4(b, s, i, from, to, v6);
      if (a >= 0) {
        return a;
      }
    }
    return RejectReason.NO_IP_FOUND.code();
  }

  /**
   * Run {@code b[s, e)} (of hex digits, colons, dots) read as IPv6 text by the rules: {@link
   * #IPV6}, an IPv4 address when it is IPv4-mapped, or -1.
   */
  private static long ipv6(byte[] b, int s, int e, int from, int to, long[] v6) {
    if ((s > from && versionBefore(b[s - 1]))
        || (e < to && (isLetter(b[e]) || b[e] == '_' || b[e] == '%'))) {
      return -1;
    }
    int t = e;
    while (t > s && b[t - 1] == '.') {
      t--;
    }
    if (t - s >= 2 && b[t - 1] == ':' && b[t - 2] != ':') {
      t--;
    }
    long a = AddressText.parse(b, s, t, AddressText.PLAIN, v6);
    return a >= 0 ? a : -1;
  }

  /** The first dotted quad among the runs of digits and dots of {@code b[s, e)}, or -1. */
  private static long ipv4(byte[] b, int s0, int e0, int from, int to, long[] v6) {
    int i = s0;
    while (i < e0) {
      if (!isDigitOrDot(b[i])) {
        i++;
        continue;
      }
      int s = i;
      while (i < e0 && isDigitOrDot(b[i])) {
        i++;
      }
      int e = i;
      int t = e;
      while (t > s && b[t - 1] == '.') {
        t--;
      }
      // Shortest dotted quad is 7 bytes; most runs (times, sizes, status codes) end here.
      if (t - s >= 7 && (s == from || !versionBefore(b[s - 1])) && (e == to || !isLetter(b[e]))) {
        long a = AddressText.parse(b, s, t, AddressText.PLAIN, v6);
        if (a >= 0) {
          return a;
        }
      }
    }
    return -1;
  }

  /** A byte of an address candidate: a hex digit, a colon or a dot. */
  private static boolean isAddressByte(byte c) {
    int l = c | 0x20;
    return (c >= '0' && c <= ':') || c == '.' || (l >= 'a' && l <= 'f');
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
        ? "first IP address on the line"
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
