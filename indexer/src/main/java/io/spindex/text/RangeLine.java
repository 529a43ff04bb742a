/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

/**
 * Parses one IP range line: {@code start<d>end<d>label} (start and end as dotted quads or unsigned
 * decimal integers, optionally double-quoted) or {@code a.b.c.d/len<d>label}. The label is the rest
 * of the line after the delimiter that ends the end (or CIDR) field, byte for byte; a line with
 * nothing after that field has the empty label. Not thread-safe: one instance per thread.
 */
public final class RangeLine {
  /** Reject reasons, as counted in summaries. */
  public static final String BAD_START = "bad-start";

  public static final String BAD_END = "bad-end";
  public static final String MISSING_END = "missing-end";
  public static final String END_BEFORE_START = "end-before-start";
  public static final String BAD_CIDR = "bad-cidr-prefix";
  public static final String CIDR_HOST_BITS = "cidr-host-bits-set";
  public static final String IPV6 = "ipv6-unsupported";

  private final byte delimiter;

  /** Results of the last successful {@link #parse}. */
  private long start;

  private long end;
  private int labelFrom;
  private int labelTo;

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
    long s = address(b, from, f1End);
    if (s < 0) {
      return s == Ipv4Text.IPV6 ? IPV6 : BAD_START;
    }
    if (d1 < 0) {
      return MISSING_END;
    }
    int d2 = indexOf(b, d1 + 1, lineEnd, delimiter);
    int f2End = d2 < 0 ? lineEnd : d2;
    long e = address(b, d1 + 1, f2End);
    if (e < 0) {
      return e == Ipv4Text.IPV6 ? IPV6 : BAD_END;
    }
    if (e < s) {
      return END_BEFORE_START;
    }
    start = s;
    end = e;
    labelFrom = d2 < 0 ? lineEnd : d2 + 1;
    labelTo = lineEnd;
    return null;
  }

  private String parseCidr(byte[] b, int from, int slash, int fieldEnd, int label, int lineEnd) {
    long a = address(b, from, slash);
    if (a < 0) {
      return a == Ipv4Text.IPV6 ? IPV6 : BAD_START;
    }
    int p = slash + 1;
    int q = fieldEnd;
    while (q > p && Ipv4Text.isBlank(b[q - 1])) {
      q--;
    }
    if (q > p && b[q - 1] == '"') {
      q--;
    }
    if (q == p || q - p > 2) {
      return BAD_CIDR;
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
    start = a;
    end = a + size - 1;
    labelFrom = label;
    labelTo = lineEnd;
    return null;
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
    boolean digitsOnly = t > f;
    for (int i = f; i < t && digitsOnly; i++) {
      digitsOnly = b[i] >= '0' && b[i] <= '9';
    }
    if (!digitsOnly) {
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

  /** First address of the last parsed range, unsigned. */
  public long start() {
    return start;
  }

  /** Last address (inclusive) of the last parsed range, unsigned. */
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
