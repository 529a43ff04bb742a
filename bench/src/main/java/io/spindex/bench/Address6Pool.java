/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.util.SplittableRandom;

/**
 * Pre-generated IPv6 lookup keys (high and low 64 bits) walked in batches, as {@link AddressPool}
 * walks IPv4 ones: {@link AddressPool#SIZE} addresses, {@link AddressPool#BATCH} per invocation.
 */
final class Address6Pool {
  final long[] hi;
  final long[] lo;
  private int cursor;

  private Address6Pool(long[] hi, long[] lo) {
    this.hi = hi;
    this.lo = lo;
  }

  /**
   * Weighted by ranges: a uniformly random address inside a uniformly random range (every range as
   * likely as any other, whatever its size), so nearly every lookup finds a range.
   */
  static Address6Pool inRanges(Range6Table t, long seed) {
    return inRanges(t, seed, AddressPool.SIZE);
  }

  /** As {@link #inRanges(Range6Table, long)}, {@code n} addresses (not a benchmark pool). */
  static Address6Pool inRanges(Range6Table t, long seed, int n) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] hi = new long[n];
    long[] lo = new long[n];
    for (int i = 0; i < hi.length; i++) {
      int r = rnd.nextInt(t.size());
      BigInteger start = unsigned128(t.startHi[r], t.startLo[r]);
      BigInteger span = unsigned128(t.endHi[r], t.endLo[r]).subtract(start).add(BigInteger.ONE);
      BigInteger offset;
      do { // uniform in [0, span): random bits as wide as the span, redrawn when too large
        offset = unsigned128(rnd.nextLong(), rnd.nextLong()).shiftRight(128 - span.bitLength());
      } while (offset.compareTo(span) >= 0);
      BigInteger a = start.add(offset);
      hi[i] = a.shiftRight(64).longValue();
      lo[i] = a.longValue();
    }
    return new Address6Pool(hi, lo);
  }

  /** Uniform over {@code 2000::/3}, the global unicast space: almost all of it is in no range. */
  static Address6Pool uniform(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] hi = new long[AddressPool.SIZE];
    long[] lo = new long[AddressPool.SIZE];
    for (int i = 0; i < hi.length; i++) {
      hi[i] = 0x2000_0000_0000_0000L | (rnd.nextLong() >>> 3);
      lo[i] = rnd.nextLong();
    }
    return new Address6Pool(hi, lo);
  }

  /** Start of the next batch in {@link #hi} and {@link #lo}. */
  int next() {
    int from = cursor;
    cursor = (cursor + AddressPool.BATCH) & (AddressPool.SIZE - 1);
    return from;
  }

  private static BigInteger unsigned128(long hi, long lo) {
    byte[] b = new byte[17]; // a leading zero byte keeps the value positive
    System.arraycopy(bytes(hi, lo), 0, b, 1, 16);
    return new BigInteger(b);
  }

  /** The address as 16 bytes, network order. */
  static byte[] bytes(long hi, long lo) {
    byte[] b = new byte[16];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (hi >>> (56 - 8 * i));
      b[8 + i] = (byte) (lo >>> (56 - 8 * i));
    }
    return b;
  }

  /** The address as an {@code Inet6Address} (the pools hold no IPv4-mapped addresses). */
  static InetAddress inet(long hi, long lo) throws IOException {
    return InetAddress.getByAddress(bytes(hi, lo));
  }
}
