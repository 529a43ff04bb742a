/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;

/**
 * Formats IPv4 addresses as bytes, without building Strings, and reads the dotted quad for {@link
 * AddressText} (the one address reader; nothing else parses address text).
 */
@Internal
public final class Ipv4Text {
  private Ipv4Text() {}

  /**
   * Reads {@code b[from, to)} (already trimmed) as exactly four decimal octets 0..255 without
   * leading zeros separated by dots, nothing else.
   *
   * @return the address as an unsigned value in {@code [0, 2^32)}, or {@link AddressText#NOT_IPV4},
   *     {@link AddressText#OCTET_OUT_OF_RANGE} or {@link AddressText#LEADING_ZERO}
   */
  static long parse(byte[] b, int from, int to) {
    long address = 0;
    int octets = 0;
    int value = 0;
    int digits = 0;
    long error = 0;
    for (int i = from; i < to; i++) {
      int c = b[i];
      if (c >= '0' && c <= '9') {
        if (digits == 1 && value == 0 && error == 0) {
          error = AddressText.LEADING_ZERO;
        }
        value = value * 10 + (c - '0');
        if (++digits > 3) {
          return AddressText.OCTET_OUT_OF_RANGE;
        }
      } else if (c == '.' && digits > 0 && octets < 3) {
        if (value > 255) {
          return AddressText.OCTET_OUT_OF_RANGE;
        }
        address = (address << 8) | value;
        octets++;
        value = 0;
        digits = 0;
      } else {
        return AddressText.NOT_IPV4;
      }
    }
    if (octets != 3 || digits == 0) {
      return AddressText.NOT_IPV4;
    }
    if (value > 255) {
      return AddressText.OCTET_OUT_OF_RANGE;
    }
    return error != 0 ? error : (address << 8) | value;
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

  /** The first index of {@code b[from, to)} that is not {@link #isBlank blank}, or {@code to}. */
  public static int skipBlanks(byte[] b, int from, int to) {
    int f = from;
    while (f < to && isBlank(b[f])) {
      f++;
    }
    return f;
  }

  /** The end of {@code b[from, to)} without its trailing {@link #isBlank blanks}. */
  public static int trimBlanks(byte[] b, int from, int to) {
    int t = to;
    while (t > from && isBlank(b[t - 1])) {
      t--;
    }
    return t;
  }
}
