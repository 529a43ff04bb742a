/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;

/**
 * The one reader of address text: every build, lookup, job, SQL function and UDF reads an address
 * field through {@link #parse(byte[], int, int, int, long[]) parse}, from bytes in place, without
 * building Strings or allocating. Stateless and thread-safe.
 *
 * <p>The text is trimmed of white space ({@link Ipv4Text#isBlank}) and of one pair of double quotes
 * around it ({@code "1.2.3.4"}, as CSV writes fields), then read as one of these forms:
 *
 * <ul>
 *   <li>a dotted quad: four decimal octets 0..255 without leading zeros ({@code 01.2.3.4} is
 *       rejected: C reads it as octal, browsers as decimal);
 *   <li>IPv6 text, strictly RFC 4291 (see {@link Ipv6Text}): no zone id, one {@code ::} standing
 *       for at least one zero group, an embedded dotted quad only as the last 32 bits;
 *   <li>with {@link #BRACKETS}: {@code [addr]}, either family;
 *   <li>with {@link #PORT}: {@code [addr]:port} (with {@link #BRACKETS} too) and {@code
 *       a.b.c.d:port}, a port being 1 to 5 decimal digits, 0..65535 ({@code ::1:80} is the IPv6
 *       address {@code ::1:80}, never a port);
 *   <li>with {@link #DECIMAL}: an unsigned decimal number without leading zeros: IPv4 below 2^32,
 *       IPv6 up to 2^128 - 1 (the {@code *-num.csv} files of ip-location-db);
 *   <li>with {@link #CIDR}: {@code addr/len}, the network address of the block (host bits set are
 *       rejected) with its prefix length in {@code out[PREFIX]}: 0..32 after a dotted quad (or,
 *       with {@link #DECIMAL}, a number below 2^32), 0..128 after IPv6 text, 1 to 3 digits without
 *       a leading zero.
 * </ul>
 *
 * <p>An IPv4-mapped address ({@code ::ffff:a.b.c.d}, {@code ::ffff:0:0/96}, in any form) is always
 * folded to its IPv4 address, as Guava's {@code InetAddresses.forString} does: the indexes look it
 * up as IPv4 anyway, so every reader answers it as IPv4 (a mapped CIDR block {@code
 * ::ffff:a.b.c.d/n} becomes {@code a.b.c.d/(n - 96)}).
 *
 * <p>Result: an IPv4 address as a value in {@code [0, 2^32)}; {@link #IPV6} with the address's high
 * and low 64 bits in {@code out[0]} and {@code out[1]}; or a negative code that {@link #reason}
 * names. A form the context did not allow is still recognised, and refused with {@link
 * #BRACKETS_NOT_ALLOWED} or {@link #PORT_NOT_ALLOWED} (what was expected, and what was found),
 * never with a parse error; an address followed by a colon and no port ({@code 1.2.3.4:}, {@code
 * 1.2.3.4:99999}, {@code [::1]:x}) is {@link #BAD_PORT} where ports are allowed (a dotted quad with
 * one colon is never IPv6 text). A reject leaves {@code out[0]} and {@code out[1]} unchanged.
 *
 * <p>Longer than most files here on purpose: every form and every reject reason of an address field
 * lives in this one class, so that no caller can read an address another way.
 *
 * <p>{@code out} has at least 2 elements; one of {@link #DETAILED} elements also receives, on
 * success, {@code out[FOUND]}: the forms found ({@link #QUOTED}, {@link #BRACKETS}, {@link #PORT},
 * {@link #DECIMAL}, {@link #CIDR}, {@link #MAPPED} bits), and {@code out[PREFIX]}: the CIDR prefix
 * length, or -1 without one. {@link #CIDR} needs a detailed {@code out}.
 */
@Internal
public final class AddressText {
  /** Form: {@code [addr]}. */
  public static final int BRACKETS = 1;

  /** Form: {@code [addr]:port} (with {@link #BRACKETS}) and {@code a.b.c.d:port}. */
  public static final int PORT = 2;

