/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;

/**
 * Parses one IP range line: {@code start<d>end<d>label} (start and end as dotted quads, IPv6 text
 * or unsigned decimal integers, optionally double-quoted) or {@code address/len<d>label} (IPv4 or
 * IPv6 CIDR). The label is the rest of the line after the delimiter that ends the end (or CIDR)
 * field, byte for byte; a line with nothing after that field has the empty label. Not thread-safe:
 * one instance per thread.
 *
 * <p>Families: a field with a colon is IPv6 ({@link Ipv6Text}); a decimal integer is IPv4 when it
 * is below 2^32 and IPv6 (up to 2^128 - 1, as in the {@code *-ipv6-num.csv} files) otherwise, and a
 * line whose one end is a decimal IPv6 number reads its other decimal end as IPv6 too. Both ends of
 * a range are of one family; {@link #family()} says which.
 */
@Internal
public final class RangeLine {
  /** Reject reasons, as counted in summaries. */
  public static final String BAD_START = "bad-start";

  public static final String BAD_END = "bad-end";
  public static final String MISSING_END = "missing-end";
  public static final String END_BEFORE_START = "end-before-start";
  public static final String BAD_CIDR = "bad-cidr-prefix";
  public static final String CIDR_HOST_BITS = "cidr-host-bits-set";
  public static final String MIXED_FAMILIES = "mixed-families";

  private final byte delimiter;

  /** Results of the last successful {@link #parse}. */
  private long start;

  private long end;
  private long startHi;
  private long startLo;
  private long endHi;
  private long endLo;
  private int family;
  private int labelFrom;
  private int labelTo;

  /** The last parsed field ({@link #field}): IPv6 halves, or the IPv4 address in the low half. */
  private final long[] v6 = new long[2];

  private String fieldError;
  private boolean fieldDecimal;

  public RangeLine(byte delimiter) {
    this.delimiter = delimiter;
  }

  /**
   * Parses {@code b[from, to)}.
   *
   * @return {@code null} when the line is a range (see {@link #start()} and friends), else the
   *     reject reason
   */
  public String parse(byte[] b, int from, int to) {
    int lineEnd = to;
    while (lineEnd > from && (b[lineEnd - 1] == '\r' || b[lineEnd - 1] == '\n')) {
      lineEnd--;
    }
    int d1 = indexOf(b, from, lineEnd, delimiter);
    int f1End = d1 < 0 ? lineEnd : d1;
    int slash = indexOf(b, from, f1End, (byte) '/');
    if (slash >= 0) {
      return parseCidr(b, from, slash, f1End, d1 < 0 ? lineEnd : d1 + 1, lineEnd);
    }
    int f1 = field(b, from, f1End);
    if (f1 == 0) {
      return fieldError == null ? BAD_START : fieldError;
    }
    boolean decimal1 = fieldDecimal;
    long sHi = v6[0];
    long sLo = v6[1];
    if (d1 < 0) {
      return MISSING_END;
    }
    int d2 = indexOf(b, d1 + 1, lineEnd, delimiter);
    int f2End = d2 < 0 ? lineEnd : d2;
    int f2 = field(b, d1 + 1, f2End);
    if (f2 == 0) {
      return fieldError == null ? BAD_END : fieldError;
    }
    if (f1 != f2) {
      // A decimal end below 2^32 beside a decimal IPv6 number is an IPv6 number too.
      if (!(decimal1 && fieldDecimal)) {
        return MIXED_FAMILIES;
      }
      f1 = 6;
      f2 = 6;
    }
    long eHi = v6[0];
    long eLo = v6[1];
    int c = Long.compareUnsigned(eHi, sHi);
    if (c < 0 || (c == 0 && Long.compareUnsigned(eLo, sLo) < 0)) {
      return END_BEFORE_START;
    }
    set(f1, sHi, sLo, eHi, eLo);
    labelFrom = d2 < 0 ? lineEnd : d2 + 1;
    labelTo = lineEnd;
    return null;
  }

