/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The id hash is MurmurHash3 x64 128 (seed 0), first 64 bits: Guava's, byte for byte. */
class Murmur3Test {
  @Test
  void equalsGuavaForEveryLengthAndOffset() {
    long seed = 20240501L;
    SplittableRandom r = new SplittableRandom(seed);
    for (int len = 0; len <= 200; len++) {
      for (int k = 0; k < 20; k++) {
        byte[] b = new byte[len + 7];
        r.nextBytes(b);
        int from = r.nextInt(8);
        int to = Math.min(b.length, from + len);
        long expected = Hashing.murmur3_128().hashBytes(b, from, to - from).asLong();
        assertEquals(
            expected,
            Murmur3.hash64(b, from, to),
            "seed " + seed + ", length " + (to - from) + ", offset " + from);
      }
    }
  }

  /** A fixed value, so that a change of both implementations at once still shows. */
  @Test
  void knownValue() {
    byte[] id = "P1000000000".getBytes(StandardCharsets.UTF_8);
    assertEquals(
        Hashing.murmur3_128().hashBytes(id).asLong(), ProductIndex.idHash(id, 0, id.length));
    assertEquals(0x0L, Murmur3.hash64(new byte[0], 0, 0));
  }
}
