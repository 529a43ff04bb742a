/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;

/**
 * Parses and formats IPv6 addresses as bytes, without building Strings or allocating per address.
 * An address is two longs: the high 64 bits ({@code out[0]}) and the low 64 bits ({@code out[1]});
 * every {@code out} below has at least two elements, and is written only on success.
 *
 * <p>Accepted by {@link #parse(byte[], int, int, long[]) parse}: every RFC 4291 text form, exactly
 * as Guava's {@code InetAddresses.isInetAddress} accepts it (zone ids and non-ASCII digits aside,
 * see below): eight groups of 1 to 4 hex digits of either case separated by colons; one {@code ::}
 * anywhere (start, middle, end, or alone) standing for <em>one or more</em> zero groups; and a
 * dotted quad as the last 32 bits ({@code ::ffff:1.2.3.4}, {@code 64:ff9b::1.2.3.4}, {@code
 * ::1.2.3.4}, {@code 1:2:3:4:5:6:1.2.3.4}), its octets read as {@link Ipv4Text} reads them.
 *
 * <p>Rejected, with the reason {@link #reason} gives:
 *
 * <ul>
 *   <li>{@code not-ipv6} ({@link #NOT_IPV6}): empty text, any character other than hex digits,
 *       colons and (in an embedded quad) dots, an empty group ({@code :1::}, {@code 1:}, {@code
 *       1::2:}), text without a colon (a plain dotted quad is IPv4, not IPv6);
 *   <li>{@code zone-id} ({@link #ZONE_ID}): an otherwise valid address followed by a zone, {@code
 *       fe80::1%eth0} (Guava accepts it; an index of addresses has no use for interface names);
 *   <li>{@code double-colon-twice} ({@link #DOUBLE_COLON_TWICE}): a second {@code ::}, including
 *       {@code :::} (two overlapping ones, as Guava counts them);
 *   <li>{@code group-too-long} ({@link #GROUP_TOO_LONG}): a group of more than 4 hex digits, even
 *       {@code 00000};
 *   <li>{@code wrong-group-count} ({@link #WRONG_GROUP_COUNT}): fewer or more than 8 groups without
 *       {@code ::}, or 8 or more with it: {@code ::} must stand for at least one zero group (RFC
 *       4291 2.2; Guava agrees), so {@code 1:2:3:4:5:6:7::8} and {@code 1:2:3:4:5:6:7:8::} are
 *       rejected while {@code 1:2:3:4:5:6:7::} is accepted. An embedded quad counts as 2 groups;
 *   <li>{@code ipv4-not-last} ({@link #IPV4_NOT_LAST}): a dot followed later by a colon ({@code
 *       1.2.3.4::}, {@code ::1.2.3.4:1});
 *   <li>{@code bad-embedded-ipv4} ({@link #BAD_EMBEDDED_IPV4}): an embedded quad that {@link
 *       Ipv4Text} rejects: an octet over 255, a leading zero ({@code ::01.2.3.4}), not exactly 4
 *       octets, hex digits in it;
 * </ul>
 *
 * <p>Only the other entry points give these: {@code prefix-out-of-range} ({@link
 * #PREFIX_OUT_OF_RANGE}), {@code host-bits-set} ({@link #HOST_BITS_SET}) and {@code not-cidr}
 * ({@link #NOT_CIDR}) from {@link #parseCidr}, {@code number-out-of-range} ({@link
 * #NUMBER_OUT_OF_RANGE}) from {@link #parseDecimal}. When a text has several faults, the first met
 * reading left to right is reported.
 *
 * <p>{@link #format(long, long, byte[], int) format} writes the RFC 5952 canonical text.
 */
@Internal
public final class Ipv6Text {
  /** The result of a successful parse; results below zero are these codes. */
  public static final int OK = 0;

  public static final int NOT_IPV6 = -1;
  public static final int ZONE_ID = -2;
  public static final int DOUBLE_COLON_TWICE = -3;
  public static final int GROUP_TOO_LONG = -4;
  public static final int WRONG_GROUP_COUNT = -5;
  public static final int IPV4_NOT_LAST = -6;
  public static final int BAD_EMBEDDED_IPV4 = -7;
  public static final int PREFIX_OUT_OF_RANGE = -8;
  public static final int HOST_BITS_SET = -9;
  public static final int NUMBER_OUT_OF_RANGE = -10;
  public static final int NOT_CIDR = -11;

