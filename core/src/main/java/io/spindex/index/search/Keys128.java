/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;

/**
 * Ascending 128-bit keys (IPv6 addresses) as two columns, the high and the low 64 bits, each stored
 * as {@code bits ^ 0x8000000000000000} so that signed {@code long} order is unsigned order; with an
 * optional prefix table over the top 16 bits, as the IPv4 keys have, and optional tables over the
 * next bits of the dense /16 blocks ({@link Prefix6}). A lookup reads the tables, then
 * binary-searches the high column of one block or bucket and reads the low column only where the
 * high halves are equal. Thread-safe: only absolute reads.
 */
@Internal
public final class Keys128 {
  /** No keys: what a file without IPv6 sections has. */
  public static final Keys128 EMPTY =
      new Keys128(LongColumn.of(new long[0]), LongColumn.of(new long[0]));

  private final LongColumn hi;
  private final LongColumn lo;
  private final IntColumn prefix;
  private final Prefix6 tables;

  Keys128(LongColumn hi, LongColumn lo) {
    this(hi, lo, null, null);
  }

  public Keys128(LongColumn hi, LongColumn lo, IntColumn prefix, Prefix6 tables) {
    this.hi = hi;
    this.lo = lo;
    this.prefix = prefix;
    this.tables = tables;
  }

  static long flip(long bits) {
    return bits ^ Long.MIN_VALUE;
  }

  public int size() {
    return hi.size();
  }

  /** High 64 bits of the key at {@code row} (unflipped). */
  public long hi(int row) {
    return flip(hi.get(row));
  }

  /** Low 64 bits of the key at {@code row} (unflipped). */
  public long lo(int row) {
    return flip(lo.get(row));
  }

  /** The high halves' column (flipped): a heap array or a view. */
  LongColumn hiColumn() {
    return hi;
  }

  /** The low halves' column (flipped): a heap array or a view. */
  LongColumn loColumn() {
    return lo;
  }

  public IntColumn prefixTable() {
    return prefix;
  }

  /**
   * The tables of the dense /16 blocks ({@link io.spindex.index.Section#PREFIX6}), or {@code null}.
   */
  public Prefix6 tables() {
    return tables;
  }

  /**
   * The rows a key's floor is in, or just before: {@code from << 32 | to}, from the block's tables
   * when it has them, else its /16 prefix table entries (requires the prefix table).
   */
  long candidates(long keyHi) {
    int p = (int) (keyHi >>> 48);
    if (tables != null) {
      int root = tables.root(p);
      if (root != 0) {
        return tables.rows(root, keyHi);
      }
    }
    return (long) prefix.get(p) << 32 | prefix.get(p + 1);
  }

  /** Whether the key at {@code row} equals the (unflipped) key. */
  public boolean equalsAt(int row, long keyHi, long keyLo) {
    return hi.get(row) == flip(keyHi) && lo.get(row) == flip(keyLo);
  }

  /**
   * The last row whose key is at most the (unflipped) key, or -1. With the prefix table, only the
   * key's /16 block is searched, then the row before it (a range may start in an earlier block).
   */
  public int floor(long keyHi, long keyLo) {
    int from;
    int to;
    if (prefix != null) {
      long rows = candidates(keyHi);
      from = (int) (rows >>> 32);
      to = (int) rows;
    } else {
      from = 0;
      to = hi.size();
    }
    return floorWithin(from, to, keyHi, keyLo);
  }

  /**
   * The last row in {@code [from, to)} whose key is at most the (unflipped) key, or {@code from -
   * 1}: a binary search by the high half, then the low one on a tie.
   */
  int floorWithin(int from, int to, long keyHi, long keyLo) {
    long kh = flip(keyHi);
    long kl = flip(keyLo);
    // First row in [from, to) whose key is greater.
    while (from < to) {
      int mid = (from + to) >>> 1;
      long h = hi.get(mid);
      if (h < kh || (h == kh && lo.get(mid) <= kl)) {
        from = mid + 1;
      } else {
        to = mid;
      }
    }
    return from - 1;
  }

  /**
   * Batch {@link #floor}: {@code out[i] = floor(hi[i], lo[i])} for {@code i < count}, searching
   * {@value #GROUP} keys in lock step by branch-free halving ({@link LockStep}) so that their cache
   * misses overlap. Allocates a few small arrays per call, nothing per key.
   */
  public void floorAll(long[] hi, long[] lo, int count, int[] out) {
    if (prefix == null || size() == 0) {
      for (int i = 0; i < count; i++) {
        out[i] = floor(hi[i], lo[i]);
      }
      return;
    }
    Floor probe = new Floor(this.hi, this.lo);
    LockStep search = new LockStep();
    for (int g = 0; g < count; g += GROUP) {
      int m = Math.min(GROUP, count - g);
      search.clear();
      for (int j = 0; j < m; j++) {
        long rows = candidates(hi[g + j]);
        // The floor row is in the key's /16 block (or bucket) or is the one just before it.
        int from = Math.max((int) (rows >>> 32) - 1, 0);
        int slot = search.add(from, (int) rows - from);
        probe.kh[slot] = flip(hi[g + j]);
        probe.kl[slot] = flip(lo[g + j]);
      }
      search.search(probe);
      for (int j = 0; j < m; j++) {
        int row = search.row(j);
        out[g + j] = !search.empty(j) && probe.atMost(row, j) ? row : -1;
      }
    }
  }

  /**
   * The 128-bit search keys of {@link #floorAll}, flipped as stored, compared with the columns. The
   * probe call of {@link LockStep#search} stays bimorphic (this and {@link LockStep.IntKeys}) and
   * inlined.
   */
  static final class Floor implements LockStep.Probe {
    private final LongColumn hi;
    private final LongColumn lo;
    final long[] kh = new long[GROUP];
    final long[] kl = new long[GROUP];

    Floor(LongColumn hi, LongColumn lo) {
      this.hi = hi;
      this.lo = lo;
    }

    @Override
    public boolean atMost(int row, int slot) {
      long h = hi.get(row);
      return h < kh[slot] || (h == kh[slot] && lo.get(row) <= kl[slot]);
    }
  }

  /** Keys searched in lock step by {@link #floorAll}. */
  static final int GROUP = LockStep.GROUP;

  /** Entry p: the first row whose key has its top 16 bits {@code >= p} (keys given flipped). */
  public static int[] prefixTable(long[] flippedHi, int n) {
    int[] table = new int[Encoding.PREFIX16_ENTRIES];
    int row = 0;
    for (int p = 0; p < Encoding.PREFIX16_ENTRIES; p++) {
      while (row < n && (flip(flippedHi[row]) >>> 48) < p) {
        row++;
      }
      table[p] = row;
    }
    return table;
  }
}