  /** Form: an unsigned decimal number, IPv4 below 2^32, else IPv6. */
  public static final int DECIMAL = 4;

  /** Form: {@code addr/len}, a CIDR block. */
  public static final int CIDR = 8;

  /** Found (in {@code out[FOUND]} only): the text was in double quotes. */
  public static final int QUOTED = 16;

  /** Found (in {@code out[FOUND]} only): the address was IPv4-mapped IPv6, folded to IPv4. */
  public static final int MAPPED = 32;

  /**
   * Forms of an IP list line (set builds) and of a candidate found on a line: the address alone.
   */
  public static final int PLAIN = 0;

  /** Forms of a range file's start and end fields. */
  public static final int RANGE = DECIMAL;

  /** Forms of a range file's first field: a start or a CIDR block. */
  public static final int RANGE_FIRST = DECIMAL | CIDR;

  /** Forms of an address looked up (CLI, jobs, SQL functions, UDFs): log fields as they are. */
  public static final int LOOKUP = BRACKETS | PORT;

  /** Result for an IPv6 address; its 128 bits are in {@code out[0]} (high) and {@code out[1]}. */
  public static final long IPV6 = 1L << 32;

  /** Length of an {@code out} that also receives {@code out[FOUND]} and {@code out[PREFIX]}. */
  public static final int DETAILED = 4;

  /** Index in a detailed {@code out} of the forms found. */
  public static final int FOUND = 2;

  /** Index in a detailed {@code out} of the CIDR prefix length (-1: none). */
  public static final int PREFIX = 3;

  // Reject codes: RejectReason's (the IPv6 ones are Ipv6Text's codes, the same values).
  public static final long NOT_IPV4 = RejectReason.NOT_IPV4.code();
  public static final long OCTET_OUT_OF_RANGE = RejectReason.OCTET_OUT_OF_RANGE.code();
  public static final long LEADING_ZERO = RejectReason.LEADING_ZERO.code();
  public static final long NOT_IPV6 = Ipv6Text.NOT_IPV6;
  public static final long ZONE_ID = Ipv6Text.ZONE_ID;
  public static final long DOUBLE_COLON_TWICE = Ipv6Text.DOUBLE_COLON_TWICE;
  public static final long GROUP_TOO_LONG = Ipv6Text.GROUP_TOO_LONG;
  public static final long WRONG_GROUP_COUNT = Ipv6Text.WRONG_GROUP_COUNT;
  public static final long IPV4_NOT_LAST = Ipv6Text.IPV4_NOT_LAST;
  public static final long BAD_EMBEDDED_IPV4 = Ipv6Text.BAD_EMBEDDED_IPV4;
  public static final long NUMBER_OUT_OF_RANGE = Ipv6Text.NUMBER_OUT_OF_RANGE;
  public static final long PREFIX_OUT_OF_RANGE = RejectReason.PREFIX_OUT_OF_RANGE.code();
  public static final long HOST_BITS_SET = RejectReason.HOST_BITS_SET.code();
  public static final long BRACKETS_NOT_ALLOWED = RejectReason.BRACKETS_NOT_ALLOWED.code();
  public static final long PORT_NOT_ALLOWED = RejectReason.PORT_NOT_ALLOWED.code();
  public static final long BAD_PORT = RejectReason.BAD_PORT.code();

  /** The last (lowest) code the reader returns. */
  public static final long LAST_CODE = BAD_PORT;

  private AddressText() {}

