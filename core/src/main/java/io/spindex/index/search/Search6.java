/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;

/**
 * How the IPv6 rows of an {@link io.spindex.index.IpRanges} are searched: on the heap ({@link
 * Tiled6}, the heap loaders' copy of the rows) or in place ({@link Tiled6.InPlace}, {@code
 * mapped}). Both search the file's rows through the file's tables and give the same answers.
 * Thread-safe: only reads.
 */
@Internal
public interface Search6 {
  /** The last row whose start is at most the (unflipped) key, or -1. */
  int floor(long keyHi, long keyLo);

  /** Batch {@link #floor}: {@code out[i] = floor(hi[i], lo[i])} for {@code i < count}. */
  void floorAll(long[] hi, long[] lo, int count, int[] out);

  /**
   * The label id of {@code row} (from {@link #floor}, may be -1): {@link Encoding#GAP_LABEL} for -1
   * and for a gap row. A row holds every key up to the next row's start, which a search never
   * passes.
   */
  int labelIdAt(int row);

  /**
   * {@code labelIdAt(floor(key))}: the label id of the range that holds the (unflipped) key, or
   * {@link Encoding#GAP_LABEL}. One call where a JVM holds both searches (say {@code mapped} and a
   * heap loader's), so that a lookup pays one dispatch, not two; each search class overrides it
   * with its own calls, which the compiler then binds.
   */
  int labelId(long keyHi, long keyLo);
}
