/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;

/**
 * Parses and formats IPv4 addresses as bytes, without building Strings.
 *
 * <p>Accepted: exactly four decimal octets 0..255 separated by dots, nothing else. Rejected with a
 * reason: octets with leading zeros ({@code 01.2.3.4}: C's {@code inet_aton} reads them as octal,
 * browsers as decimal, so no reading is safe; Guava's {@code InetAddresses} rejects them too),
 * octets over 255, fewer or more than four octets, any other character, and IPv6 text.
 */
@Internal
public final class Ipv4Text {
  /** Parse results below zero are these codes; {@link #reason} names them. */
  public static final long NOT_IPV4 = -1;

  public static final long OCTET_OUT_OF_RANGE = -2;
  public static final long LEADING_ZERO = -3;
  public static final long IPV6 = -4;

  private Ipv4Text() {}

  /**
   * Parses {@code b[from, to)} (already trimmed) as a dotted quad.
   *
   * @return the address as an unsigned value in {@code [0, 2^32)}, or a negative code
   */
  public static long parse(byte[] b, int from, int to) {
    long address = 0;
    int octets = 0;
    int value = 0;
    int digits = 0;
    long error = 0;
    for (int i = from; i < to; i++) {
      int c = b[i];
      if (c >= '0' && c <= '9') {
        if (digits == 1 && value == 0 && error == 0) {
          error = LEADING_ZERO;
        }
        value = value * 10 + (c - '0');
        if (++digits > 3) {
          return classify(b, from, to, OCTET_OUT_OF_RANGE);
        }
      } else if (c == '.' && digits > 0 && octets < 3) {
        if (value > 255) {
          return classify(b, from, to, OCTET_OUT_OF_RANGE);
        }
        address = (address << 8) | value;
        octets++;
        value = 0;
        digits = 0;
      } else {
        return classify(b, from, to, NOT_IPV4);
      }
    }
    if (octets != 3 || digits == 0) {
      return classify(b, from, to, NOT_IPV4);
    }
    if (value > 255) {
      return classify(b, from, to, OCTET_OUT_OF_RANGE);
    }
    return error != 0 ? error : (address << 8) | value;
  }

  /** Same as {@link #parse(byte[], int, int)} for a String (tests, command-line arguments). */
  public static long parse(CharSequence s) {
    byte[] b = new byte[s.length()];
    for (int i = 0; i < b.length; i++) {
      char c = s.charAt(i);
      b[i] = c < 128 ? (byte) c : (byte) '?';
    }
    return parse(b, 0, b.length);
  }

  /** IPv6 text (hex digits, colons, dots; at least two colons) gets its own reason. */
  private static long classify(byte[] b, int from, int to, long code) {
    int colons = 0;
    for (int i = from; i < to; i++) {
      int c = b[i];
      if (c == ':') {
        colons++;
      } else if (!(c == '.'
          || (c >= '0' && c <= '9')
          || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'))) {
        return code;
      }
    }
    return colons >= 2 ? IPV6 : code;
  }

  /** The reject reason of a negative parse result, e.g. {@code octet-out-of-range}. */
  public static String reason(long code) {
    if (code == OCTET_OUT_OF_RANGE) {
      return "octet-out-of-range";
    } else if (code == LEADING_ZERO) {
      return "leading-zero";
    } else if (code == IPV6) {
      return "ipv6-unsupported";
    }
    return "not-ipv4";
  }

  /** Dotted-quad text of an address given as its 32 bits. */
  public static String format(int address) {
    byte[] b = new byte[15];
    int n = format(address, b, 0);
    return new String(b, 0, n, java.nio.charset.StandardCharsets.US_ASCII);
  }

  /**
   * Writes the dotted quad of {@code address} into {@code out} at {@code at}.
   *
   * @return the position after the last byte written (at most 15 bytes are written)
   */
  public static int format(int address, byte[] out, int at) {
    int p = at;
    for (int shift = 24; shift >= 0; shift -= 8) {
      int v = (address >>> shift) & 0xFF;
      if (v >= 100) {
        out[p++] = (byte) ('0' + v / 100);
        out[p++] = (byte) ('0' + (v / 10) % 10);
      } else if (v >= 10) {
        out[p++] = (byte) ('0' + v / 10);
      }
      out[p++] = (byte) ('0' + v % 10);
      if (shift > 0) {
        out[p++] = '.';
      }
    }
    return p;
  }

  /** Whether {@code c} is white space that surrounds a field: space, tab, CR, FF, VT. */
  public static boolean isBlank(int c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0B;
  }
}