  /**
   * Reads {@code b[from, to)} as an address in one of the forms allowed by {@code forms} (bits
   * {@link #BRACKETS}, {@link #PORT}, {@link #DECIMAL}, {@link #CIDR}; or {@link #PLAIN}, {@link
   * #RANGE}, {@link #RANGE_FIRST}, {@link #LOOKUP}).
   *
   * @return an IPv4 address in {@code [0, 2^32)}, {@link #IPV6} (then see {@code out}), or a
   *     negative code
   */
  public static long parse(byte[] b, int from, int to, int forms, long[] out) {
    int f = Ipv4Text.skipBlanks(b, from, to);
    int t = Ipv4Text.trimBlanks(b, f, to);
    int found = 0;
    if (t - f >= 2 && b[f] == '"' && b[t - 1] == '"') {
      f++;
      t--;
      found = QUOTED;
    }
    long a = Ipv4Text.parse(b, f, t);
    if (a >= 0) {
      if (out.length >= DETAILED) {
        out[FOUND] = found;
        out[PREFIX] = -1;
      }
      return a;
    }
    return other(b, f, t, forms, out, found, a);
  }

  /** Same as {@link #parse(byte[], int, int, int, long[])} for a String (tests, arguments). */
  public static long parse(CharSequence s, int forms, long[] out) {
    byte[] b = new byte[s.length()];
    for (int i = 0; i < b.length; i++) {
      char c = s.charAt(i);
      b[i] = c < 128 ? (byte) c : (byte) '?';
    }
    return parse(b, 0, b.length, forms, out);
  }

  /** Every form but a plain dotted quad; {@code quadCode} is why the text is not one. */
  private static long other(
      byte[] b, int f, int t, int forms, long[] out, int found, long quadCode) {
    if (f == t) {
      return quadCode;
    }
    // IPv6 text in the common forms (Ipv6Text.common: hex groups and colons only, so no brackets,
    // port or block to look for) goes straight to its reader when its first group has 4 digits
    // (every canonical address of 2000::/3 and fe80::/10) or it starts with "::".
    boolean triedCommon = t - f > 4 && (b[f + 4] == ':' || b[f] == ':');
    if (triedCommon) {
      long hi = out[0];
      long lo = out[1];
      if (Ipv6Text.common(b, f, t, out)) {
        return ipv6(out, found, -1, hi, lo);
      }
    }
    if (b[f] == '[') {
      return bracketed(b, f, t, forms, out, found);
    }
    int colon = -1;
    int colons = 0;
    int slash = -1;
    boolean digits = true;
    // Without the number and block forms only the first two colons matter: stop at the second.
    boolean whole = (forms & (CIDR | DECIMAL)) != 0;
    for (int i = f; i < t; i++) {
      int c = b[i];
      if (c == ':') {
        if (colons++ == 0) {
          colon = i;
        } else if (!whole) {
          break;
        }
      } else if (c == '/' && slash < 0) {
        slash = i;
      }
      digits &= c >= '0' && c <= '9';
    }
    if (slash >= 0 && (forms & CIDR) != 0) {
      return cidr(b, f, slash, t, forms, out, found);
    }
    if (colons == 0) {
      return digits && (forms & DECIMAL) != 0 ? decimal(b, f, t, out, found) : quadCode;
    }
    if (colons == 1) {
      // A dotted quad and one colon is never IPv6 text: an address and a port, or a bad port.
      long a = Ipv4Text.parse(b, f, colon);
      if (a >= 0) {
        if ((forms & PORT) == 0) {
          return PORT_NOT_ALLOWED;
        }
        return port(b, colon + 1, t) ? done(a, out, found | PORT, -1) : BAD_PORT;
      }
    }
    return address(b, f, t, out, found, quadCode, true, triedCommon);
  }

  /**
   * A dotted quad or IPv6 text (folded when mapped), nothing around it; {@code quad} is {@link
   * Ipv4Text#parse} of the same text, {@code colon} whether it has a colon (IPv6 text has), {@code
   * notCommon} whether {@link Ipv6Text#common} already refused it (then it is not read twice).
   */
  private static long address(
      byte[] b, int f, int t, long[] out, int found, long quad, boolean colon, boolean notCommon) {
    if (quad >= 0) {
      return done(quad, out, found, -1);
    }
    if (!colon) {
      return quad;
    }
    long hi = out[0];
    long lo = out[1];
    int code = notCommon ? Ipv6Text.parseAny(b, f, t, out) : Ipv6Text.parse(b, f, t, out);
    if (code != Ipv6Text.OK) {
      return code;
    }
    return ipv6(out, found, -1, hi, lo);
  }