  private static final byte[] HEX = {
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'
  };

  /** 2^128 - 1, the largest decimal {@link #parseDecimal} accepts (39 digits). */
  private static final byte[] MAX_DECIMAL =
      "340282366920938463463374607431768211455"
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** Decimal digits folded into the 128-bit value at a time (10^18 < 2^63). */
  private static final int CHUNK_DIGITS = 18;

  private static final long[] POW10 = new long[CHUNK_DIGITS + 1];

  /** The value of a hex digit byte ({@code b & 0xFF}), -1 for any other byte. */
  private static final byte[] HEX_VALUE = new byte[256];

  static {
    java.util.Arrays.fill(HEX_VALUE, (byte) -1);
    for (int i = 0; i < 16; i++) {
      HEX_VALUE[HEX[i]] = (byte) i;
      HEX_VALUE[Character.toUpperCase(HEX[i])] = (byte) i;
    }
    POW10[0] = 1;
    for (int i = 1; i < POW10.length; i++) {
      POW10[i] = POW10[i - 1] * 10;
    }
  }

  private Ipv6Text() {}

  /**
   * Parses {@code b[from, to)} (already trimmed) as an IPv6 address, in one forward pass (an
   * embedded quad is handed to {@link Ipv4Text#parse(byte[], int, int)}).
   *
   * @return {@link #OK} with the high 64 bits in {@code out[0]} and the low 64 bits in {@code
   *     out[1]}, or a negative code (then {@code out} is unchanged)
   */
  public static int parse(byte[] b, int from, int to, long[] out) {
    // Groups are shifted into acc; at "::" the groups so far move to head (headCount of them) and
    // acc starts again, so that at the end head goes to the top and acc to the bottom.
    long accHi = 0;
    long accLo = 0;
    int count = 0;
    long headHi = 0;
    long headLo = 0;
    int headCount = -1; // -1: no "::" yet
    int reserved = 0; // groups counted before acc's: headCount + 1 (a "::" is at least one group)
    int value = 0;
    int digits = 0;
    int groupStart = from;
    boolean colon = false;
    int skipEnd = -1; // the index of the second colon of the "::"
    boolean zone = false;
    int end = to;
    for (int i = from; i < to; i++) {
      int c = b[i];
      int d = HEX_VALUE[c & 0xFF];
      if (d >= 0) {
        value = (value << 4) | d;
        digits++;
      } else if (c == ':') {
        if (digits > 0) {
          if (digits > 4) {
            return GROUP_TOO_LONG;
          }
          accHi = (accHi << 16) | (accLo >>> 48);
          accLo = (accLo << 16) | value;
          if (++count + reserved > 8) {
            return WRONG_GROUP_COUNT;
          }
          value = 0;
          digits = 0;
        } else if (i > from && b[i - 1] == ':') {
          // The second colon of a "::" (a third one in a row makes another "::").
          if (headCount >= 0) {
            return DOUBLE_COLON_TWICE;
          }
          if (count >= 8) {
            return WRONG_GROUP_COUNT;
          }
          headHi = accHi;
          headLo = accLo;
          headCount = count;
          reserved = count + 1;
          accHi = 0;
          accLo = 0;
          count = 0;
          skipEnd = i;
        } else if (i + 1 >= to || b[i + 1] != ':') {
          // Only a leading colon gets here: it must start a "::". (A trailing one, "1::2:", is
          // caught after the loop.)
          return NOT_IPV6;
        }
        colon = true;
        groupStart = i + 1;
      } else if (c == '.') {
        int e = i;
        while (e < to && b[e] != ':' && b[e] != '%') {
          e++;
        }
        if (e < to && b[e] == ':') {
          return IPV4_NOT_LAST;
        }
        if (!colon) {
          return NOT_IPV6;
        }
        long quad = Ipv4Text.parse(b, groupStart, e);
        if (quad < 0) {
          return BAD_EMBEDDED_IPV4;
        }
        accHi = (accHi << 32) | (accLo >>> 32);
        accLo = (accLo << 32) | quad;
        count += 2;
        if (count + reserved > 8) {
          return WRONG_GROUP_COUNT;
        }
        digits = 0;
        zone = e < to;
        end = e;
        break;
      } else if (c == '%') {
        zone = true;
        end = i;
        break;
      } else {
        return NOT_IPV6;
      }
    }
    if (!colon) {
      return NOT_IPV6;
    }
    if (digits > 0) {
      if (digits > 4) {
        return GROUP_TOO_LONG;
      }
      accHi = (accHi << 16) | (accLo >>> 48);
      accLo = (accLo << 16) | value;
      count++;
    } else if (b[end - 1] == ':' && skipEnd != end - 1) {
      return NOT_IPV6; // a trailing ':' that is no "::"
    }
    long hi;
    long lo;
    if (headCount < 0) {
      if (count != 8) {
        return WRONG_GROUP_COUNT;
      }
      hi = accHi;
      lo = accLo;
    } else {
      if (headCount + count > 7) {
        return WRONG_GROUP_COUNT;
      }
      hi = accHi;
      lo = accLo;
      if (headCount > 0) {
        int s = 16 * (8 - headCount); // 16..112
        if (s >= 64) {
          hi |= headLo << (s - 64);
        } else {
          hi |= (headHi << s) | (headLo >>> (64 - s));
          lo |= headLo << s;
        }
      }
    }
    if (zone) {
      return ZONE_ID;
    }
    out[0] = hi;
    out[1] = lo;
    return OK;
  }

