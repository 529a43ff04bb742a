/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash3 x64 128-bit (Austin Appleby's public-domain reference, seed 0), returning the first
 * 64 bits of the 128-bit result ({@code h1}): the value of Guava's {@code
 * Hashing.murmur3_128().hashBytes(b).asLong()} and of Python's {@code mmh3.hash64(b)[0]}. Part of
 * the product index format (docs/FORMAT.md), so it is written out here rather than borrowed from a
 * library whose version a cluster might replace; the tests check it against Guava.
 *
 * <p>Stateless and thread-safe; allocates nothing.
 */
@Internal
public final class Murmur3 {
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private Murmur3() {}

  /** The first 64 bits of MurmurHash3 x64 128 (seed 0) of {@code b[from, to)}. */
  @SuppressWarnings("fallthrough") // the reference algorithm's tail switch
  public static long hash64(byte[] b, int from, int to) {
    long h1 = 0;
    long h2 = 0;
    int len = to - from;
    int i = from;
    for (int end = from + (len & ~15); i < end; i += 16) {
      long k1 = le64(b, i);
      long k2 = le64(b, i + 8);
      h1 ^= mixK1(k1);
      h1 = Long.rotateLeft(h1, 27) + h2;
      h1 = h1 * 5 + 0x52dce729;
      h2 ^= mixK2(k2);
      h2 = Long.rotateLeft(h2, 31) + h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    long k1 = 0;
    long k2 = 0;
    switch (len & 15) {
      case 15:
        k2 ^= (long) (b[i + 14] & 0xff) << 48;
        // fall through
      case 14:
        k2 ^= (long) (b[i + 13] & 0xff) << 40;
        // fall through
      case 13:
        k2 ^= (long) (b[i + 12] & 0xff) << 32;
        // fall through
      case 12:
        k2 ^= (long) (b[i + 11] & 0xff) << 24;
        // fall through
      case 11:
        k2 ^= (long) (b[i + 10] & 0xff) << 16;
        // fall through
      case 10:
        k2 ^= (long) (b[i + 9] & 0xff) << 8;
        // fall through
      case 9:
        k2 ^= b[i + 8] & 0xff;
        h2 ^= mixK2(k2);
        // fall through
      case 8:
        k1 ^= (long) (b[i + 7] & 0xff) << 56;
        // fall through
      case 7:
        k1 ^= (long) (b[i + 6] & 0xff) << 48;
        // fall through
      case 6:
        k1 ^= (long) (b[i + 5] & 0xff) << 40;
        // fall through
      case 5:
        k1 ^= (long) (b[i + 4] & 0xff) << 32;
        // fall through
      case 4:
        k1 ^= (long) (b[i + 3] & 0xff) << 24;
        // fall through
      case 3:
        k1 ^= (long) (b[i + 2] & 0xff) << 16;
        // fall through
      case 2:
        k1 ^= (long) (b[i + 1] & 0xff) << 8;
        // fall through
      case 1:
        k1 ^= b[i] & 0xff;
        h1 ^= mixK1(k1);
        // fall through
      default:
        break;
    }
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    return h1;
  }

  /** Eight bytes as one little-endian load (the reference reads blocks as uint64, LE). */
  private static long le64(byte[] b, int i) {
    return (long) LE64.get(b, i);
  }

  private static final VarHandle LE64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static long mixK1(long k) {
    return Long.rotateLeft(k * C1, 31) * C2;
  }

  private static long mixK2(long k) {
    return Long.rotateLeft(k * C2, 33) * C1;
  }

  private static long fmix64(long k) {
    long x = k;
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    x *= 0xc4ceb9fe1a85ec53L;
    x ^= x >>> 33;
    return x;
  }
}