  /** The IPv6 address in {@code out}, or its IPv4 address when mapped ({@code out} restored). */
  private static long ipv6(long[] out, int found, int prefix, long hi, long lo) {
    if (Ipv6Text.isIpv4Mapped(out[0], out[1])) {
      long a = out[1] & 0xFFFF_FFFFL;
      out[0] = hi;
      out[1] = lo;
      return done(a, out, found | MAPPED, prefix < 0 ? -1 : prefix - 96);
    }
    return done(IPV6, out, found, prefix);
  }

  private static long done(long result, long[] out, int found, int prefix) {
    if (out.length >= DETAILED) {
      out[FOUND] = found;
      out[PREFIX] = prefix;
    }
    return result;
  }

  /** {@code [addr]} or {@code [addr]:port}. */
  private static long bracketed(byte[] b, int f, int t, int forms, long[] out, int found) {
    int close = indexOf(b, f + 1, t, (byte) ']');
    boolean port = close >= 0 && close + 1 < t;
    if (close < 0 || (port && b[close + 1] != ':')) {
      return indexOf(b, f, t, (byte) ':') >= 0 ? NOT_IPV6 : NOT_IPV4;
    }
    boolean badPort = port && !port(b, close + 2, t);
    long hi = out[0];
    long lo = out[1];
    int inner = found | BRACKETS | (port ? PORT : 0);
    long quad = Ipv4Text.parse(b, f + 1, close);
    boolean colon = quad < 0 && indexOf(b, f + 1, close, (byte) ':') >= 0;
    long a = address(b, f + 1, close, out, inner, quad, colon, false);
    if (a >= 0 && port && (forms & PORT) == 0) {
      return restore(out, hi, lo, PORT_NOT_ALLOWED);
    }
    if (a >= 0 && badPort) {
      return restore(out, hi, lo, BAD_PORT);
    }
    if (a >= 0 && (forms & BRACKETS) == 0) {
      return restore(out, hi, lo, BRACKETS_NOT_ALLOWED);
    }
    return a;
  }

