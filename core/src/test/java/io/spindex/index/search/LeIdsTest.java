/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Ids of 1 to 4 little-endian bytes read one at a time from a buffer and in bulk from a chunk,
 * against the value of the same bytes read most significant first by {@link BigInteger}, at every
 * offset of random bytes (4 bytes: the top bit set too).
 */
class LeIdsTest {
  @Test
  void everyWidthAtEveryOffsetReadsTheBytesLittleEndian() {
    SplittableRandom rnd = new SplittableRandom(11);
    byte[] bytes = new byte[4096];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) rnd.nextInt(256);
    }
    bytes[7] = (byte) 0xFF; // an all-ones id of each width from offset 4 on
    bytes[6] = (byte) 0xFF;
    bytes[5] = (byte) 0xFF;
    bytes[4] = (byte) 0xFF;
    byte[] chunk = LeIds.chunk(bytes.length);
    System.arraycopy(bytes, 0, chunk, 0, bytes.length);
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    for (int width = 1; width <= 4; width++) {
      int mask = LeIds.mask(width);
      assertEquals(reference(new byte[] {-1, -1, -1, -1}, 0, width), mask, "mask " + width);
      for (int at = 0; at + width <= bytes.length; at++) {
        int want = reference(bytes, at, width);
        assertEquals(want, LeIds.get(buffer, at, width), width + " bytes at " + at);
        assertEquals(want, LeIds.get(chunk, at, mask), width + " bytes at " + at + " (chunk)");
      }
    }
  }

  /** The {@code width} bytes at {@code at} as an unsigned little-endian number, in an int. */
  private static int reference(byte[] b, int at, int width) {
    byte[] bigEndian = new byte[width + 1];
    for (int i = 0; i < width; i++) {
      bigEndian[width - i] = b[at + i];
    }
    return new BigInteger(bigEndian).intValue();
  }
}
