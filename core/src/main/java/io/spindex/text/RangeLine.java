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
 * IPv6 CIDR), each field read by {@link AddressText} ({@link AddressText#RANGE_FIRST}, then {@link
 * AddressText#RANGE}: no brackets, no ports). The label is the rest of the line after the delimiter
 * that ends the end (or CIDR) field, byte for byte; a line with nothing after that field has the
 * empty label. Not thread-safe: one instance per thread.
 *
 * <p>Families: a field with a colon is IPv6, except an IPv4-mapped address ({@code
 * ::ffff:a.b.c.d}), which is read as IPv4 (a range or CIDR block of mapped addresses is an IPv4
 * range); a decimal integer is IPv4 when it is below 2^32 and IPv6 (up to 2^128 - 1, as in the
 * {@code *-ipv6-num.csv} files) otherwise, and a line whose one end is a decimal IPv6 number reads
 * its other decimal end as IPv6 too, as a line whose one end is IPv6 reads its IPv4-mapped other
 * end as IPv6. Both ends of a range are of one family; {@link #family()} says which.
 */
@Internal
public final class RangeLine {
  /** Reject reasons, as counted in summaries: {@link RejectReason}'s names. */
  public static final String BAD_START = RejectReason.BAD_START.label();

  public static final String BAD_END = RejectReason.BAD_END.label();
  public static final String MISSING_END = RejectReason.MISSING_END.label();
  public static final String END_BEFORE_START = RejectReason.END_BEFORE_START.label();
  public static final String BAD_CIDR = RejectReason.BAD_CIDR_PREFIX.label();
  public static final String CIDR_HOST_BITS = RejectReason.CIDR_HOST_BITS_SET.label();
  public static final String MIXED_FAMILIES = RejectReason.MIXED_FAMILIES.label();

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

  /** The reader's result for the last field: IPv6 halves, forms found, CIDR prefix. */
  private final long[] v6 = new long[AddressText.DETAILED];

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
    long a1 = AddressText.parse(b, from, f1End, AddressText.RANGE_FIRST, v6);
    if (a1 < 0) {
      return reason(a1, BAD_START);
    }
    int found1 = (int) v6[AddressText.FOUND];
    int prefix = (int) v6[AddressText.PREFIX];
    if (prefix >= 0) {
      int label = d1 < 0 ? lineEnd : d1 + 1;
      if (a1 == AddressText.IPV6) {
        long hostHi = prefix >= 64 ? 0 : -1L >>> prefix;
        long hostLo = prefix <= 64 ? -1L : prefix == 128 ? 0 : -1L >>> (prefix - 64);
        set(6, v6[0], v6[1], v6[0] | hostHi, v6[1] | hostLo);
      } else {
        set(4, 0, a1, 0, a1 + (1L << (32 - prefix)) - 1);
      }
      labelFrom = label;
      labelTo = lineEnd;
      return null;
    }
    long sHi = a1 == AddressText.IPV6 ? v6[0] : 0;
    long sLo = a1 == AddressText.IPV6 ? v6[1] : a1;
    if (d1 < 0) {
      return MISSING_END;
    }
    int d2 = indexOf(b, d1 + 1, lineEnd, delimiter);
    int f2End = d2 < 0 ? lineEnd : d2;
    long a2 = AddressText.parse(b, d1 + 1, f2End, AddressText.RANGE, v6);
    if (a2 < 0) {
      return reason(a2, BAD_END);
    }
    int found2 = (int) v6[AddressText.FOUND];
    long eHi = a2 == AddressText.IPV6 ? v6[0] : 0;
    long eLo = a2 == AddressText.IPV6 ? v6[1] : a2;
    int family = a1 == AddressText.IPV6 ? 6 : 4;
    if ((a1 == AddressText.IPV6) != (a2 == AddressText.IPV6)) {
      // An IPv4 end written as IPv6 text (an IPv4-mapped address, folded) beside an IPv6 end is
      // that IPv6 address again; a decimal end below 2^32 beside a decimal IPv6 number is an IPv6
      // number too. Else the two ends are of two families.
      int v4Found = a1 == AddressText.IPV6 ? found2 : found1;
      boolean mapped = (v4Found & AddressText.MAPPED) != 0;
      if (!mapped && (found1 & found2 & AddressText.DECIMAL) == 0) {
        return MIXED_FAMILIES;
      }
      long widen = mapped ? MAPPED_PREFIX : 0;
      if (a1 != AddressText.IPV6) {
        sLo |= widen;
      } else {
        eLo |= widen;
      }
      family = 6;
    }
    int c = Long.compareUnsigned(eHi, sHi);
    if (c < 0 || (c == 0 && Long.compareUnsigned(eLo, sLo) < 0)) {
      return END_BEFORE_START;
    }
    set(family, sHi, sLo, eHi, eLo);
    labelFrom = d2 < 0 ? lineEnd : d2 + 1;
    labelTo = lineEnd;
    return null;
  }

  /** The low half of {@code ::ffff:0:0}, where IPv4-mapped addresses start. */
  private static final long MAPPED_PREFIX = 0xFFFF_0000_0000L;

  /**
   * The reject reason of a field: {@code ipv4Reason} ({@link #BAD_START} or {@link #BAD_END}) for
   * text that is no IPv4 address or number; the CIDR reasons; else the reader's reason ({@code
   * not-ipv6}, {@code number-out-of-range}, {@code port-not-allowed}, ...).
   */
  private static String reason(long code, String ipv4Reason) {
    if (code == AddressText.NOT_IPV4
        || code == AddressText.OCTET_OUT_OF_RANGE
        || code == AddressText.LEADING_ZERO) {
      return ipv4Reason;
    } else if (code == AddressText.HOST_BITS_SET) {
      return CIDR_HOST_BITS;
    } else if (code == AddressText.PREFIX_OUT_OF_RANGE) {
      return BAD_CIDR;
    }
    return AddressText.reason(code);
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

  private static boolean isDigits(byte[] b, int f, int t) {
    boolean digitsOnly = t > f;
    for (int i = f; i < t && digitsOnly; i++) {
      digitsOnly = b[i] >= '0' && b[i] <= '9';
    }
    return digitsOnly;
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
    long[] v6 = new long[AddressText.DETAILED];
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
            && (AddressText.parse(b, s, e, AddressText.RANGE, v6) >= 0
                || (isDigits(b, s, e) && e - s <= 39))) {
          return false;
        }
        f = i + 1;
      }
    }
    return true;
  }

  /** Whether tab, '|' or ',' occurs in the line. */
  public static boolean hasDelimiter(byte[] b, int from, int to) {
    for (byte d : new byte[] {'\t', '|', ','}) {
      if (indexOf(b, from, to, d) >= 0) {
        return true;
      }
    }
    return false;
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