  /** Whether {@code b[f, t)} is a port: 1 to 5 decimal digits, 0..65535. */
  private static boolean port(byte[] b, int f, int t) {
    if (t - f < 1 || t - f > 5) {
      return false;
    }
    int port = 0;
    for (int i = f; i < t; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return false;
      }
      port = port * 10 + d;
    }
    return port <= 0xFFFF;
  }

  /**
   * An unsigned decimal number of digits only: IPv4 below 2^32, else IPv6 (folded when mapped).
   * Leading zeros ({@code 007}) are {@link #NOT_IPV4}, as in octets: no reading of them is safe.
   */
  private static long decimal(byte[] b, int f, int t, long[] out, int found) {
    long v = decimal32(b, f, t);
    if (v >= 0) {
      return done(v, out, found | DECIMAL, -1);
    }
    if (b[f] == '0') {
      return NOT_IPV4;
    }
    long hi = out[0];
    long lo = out[1];
    int code = Ipv6Text.parseDecimal(b, f, t, out);
    if (code != Ipv6Text.OK) {
      return code == Ipv6Text.NUMBER_OUT_OF_RANGE ? NUMBER_OUT_OF_RANGE : NOT_IPV4;
    }
    return ipv6(out, found | DECIMAL, -1, hi, lo);
  }

  /** A decimal number of digits only below 2^32 without leading zeros, or {@link #NOT_IPV4}. */
  private static long decimal32(byte[] b, int f, int t) {
    int n = t - f;
    if (n < 1 || n > 10 || (n > 1 && b[f] == '0')) {
      return NOT_IPV4;
    }
    long v = 0;
    for (int i = f; i < t; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return NOT_IPV4;
      }
      v = v * 10 + d;
    }
    return v <= 0xFFFF_FFFFL ? v : NOT_IPV4;
  }

  /**
   * {@code addr/len}: IPv6 text with 0..128, else a dotted quad (or a decimal number below 2^32,
   * with {@link #DECIMAL}) with 0..32; the address must be the block's first.
   */
  private static long cidr(byte[] b, int f, int slash, int t, int forms, long[] out, int found) {
    if (out.length < DETAILED) {
      throw new IllegalArgumentException("CIDR needs an out of " + DETAILED + " elements");
    }
    long hi = out[0];
    long lo = out[1];
    boolean six = indexOf(b, f, slash, (byte) ':') >= 0;
    long a;
    if (six) {
      int code = Ipv6Text.parse(b, f, slash, out);
      if (code != Ipv6Text.OK) {
        return code;
      }
      a = IPV6;
    } else {
      a = Ipv4Text.parse(b, f, slash);
      if (a < 0 && (forms & DECIMAL) != 0 && isDigits(b, f, slash)) {
        a = decimal32(b, f, slash); // a number beyond IPv4 is no CIDR address
        found |= a >= 0 ? DECIMAL : 0;
      }
      if (a < 0) {
        return a;
      }
    }
    int n = t - slash - 1;
    if (n < 1 || n > 3 || (n > 1 && b[slash + 1] == '0')) {
      return restore(out, hi, lo, PREFIX_OUT_OF_RANGE);
    }
    int len = 0;
    for (int i = slash + 1; i < t; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return restore(out, hi, lo, PREFIX_OUT_OF_RANGE);
      }
      len = len * 10 + d;
    }
    if (len > (six ? 128 : 32)) {
      return restore(out, hi, lo, PREFIX_OUT_OF_RANGE);
    }
    if (!six) {
      return (a & ((1L << (32 - len)) - 1)) != 0 ? HOST_BITS_SET : done(a, out, found | CIDR, len);
    }
    long hostHi = len >= 64 ? 0 : -1L >>> len;
    long hostLo = len <= 64 ? -1L : len == 128 ? 0 : -1L >>> (len - 64);
    if (((out[0] & hostHi) | (out[1] & hostLo)) != 0) {
      return restore(out, hi, lo, HOST_BITS_SET);
    }
    return ipv6(out, found | CIDR, len, hi, lo);
  }

  private static long restore(long[] out, long hi, long lo, long code) {
    out[0] = hi;
    out[1] = lo;
    return code;
  }

  private static boolean isDigits(byte[] b, int f, int t) {
    boolean digits = t > f;
    for (int i = f; i < t && digits; i++) {
      digits = b[i] >= '0' && b[i] <= '9';
    }
    return digits;
  }

  private static int indexOf(byte[] b, int from, int to, byte c) {
    for (int i = from; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  /** The reject reason of a negative result, e.g. {@code octet-out-of-range}. */
  public static String reason(long code) {
    return RejectReason.isCode(code) ? RejectReason.ofCode(code).label() : "not-an-address";
  }

  /** The one-line explanation of a reason, for messages: what was expected, what was found. */
  public static String explain(long code) {
    if (code == BRACKETS_NOT_ALLOWED) {
      return "expected an address without brackets, found [addr]";
    } else if (code == PORT_NOT_ALLOWED) {
      return "expected an address without a port, found addr:port";
    } else if (code == BAD_PORT) {
      return "expected a port of 1 to 5 digits, 0..65535, after addr:";
    } else if (code == PREFIX_OUT_OF_RANGE) {
      return "expected a prefix length of 1 to 3 digits, 0..32 (IPv4) or 0..128 (IPv6)";
    } else if (code == HOST_BITS_SET) {
      return "expected the first address of the block, found bits set after the prefix";
    } else if (code == NUMBER_OUT_OF_RANGE) {
      return "expected a number below 2^128";
    } else if (code == NOT_IPV4 || code == OCTET_OUT_OF_RANGE || code == LEADING_ZERO) {
      return "expected a dotted quad of octets 0..255 without leading zeros (" + reason(code) + ")";
    }
    return "expected RFC 4291 IPv6 text (" + reason(code) + ")";
  }
}
