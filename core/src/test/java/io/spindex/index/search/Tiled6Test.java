/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Edges of the IPv6 rows' searches that files from the builders never reach. */
class Tiled6Test {
  /** IPv6 sections without a row: every search, single or batch, heap or in place, finds none. */
  @Test
  void noRowsFindNothing() {
    Keys128 starts =
        new Keys128(
            LongColumn.of(new long[0]),
            LongColumn.of(new long[0]),
            IntColumn.of(new int[Encoding.PREFIX16_ENTRIES]),
            null);
    long[] hi = {0L, -1L, 0x2001_0db8_0000_0000L, Long.MIN_VALUE};
    long[] lo = {0L, -1L, 1L, 0L};
    int[] none = new int[hi.length];
    Arrays.fill(none, -1);
    for (Search6 s :
        new Search6[] {
          Tiled6.ofRows(new long[0], starts), Tiled6.inPlace(ByteBuffer.allocate(0), starts)
        }) {
      int[] out = new int[hi.length];
      s.floorAll(hi, lo, hi.length, out);
      assertArrayEquals(none, out, s.getClass().getSimpleName());
      for (int i = 0; i < hi.length; i++) {
        assertEquals(-1, s.floor(hi[i], lo[i]));
        assertEquals(Encoding.GAP_LABEL, s.labelId(hi[i], lo[i]));
      }
    }
  }
}