  private void set(int family, long sHi, long sLo, long eHi, long eLo) {
    this.family = family;
    startHi = sHi;
    startLo = sLo;
    endHi = eHi;
    endLo = eLo;
    start = sLo & 0xFFFF_FFFFL;
    end = eLo & 0xFFFF_FFFFL;
  }

  private String parseCidr(byte[] b, int from, int slash, int fieldEnd, int label, int lineEnd) {
    int f = from;
    while (f < slash && Ipv4Text.isBlank(b[f])) {
      f++;
    }
    if (f < slash && b[f] == '"') {
      f++;
    }
    int q = fieldEnd;
    while (q > slash && Ipv4Text.isBlank(b[q - 1])) {
      q--;
    }
    if (q > slash && b[q - 1] == '"') {
      q--;
    }
    if (indexOf(b, f, slash, (byte) ':') >= 0) {
      int len = Ipv6Text.parseCidr(b, f, q, v6);
      if (len < 0) {
        return len == Ipv6Text.HOST_BITS_SET
            ? CIDR_HOST_BITS
            : len == Ipv6Text.PREFIX_OUT_OF_RANGE ? BAD_CIDR : Ipv6Text.reason(len);
      }
      long hostHi = len >= 64 ? 0 : -1L >>> len;
      long hostLo = len <= 64 ? -1L : len == 128 ? 0 : -1L >>> (len - 64);
      set(6, v6[0], v6[1], v6[0] | hostHi, v6[1] | hostLo);
      labelFrom = label;
      labelTo = lineEnd;
      return null;
    }
    long a = address(b, from, slash);
    if (a < 0) {
      return BAD_START;
    }
    int p = slash + 1;
    if (q == p || q - p > 2 || (q - p == 2 && b[p] == '0')) {
      return BAD_CIDR; // no digits, too many, or a leading zero (as in addresses)
    }
    int len = 0;
    for (int i = p; i < q; i++) {
      int c = b[i] - '0';
      if (c < 0 || c > 9) {
        return BAD_CIDR;
      }
      len = len * 10 + c;
    }
    if (len > 32) {
      return BAD_CIDR;
    }
    long size = 1L << (32 - len);
    if ((a & (size - 1)) != 0) {
      return CIDR_HOST_BITS;
    }
    set(4, 0, a, 0, a + size - 1);
    labelFrom = label;
    labelTo = lineEnd;
    return null;
  }

  /**
   * Parses one address field (trimmed, unquoted) into {@link #v6}: returns 4 (the address in the
   * low half) or 6, or 0 with {@link #fieldError} set to an IPv6 reason (or {@code null} for a
   * field that is no address of either family).
   */
  private int field(byte[] b, int from, int to) {
    int f = from;
    int t = to;
    while (f < t && Ipv4Text.isBlank(b[f])) {
      f++;
    }
    while (t > f && Ipv4Text.isBlank(b[t - 1])) {
      t--;
    }
    if (t - f >= 2 && b[f] == '"' && b[t - 1] == '"') {
      f++;
      t--;
    }
    fieldError = null;
    fieldDecimal = false;
    if (indexOf(b, f, t, (byte) ':') >= 0) {
      int code = Ipv6Text.parse(b, f, t, v6);
      if (code != Ipv6Text.OK) {
        fieldError = Ipv6Text.reason(code);
        return 0;
      }
      return 6;
    }
    long a = address(b, f, t);
    if (a >= 0) {
      fieldDecimal = isDigits(b, f, t);
      v6[0] = 0;
      v6[1] = a;
      return 4;
    }
    if (isDigits(b, f, t)) {
      int code = Ipv6Text.parseDecimal(b, f, t, v6);
      if (code == Ipv6Text.OK) {
        fieldDecimal = true;
        return 6;
      }
      fieldError = code == Ipv6Text.NUMBER_OUT_OF_RANGE ? Ipv6Text.reason(code) : null;
    }
    return 0;
  }

  private static boolean isDigits(byte[] b, int f, int t) {
    boolean digitsOnly = t > f;
    for (int i = f; i < t && digitsOnly; i++) {
      digitsOnly = b[i] >= '0' && b[i] <= '9';
    }
    return digitsOnly;
  }

