/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;

/**
 * Formats IPv6 addresses as bytes, and reads IPv6 text and 128-bit decimal numbers for {@link
 * AddressText} (the one address reader; nothing else parses address text), without building Strings
 * or allocating per address. An address is two longs: the high 64 bits ({@code out[0]}) and the low
 * 64 bits ({@code out[1]}); every {@code out} below has at least two elements, and is written only
 * on success.
 *
 * <p>Accepted by {@link #parse(byte[], int, int, long[]) parse}: every RFC 4291 text form, exactly
 * as Guava's {@code InetAddresses.isInetAddress} accepts it (zone ids and non-ASCII digits aside,
 * see below): eight groups of 1 to 4 hex digits of either case separated by colons; one {@code ::}
 * anywhere (start, middle, end, or alone) standing for <em>one or more</em> zero groups; and a
 * dotted quad as the last 32 bits ({@code ::ffff:1.2.3.4}, {@code 64:ff9b::1.2.3.4}, {@code
 * ::1.2.3.4}, {@code 1:2:3:4:5:6:1.2.3.4}), its octets read as {@link Ipv4Text} reads them.
 *
 * <p>Rejected, with the reason {@link AddressText#reason} gives:
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
 * <p>{@code number-out-of-range} ({@link #NUMBER_OUT_OF_RANGE}) comes from {@link #parseDecimal}
 * only. When a text has several faults, the first met reading left to right is reported. The codes
 * are {@link RejectReason}'s.
 *
 * <p>{@link #format(long, long, byte[], int) format} writes the RFC 5952 canonical text.
 */
@Internal
public final class Ipv6Text {
  /** The result of a successful parse; results below zero are {@link RejectReason} codes. */
  static final int OK = 0;

  static final int NOT_IPV6 = (int) RejectReason.NOT_IPV6.code();
  static final int ZONE_ID = (int) RejectReason.ZONE_ID.code();
  static final int DOUBLE_COLON_TWICE = (int) RejectReason.DOUBLE_COLON_TWICE.code();
  static final int GROUP_TOO_LONG = (int) RejectReason.GROUP_TOO_LONG.code();
  static final int WRONG_GROUP_COUNT = (int) RejectReason.WRONG_GROUP_COUNT.code();
  static final int IPV4_NOT_LAST = (int) RejectReason.IPV4_NOT_LAST.code();
  static final int BAD_EMBEDDED_IPV4 = (int) RejectReason.BAD_EMBEDDED_IPV4.code();
  static final int NUMBER_OUT_OF_RANGE = (int) RejectReason.NUMBER_OUT_OF_RANGE.code();

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
   * Parses {@code b[from, to)} (already trimmed) as an IPv6 address: the common forms group by
   * group ({@link #common}), anything else in one forward pass a byte at a time ({@link #parseAny};
   * an embedded quad is handed to {@link Ipv4Text#parse(byte[], int, int)}).
   *
   * @return {@link #OK} with the high 64 bits in {@code out[0]} and the low 64 bits in {@code
   *     out[1]}, or a negative code (then {@code out} is unchanged)
   */
  static int parse(byte[] b, int from, int to, long[] out) {
    return common(b, from, to, out) ? OK : parseAny(b, from, to, out);
  }

  /**
   * The forms nearly every address is written in, read group by group: hex groups separated by
   * single colons, with at most one {@code ::}, no embedded quad and no zone. A group of 4 digits
   * (most of them) is read with 4 independent table reads and one test instead of a branch a byte.
   * Returns false for anything else, valid or not, which {@link #parseAny} then reads (so that the
   * faults are reported as it reports them); {@code out} is written only when true.
   */
  static boolean common(byte[] b, int from, int to, long[] out) {
    long accHi = 0;
    long accLo = 0;
    long headHi = 0;
    long headLo = 0;
    int count = 0;
    int headCount = -1;
    int i = from;
    if (to - i >= 2 && b[i] == ':' && b[i + 1] == ':') {
      headCount = 0;
      i += 2;
    }
    while (i < to) {
      int v;
      if (i + 4 <= to
          && (v =
                  HEX_VALUE[b[i] & 0xFF] << 12
                      | HEX_VALUE[b[i + 1] & 0xFF] << 8
                      | HEX_VALUE[b[i + 2] & 0xFF] << 4
                      | HEX_VALUE[b[i + 3] & 0xFF])
              >= 0) {
        // A negative digit value makes the whole negative: v is the group when all 4 are digits.
        i += 4;
      } else {
        // Fewer than 4 digits: the 4-byte read above stopped at a non-digit or at the end.
        int start = i;
        v = 0;
        int d;
        while (i < to && (d = HEX_VALUE[b[i] & 0xFF]) >= 0) {
          v = (v << 4) | d;
          i++;
        }
        if (i == start) {
          return false; // an empty group (":::", a leading single colon), or no digit at all
        }
      }
      accHi = (accHi << 16) | (accLo >>> 48);
      accLo = (accLo << 16) | v;
      count++;
      if (i == to) {
        break;
      }
      if (b[i] != ':' || ++i == to) {
        return false; // a fifth digit, a dot, a zone, any other byte; or a trailing single colon
      }
      if (b[i] == ':') {
        if (headCount >= 0) {
          return false;
        }
        headCount = count;
        headHi = accHi;
        headLo = accLo;
        accHi = 0;
        accLo = 0;
        count = 0;
        i++;
      }
    }
    if (headCount < 0 ? count != 8 : headCount + count > 7) {
      return false;
    }
    place(accHi, accLo, headHi, headLo, headCount, out);
    return true;
  }

  /**
   * Writes the address whose last {@code count} groups were shifted into {@code acc} and whose
   * first {@code headCount} groups (before a {@code ::}; none when there is no {@code ::}) into
   * {@code head}: the head goes to the top, the rest to the bottom, zeros between.
   */
  private static void place(
      long accHi, long accLo, long headHi, long headLo, int headCount, long[] out) {
    long hi = accHi;
    long lo = accLo;
    if (headCount > 0) {
      int s = 16 * (8 - headCount); // 16..112
      if (s >= 64) {
        hi |= headLo << (s - 64);
      } else {
        hi |= (headHi << s) | (headLo >>> (64 - s));
        lo |= headLo << s;
      }
    }
    out[0] = hi;
    out[1] = lo;
  }

  /** Every form {@link #parse} accepts, and the reasons for the rest; one byte at a time. */
  static int parseAny(byte[] b, int from, int to, long[] out) {
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
    if (headCount < 0 ? count != 8 : headCount + count > 7) {
      return WRONG_GROUP_COUNT;
    }
    if (zone) {
      return ZONE_ID;
    }
    place(accHi, accLo, headHi, headLo, headCount, out);
    return OK;
  }

  /**
   * Parses {@code b[from, to)} (already trimmed) as an unsigned decimal 128-bit integer, as in the
   * {@code *-ipv6-num.csv} files of ip-location-db ({@code 42540766411282592856903984951653826560}
   * is {@code 2001:db8::}). Only digits: no sign, no blanks. A leading zero is accepted only in
   * {@code 0} itself; {@code 007} is {@link #NOT_IPV6}, as {@link AddressText} rejects leading
   * zeros in decimal IPv4 numbers and in octets (octal or decimal: no reading is safe).
   *
   * @return {@link #OK} with the value in {@code out}, {@link #NOT_IPV6} (empty, a non-digit, a
   *     leading zero) or {@link #NUMBER_OUT_OF_RANGE} (above 2^128 - 1)
   */
  static int parseDecimal(byte[] b, int from, int to, long[] out) {
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
