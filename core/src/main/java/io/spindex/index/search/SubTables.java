/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The {@link io.spindex.index.Section#PREFIX24} section of a range index: /24 sub-tables for its
 * dense /16 blocks, in the manner of DXR. The /16 prefix table narrows a lookup to the rows that
 * start in the address's /16 block; in the dense blocks of real databases that is hundreds or
 * thousands of rows, a binary search of ten or more dependent reads. A sub-table splits such a
 * block into its 256 /24s, so that a lookup there searches only the rows that start in one /24
 * (usually a handful).
 *
 * <p>Layout, all int32 elements: first {@value #MAP_INTS} elements holding one 16-bit entry per /16
 * block (block {@code p} in the low half of element {@code p / 2} when {@code p} is even, in the
 * high half when it is odd): 0 when the block has no sub-table, {@code t + 1} when its sub-table is
 * the {@code t}-th; sub-tables are numbered in block order. Then {@value #TABLE_INTS} elements per
 * sub-table, 256 16-bit entries packed the same way: entry {@code q} is how many of the block's
 * rows start before {@code p.q.0} (the block's address with {@code q} as its third byte), so entry
 * 0 is always 0. A count fits 16 bits: at most 255 · 256 addresses of the block lie before its last
 * /24.
 */
@Internal
public final class SubTables {
  /** Elements of the block map: 65,536 16-bit entries, two per element. */
  public static final int MAP_INTS = 32_768;

  /** Elements of one sub-table: 256 16-bit entries, two per element. */
  public static final int TABLE_INTS = 128;

  /**
   * Blocks with more rows than this get a sub-table. Below it a block is searched in at most six
   * steps, most of them within a cache line or two, and a sub-table (512 bytes) costs more than the
   * rows' own bytes would save.
   */
  public static final int DENSE_ROWS = 64;

  /**
   * The sub-tables may add at most this share of the bytes of the rows they index (12 a row):
   * densest blocks first, so that an index grows by at most 40% whatever the shape of its data.
   */
  public static final double BUDGET = 0.4;

  private final IntColumn column;

  public SubTables(IntColumn column) {
    this.column = column;
  }

  /** How many sub-tables the section holds. */
  public int tables() {
    return (column.size() - MAP_INTS) / TABLE_INTS;
  }

  /** The first element of the sub-table of /16 block {@code p}, or -1 when the block has none. */
  public int of(int p) {
    int e = (column.get(p >>> 1) >>> ((p & 1) << 4)) & 0xFFFF;
    return e == 0 ? -1 : MAP_INTS + (e - 1) * TABLE_INTS;
  }

  /**
   * Entry {@code q} of the sub-table at {@code table}: rows of the block before its /24 {@code q}.
   */
  public int before(int table, int q) {
    return (column.get(table + (q >>> 1)) >>> ((q & 1) << 4)) & 0xFFFF;
  }

  /** The raw 16-bit map entry of block {@code p} (0 = none, else table number + 1). */
  public int mapEntry(int p) {
    return (column.get(p >>> 1) >>> ((p & 1) << 4)) & 0xFFFF;
  }

  /**
   * The section for ranges whose starts (flipped, as stored) and /16 prefix table are given, or
   * {@code null} when no block is dense enough to need a sub-table.
   *
   * @param ranges the ranges the rows hold (a tiled index has gap rows too)
   * @param minRows a block may get a sub-table when it has more rows than this
   * @param budget the section may be at most this share of the ranges' own bytes with their ends
   *     stored (12 a range)
   */
  public static int[] build(
      int[] flippedStarts, int ranges, int[] prefix, int minRows, double budget) {
    Integer[] dense =
        IntStream.range(0, 65536)
            .filter(p -> size(prefix, p) > minRows)
            .boxed()
            .toArray(Integer[]::new);
    // Densest first (a stable sort: ties in block order), within the budget and the 65,535 table
    // numbers a map entry can hold.
    Arrays.sort(dense, (a, b) -> Integer.compare(size(prefix, b), size(prefix, a)));
    long allowed = (long) (budget * 12 * ranges);
    int taken =
        (int) Math.max(0, Math.min(dense.length, (allowed - 4L * MAP_INTS) / (4 * TABLE_INTS)));
    taken = Math.min(taken, 65535);
    if (taken == 0) {
      return null;
    }
    boolean[] chosen = new boolean[65536];
    for (int i = 0; i < taken; i++) {
      chosen[dense[i]] = true;
    }
    int[] out = new int[MAP_INTS + taken * TABLE_INTS];
    int t = 0;
    for (int p = 0; p < 65536; p++) {
      if (!chosen[p]) {
        continue;
      }
      out[p >>> 1] |= (t + 1) << ((p & 1) << 4);
      int base = MAP_INTS + t * TABLE_INTS;
      int row = prefix[p];
      for (int q = 0; q < 256; q++) {
        int first = Encoding.flip(p << 16 | q << 8);
        while (row < prefix[p + 1] && flippedStarts[row] < first) {
          row++;
        }
        out[base + (q >>> 1)] |= (row - prefix[p]) << ((q & 1) << 4);
      }
      t++;
    }
    return out;
  }

  private static int size(int[] prefix, int p) {
    return prefix[p + 1] - prefix[p];
  }
}