  /** A dotted quad or an unsigned decimal in [0, 2^32), trimmed and unquoted; negative if not. */
  static long address(byte[] b, int from, int to) {
    int f = from;
    int t = to;
    while (f < t && Ipv4Text.isBlank(b[f])) {
      f++;
    }
    while (t > f && Ipv4Text.isBlank(b[t - 1])) {
      t--;
    }
    if (t - f >= 2 && b[f] == '"' && b[t - 1] == '"') {
      f++;
      t--;
    }
    if (!isDigits(b, f, t)) {
      return Ipv4Text.parse(b, f, t);
    }
    if (t - f > 10 || (t - f > 1 && b[f] == '0')) {
      return Ipv4Text.NOT_IPV4;
    }
    long v = 0;
    for (int i = f; i < t; i++) {
      v = v * 10 + (b[i] - '0');
    }
    return v <= 0xFFFF_FFFFL ? v : Ipv4Text.NOT_IPV4;
  }

  private static int indexOf(byte[] b, int from, int to, byte c) {
    for (int i = from; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  /** The field delimiter. */
  public byte delimiter() {
    return delimiter;
  }

  /** Family of the last parsed range: 4 or 6. */
  public int family() {
    return family;
  }

  /** High 64 bits of the first address of the last parsed range (0 for IPv4). */
  public long startHi() {
    return startHi;
  }

  /** Low 64 bits of the first address (the IPv4 address for IPv4). */
  public long startLo() {
    return startLo;
  }

  /** High 64 bits of the last address (inclusive). */
  public long endHi() {
    return endHi;
  }

  /** Low 64 bits of the last address (inclusive). */
  public long endLo() {
    return endLo;
  }

  /** First address of the last parsed range if it is IPv4 ({@link #family()} 4), unsigned. */
  public long start() {
    return start;
  }

  /** Last address (inclusive) of the last parsed IPv4 range, unsigned. */
  public long end() {
    return end;
  }

  /** Label of the last parsed range: {@code b[labelFrom(), labelTo())}. */
  public int labelFrom() {
    return labelFrom;
  }

  public int labelTo() {
    return labelTo;
  }

  /**
   * Whether a line looks like a header: no field of it (split on tab, '|' and ',', trimmed and
   * unquoted, a CIDR's prefix left out) is an IPv4 or IPv6 address or an address number. A first
   * line that is a malformed range has such a field, and is rejected rather than skipped.
   */
  public static boolean looksLikeHeader(byte[] b, int from, int to) {
    long[] v6 = new long[2];
    int f = from;
    for (int i = from; i <= to; i++) {
      if (i == to || b[i] == '\t' || b[i] == '|' || b[i] == ',') {
        int s = f;
        int e = i;
        while (s < e && (Ipv4Text.isBlank(b[s]) || b[s] == '"')) {
          s++;
        }
        while (e > s && (Ipv4Text.isBlank(b[e - 1]) || b[e - 1] == '"' || b[e - 1] == '\r')) {
          e--;
        }
        int slash = indexOf(b, s, e, (byte) '/');
        if (slash >= 0) {
          e = slash;
        }
        if (e > s
            && (address(b, s, e) >= 0
                || Ipv6Text.parse(b, s, e, v6) == Ipv6Text.OK
                || (isDigits(b, s, e) && e - s <= 39))) {
          return false;
        }
        f = i + 1;
      }
    }
    return true;
  }

  /** The first of tab, '|' and ',' that occurs in the line, or ',' when none does. */
  public static byte firstDelimiter(byte[] b, int from, int to) {
    for (byte d : new byte[] {'\t', '|', ','}) {
      if (indexOf(b, from, to, d) >= 0) {
        return d;
      }
    }
    return ',';
  }

  /**
   * Picks the delimiter for a file from one of its first lines: the first of tab, '|' and ',' with
   * which the line parses as a range; {@code 0} when none does (e.g. a header line).
   */
  public static byte detectDelimiter(byte[] b, int from, int to) {
    for (byte d : new byte[] {'\t', '|', ','}) {
      if (indexOf(b, from, to, d) >= 0 && new RangeLine(d).parse(b, from, to) == null) {
        return d;
      }
    }
    return 0;
  }
}
