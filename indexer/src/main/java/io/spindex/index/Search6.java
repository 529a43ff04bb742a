/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

/**
 * How the IPv6 ranges of an {@link IpRanges} are searched: over packed tiled rows ({@link Tiled6}:
 * the heap loaders' copy, or {@link Tiled6.InPlace} where {@code mapped} maps a file that holds
 * them), over the heap loaders' {@link Rows6}, or over the file's columns ({@link #columns}: {@code
 * mapped} for a file without packed rows, and heap files whose starts are out of order). All give
 * the same answers. Thread-safe: only reads.
 */
interface Search6 {
  /** The last row whose start is at most the (unflipped) key, or -1. */
  int floor(long keyHi, long keyLo);

  /** Batch {@link #floor}: {@code out[i] = floor(hi[i], lo[i])} for {@code i < count}. */
  void floorAll(long[] hi, long[] lo, int count, int[] out);

  /**
   * The label id of {@code row} (from {@link #floor}, may be -1) if its range holds the (unflipped)
   * key, else {@link IpRanges#NONE}.
   */
  int labelIdAt(int row, long keyHi, long keyLo);

  /**
   * {@code labelIdAt(floor(key), key)}: the label id of the range that holds the (unflipped) key,
   * or {@link IpRanges#NONE}. One call where a JVM holds several searches (say {@code mapped} and a
   * heap loader's), so that a lookup pays one dispatch, not two; each search class overrides it
   * with its own calls, which the compiler then binds.
   */
  default int labelId(long keyHi, long keyLo) {
    return labelIdAt(floor(keyHi, keyLo), keyHi, keyLo);
  }

  /**
   * The search over the file's columns: starts, ends and label ids; {@code ends} {@code null} for
   * tiled rows, where the row a search finds holds the key and a gap row's label id is {@link
   * IpRanges#NONE}.
   */
  static Search6 columns(Keys128 starts, Keys128 ends, IntColumn labelIds) {
    return new Search6() {
      @Override
      public int floor(long keyHi, long keyLo) {
        return starts.floor(keyHi, keyLo);
      }

      @Override
      public void floorAll(long[] hi, long[] lo, int count, int[] out) {
        starts.floorAll(hi, lo, count, out);
      }

      @Override
      public int labelIdAt(int row, long keyHi, long keyLo) {
        return row >= 0 && (ends == null || ends.atLeast(row, keyHi, keyLo))
            ? labelIds.get(row)
            : IpRanges.NONE;
      }
    };
  }
}
