/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import io.spindex.text.Ipv6Text;
import java.util.Arrays;

/**
 * IPv6 prefixes whose addresses answer as an IPv4 address (section {@code ipv4_aliases}): the 32
 * bits after the prefix. A MaxMind IPv6 database stores its IPv4 networks at {@code ::/96} and
 * points other prefixes at them ({@code 2002::/16} 6to4, {@code 2001::/32} Teredo), so that {@code
 * 2002:102:304::} answers as {@code 1.2.3.4}; an index built from it keeps those prefixes here
 * rather than one IPv6 range per IPv4 range and prefix. ({@code ::ffff:0:0/96} needs no entry:
 * every index answers an IPv4-mapped address as its IPv4 address.) Stored as int64 triples: the
 * prefix's high and low 64 bits (bits past the length zero) and the length, 0 to 96. Immutable.
 */
public final class Ipv4Aliases {
  /** No aliases. */
  public static final Ipv4Aliases NONE = new Ipv4Aliases(new long[0]);

  private final long[] triples;

  private Ipv4Aliases(long[] triples) {
    this.triples = triples;
  }

  /**
   * Aliases from int64 triples (high bits, low bits, length), each a prefix of length 0 to 96 with
   * no bit set past it.
   */
  @Internal
  public static Ipv4Aliases of(long[] triples) {
    String[] wrong = check(triples);
    if (wrong != null) {
      throw new IllegalArgumentException("expected " + wrong[0] + ", found " + wrong[1]);
    }
    return triples.length == 0 ? NONE : new Ipv4Aliases(triples.clone());
  }

  /** What these triples should be and what they are, or {@code null} when they are well formed. */
  static String[] check(long[] t) {
    if (t.length % 3 != 0) {
      return new String[] {"a multiple of 3 int64 (prefix high, low, length)", t.length + ""};
    }
    for (int i = 0; i < t.length; i += 3) {
      long len = t[i + 2];
      if (len < 0 || len > 96) {
        return new String[] {"prefix lengths 0 to 96", len + " in alias " + i / 3};
      }
      if ((t[i] & ~maskHi((int) len)) != 0 || (t[i + 1] & ~maskLo((int) len)) != 0) {
        return new String[] {"no bit set past a prefix's length", "one in alias " + i / 3};
      }
    }
    return null;
  }

  /** The triples, as the section stores them. */
  @Internal
  public long[] triples() {
    return triples.clone();
  }

  public int size() {
    return triples.length / 3;
  }

  public boolean isEmpty() {
    return triples.length == 0;
  }

  /**
   * The IPv4 address (0 to 2^32 − 1) that an IPv6 address in one of the prefixes answers as, or -1
   * when it is in none.
   */
  public long ipv4(long hi, long lo) {
    for (int i = 0; i < triples.length; i += 3) {
      int len = (int) triples[i + 2];
      if ((hi & maskHi(len)) == triples[i] && (lo & maskLo(len)) == triples[i + 1]) {
        long top = len == 0 ? hi : len < 64 ? (hi << len) | (lo >>> (64 - len)) : lo << (len - 64);
        return top >>> 32;
      }
    }
    return -1;
  }

  /** {@code 2002::/16}-style text of alias {@code i}. */
  public String prefixText(int i) {
    int len = (int) triples[3 * i + 2];
    return Ipv6Text.format(triples[3 * i], triples[3 * i + 1]) + "/" + len;
  }

  private static long maskHi(int len) {
    return len == 0 ? 0 : len >= 64 ? -1L : -1L << (64 - len);
  }

  private static long maskLo(int len) {
    return len <= 64 ? 0 : len >= 128 ? -1L : -1L << (128 - len);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Ipv4Aliases && Arrays.equals(triples, ((Ipv4Aliases) o).triples);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(triples);
  }
}