  /** Same as {@link #parse(byte[], int, int, long[])} for a String (tests, arguments). */
  public static int parse(CharSequence s, long[] out) {
    byte[] b = ascii(s);
    return parse(b, 0, b.length, out);
  }

  private static byte[] ascii(CharSequence s) {
    byte[] b = new byte[s.length()];
    for (int i = 0; i < b.length; i++) {
      char c = s.charAt(i);
      b[i] = c < 128 ? (byte) c : (byte) '?';
    }
    return b;
  }

  /**
   * Parses {@code b[from, to)} (already trimmed) as a CIDR block {@code address/len}: the address
   * as {@link #parse(byte[], int, int, long[]) parse} reads it, the length as 1 to 3 decimal digits
   * without a leading zero, 0 to 128. A block with bits set after the prefix ({@code
   * 2001:db8::1/64}) is rejected with {@link #HOST_BITS_SET}, as {@link RangeLine} rejects IPv4
   * CIDR blocks with host bits set: such a line is more likely a typo than a block.
   *
   * @return the prefix length (0..128) with the network address in {@code out}, or a negative code:
   *     {@link #NOT_CIDR} without a {@code /}, the address's code, {@link #PREFIX_OUT_OF_RANGE} or
   *     {@link #HOST_BITS_SET}
   */
  public static int parseCidr(byte[] b, int from, int to, long[] out) {
    int slash = from;
    while (slash < to && b[slash] != '/') {
      slash++;
    }
    if (slash == to) {
      return NOT_CIDR;
    }
    long hi = out[0];
    long lo = out[1];
    int code = parse(b, from, slash, out);
    if (code != OK) {
      return code;
    }
    int n = to - slash - 1;
    if (n < 1 || n > 3 || (n > 1 && b[slash + 1] == '0')) {
      return restore(out, hi, lo, PREFIX_OUT_OF_RANGE);
    }
    int len = 0;
    for (int i = slash + 1; i < to; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return restore(out, hi, lo, PREFIX_OUT_OF_RANGE);
      }
      len = len * 10 + d;
    }
    if (len > 128) {
      return restore(out, hi, lo, PREFIX_OUT_OF_RANGE);
    }
    long hostHi = len >= 64 ? 0 : -1L >>> len;
    long hostLo = len <= 64 ? -1L : len == 128 ? 0 : -1L >>> (len - 64);
    if (((out[0] & hostHi) | (out[1] & hostLo)) != 0) {
      return restore(out, hi, lo, HOST_BITS_SET);
    }
    return len;
  }

  private static int restore(long[] out, long hi, long lo, int code) {
    out[0] = hi;
    out[1] = lo;
    return code;
  }

  /**
   * Parses {@code b[from, to)} (already trimmed) as an unsigned decimal 128-bit integer, as in the
   * {@code *-ipv6-num.csv} files of ip-location-db ({@code 42540766411282592856903984951653826560}
   * is {@code 2001:db8::}). Only digits: no sign, no blanks. A leading zero is accepted only in
   * {@code 0} itself; {@code 007} is {@link #NOT_IPV6}, as {@link RangeLine} rejects leading zeros
   * in decimal IPv4 numbers and {@link Ipv4Text} in octets (octal or decimal: no reading is safe).
   *
   * @return {@link #OK} with the value in {@code out}, {@link #NOT_IPV6} (empty, a non-digit, a
   *     leading zero) or {@link #NUMBER_OUT_OF_RANGE} (above 2^128 - 1)
   */
  public static int parseDecimal(byte[] b, int from, int to, long[] out) {
    int n = to - from;
    if (n <= 0 || (n > 1 && b[from] == '0')) {
      return NOT_IPV6;
    }
    // A 39-digit text is compared with MAX_DECIMAL digit by digit: the first difference decides.
    boolean above = false;
    boolean decided = n != MAX_DECIMAL.length;
    long hi = 0;
    long lo = 0;
    long chunk = 0;
    int chunkDigits = 0;
    for (int i = from; i < to; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return NOT_IPV6;
      }
      if (!decided) {
        int m = b[i] - MAX_DECIMAL[i - from];
        if (m != 0) {
          above = m > 0;
          decided = true;
        }
      }
      chunk = chunk * 10 + d;
      if (++chunkDigits == CHUNK_DIGITS) {
        // (hi, lo) = (hi, lo) * 10^18 + chunk, exact below 2^128 (checked before use)
        long p = POW10[CHUNK_DIGITS];
        long newLo = lo * p + chunk;
        hi = hi * p + Math.multiplyHigh(lo, p) + ((lo >> 63) & p);
        hi += Long.compareUnsigned(newLo, chunk) < 0 ? 1 : 0;
        lo = newLo;
        chunk = 0;
        chunkDigits = 0;
      }
    }
    if (n > MAX_DECIMAL.length || above) {
      return NUMBER_OUT_OF_RANGE;
    }
    if (chunkDigits > 0) {
      long p = POW10[chunkDigits];
      long newLo = lo * p + chunk;
      hi = hi * p + Math.multiplyHigh(lo, p) + ((lo >> 63) & p);
      hi += Long.compareUnsigned(newLo, chunk) < 0 ? 1 : 0;
      lo = newLo;
    }
    out[0] = hi;
    out[1] = lo;
    return OK;
  }

  /**
   * Parses an address field as found in log lines: {@code addr}, {@code [addr]} or {@code
   * [addr]:port} with a port of 1 to 5 decimal digits, 0 to 65535. The address is read as {@link
   * #parse(byte[], int, int, long[]) parse} reads it (and its code is returned when it is
   * rejected); any other bracket form ({@code [::1}, {@code ::1]}, {@code [::1]x}, {@code [::1]:},
   * {@code [::1]:65536}) is {@link #NOT_IPV6}.
   */
  public static int parseField(byte[] b, int from, int to, long[] out) {
    if (from >= to || b[from] != '[') {
      return parse(b, from, to, out);
    }
    int close = from + 1;
    while (close < to && b[close] != ']') {
      close++;
    }
    if (close == to) {
      return NOT_IPV6;
    }
    long hi = out[0];
    long lo = out[1];
    int code = parse(b, from + 1, close, out);
    if (code != OK || close + 1 == to) {
      return code;
    }
    int n = to - close - 2;
    if (b[close + 1] != ':' || n < 1 || n > 5) {
      return restore(out, hi, lo, NOT_IPV6);
    }
    int port = 0;
    for (int i = close + 2; i < to; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return restore(out, hi, lo, NOT_IPV6);
      }
      port = port * 10 + d;
    }
    return port > 0xFFFF ? restore(out, hi, lo, NOT_IPV6) : OK;
  }

  /** The reject reason of a negative result, e.g. {@code wrong-group-count}. */
  public static String reason(int code) {
    switch (code) {
      case ZONE_ID:
        return "zone-id";
      case DOUBLE_COLON_TWICE:
        return "double-colon-twice";
      case GROUP_TOO_LONG:
        return "group-too-long";
      case WRONG_GROUP_COUNT:
        return "wrong-group-count";
      case IPV4_NOT_LAST:
        return "ipv4-not-last";
      case BAD_EMBEDDED_IPV4:
        return "bad-embedded-ipv4";
      case PREFIX_OUT_OF_RANGE:
        return "prefix-out-of-range";
      case HOST_BITS_SET:
        return "host-bits-set";
      case NUMBER_OUT_OF_RANGE:
        return "number-out-of-range";
      case NOT_CIDR:
        return "not-cidr";
      default:
        return "not-ipv6";
    }
  }

  /**
   * Whether the address is IPv4-mapped ({@code ::ffff:0:0/96}, RFC 4291 2.5.5.2); its IPv4 address
   * is then {@code (int) lo}, the low 32 bits.
   */
  public static boolean isIpv4Mapped(long hi, long lo) {
    return hi == 0 && (lo >>> 32) == 0xFFFFL;
  }

  /** RFC 5952 canonical text of an address, as {@link #format(long, long, byte[], int)}. */
  public static String format(long hi, long lo) {
    byte[] b = new byte[39];
    int n = format(hi, lo, b, 0);
    return new String(b, 0, n, java.nio.charset.StandardCharsets.US_ASCII);
  }

  /**
   * Writes the RFC 5952 canonical text of the address {@code (hi, lo)} into {@code out} at {@code
   * at}: lowercase hex, no leading zeros in a group, the longest run of two or more zero groups
   * (the first of equally long ones) written {@code ::}, a lone zero group written {@code 0}, and
   * an IPv4-mapped address as {@code ::ffff:a.b.c.d} (RFC 5952 5). Other addresses with IPv4
   * meaning ({@code ::1.2.3.4}, {@code 64:ff9b::/96}) are written in hex, as Guava's {@code
   * InetAddresses.toAddrString} writes them.
   *
   * @return the position after the last byte written (at most 39 bytes are written, within the 45
   *     of {@code INET6_ADDRSTRLEN})
   */
  public static int format(long hi, long lo, byte[] out, int at) {
    int p = at;
    if (isIpv4Mapped(hi, lo)) {
      out[p++] = ':';
      out[p++] = ':';
      out[p++] = 'f';
      out[p++] = 'f';
      out[p++] = 'f';
      out[p++] = 'f';
      out[p++] = ':';
      return Ipv4Text.format((int) lo, out, p);
    }
    // The longest run of zero groups (the first one on a tie), if it is 2 or more groups long.
    int bestStart = -1;
    int bestLen = 1;
    int runStart = -1;
    for (int g = 0; g <= 8; g++) {
      if (g < 8 && group(hi, lo, g) == 0) {
        if (runStart < 0) {
          runStart = g;
        }
      } else if (runStart >= 0) {
        if (g - runStart > bestLen) {
          bestStart = runStart;
          bestLen = g - runStart;
        }
        runStart = -1;
      }
    }
    int bestEnd = bestStart < 0 ? -1 : bestStart + bestLen;
    int g = 0;
    while (g < 8) {
      if (g == bestStart) {
        out[p++] = ':';
        out[p++] = ':';
        g = bestEnd;
        continue;
      }
      if (g > 0 && g != bestEnd) {
        out[p++] = ':';
      }
      int v = group(hi, lo, g++);
      if (v >= 0x1000) {
        out[p++] = HEX[v >>> 12];
      }
      if (v >= 0x100) {
        out[p++] = HEX[(v >>> 8) & 0xF];
      }
      if (v >= 0x10) {
        out[p++] = HEX[(v >>> 4) & 0xF];
      }
      out[p++] = HEX[v & 0xF];
    }
    return p;
  }

  /** Group {@code g} (0..7, from the left) of the address. */
  private static int group(long hi, long lo, int g) {
    return (int) ((g < 4 ? hi : lo) >>> (48 - 16 * (g & 3))) & 0xFFFF;
  }
}
