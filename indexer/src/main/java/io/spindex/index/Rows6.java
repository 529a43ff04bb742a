/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

/**
 * The IPv6 ranges of a heap index (loaders io, nio, mmap and text) as rows in one array instead of
 * the file's five columns, so that a hit reads one or two cache lines where the columns cost up to
 * five (start high, start low, end high, end low, label id). Tiled ranges take {@link Tiled6} where
 * their tables allow; these rows serve ranges stored with their ends, and tiled ranges whose tables
 * do not. The file format is unchanged; {@code mapped} keeps its zero-copy views over the columns.
 *
 * <ul>
 *   <li>{@code rows}: two longs a range. The first is the high half of its start, flipped as the
 *       file stores it (signed order is unsigned order): what the search reads, 4 rows to a cache
 *       line. The second, its word: the low {@code labelBits} bits are the label id plus one (as
 *       many bits as the largest needs; 0 for a gap row of tiled ranges, whose id is -1). If the
 *       top bit is clear, the bits between are the end's high half minus the start's, and the low
 *       halves are those of whole /64s (start {@code ...:0:0:0:0}, end {@code
 *       ...:ffff:ffff:ffff:ffff}), as nearly every published range has them. Else they are the
 *       index of the range's entry in {@code odd}.
 *   <li>{@code odd}: three longs for each other range (a difference too wide for its bits, or other
 *       low halves): its end's high half, its start's and its end's low halves, all flipped.
 * </ul>
 *
 * <p>A lookup walks to the candidate rows of the columns' search ({@link Walk6}: the prefix6
 * tables' or the /16 prefix table's, as {@link Keys128#candidates} gives them), halves down to the
 * last {@value #SCAN} and reads those in order, so that their cache misses overlap, then reads the
 * word beside the start it stopped at; {@code odd} only for the ranges it lists. The rows are used
 * only when the starts are in order ({@link #inOrder}): then any search of the same candidates
 * finds the same row, and the end is compared as the columns compare it, so every answer is the
 * columns' (and {@code mapped}'s), for a file that fails {@code spindex verify} too. Memory: 16
 * bytes a range, plus 24 for each range in {@code odd}, and the walk; the columns take 36.
 * Thread-safe: immutable.
 */
final class Rows6 implements Search6 {
  private static final int NONE = IpRanges.NONE;

  /** Rows a lookup reads in order rather than halving: a leaf of the prefix6 tables. */
  static final int SCAN = 16;

  /** Flipped low half of a start at a /64 boundary (0). */
  private static final long LOW_START = Long.MIN_VALUE;

  /** Flipped low half of an end at a /64's last address (all ones). */
  private static final long LOW_END = Long.MAX_VALUE;

  /** Row {@code i}: its flipped start's high half at {@code 2i}, its word at {@code 2i + 1}. */
  private final long[] rows;

  private final long[] odd;
  private final int labelBits;
  private final long labelMask;

  /**
   * Where a search starts, or {@code null} without a prefix table: for each /16 block its candidate
   * rows or its table ({@link Walk6}).
   */
  private final Walk6 walk;

  /** The starts with their prefix and prefix6 tables: where a search starts. */
  private final Keys128 keys;

  private Rows6(long[] rows, long[] odd, int labelBits, Keys128 tables) {
    this.rows = rows;
    this.odd = odd;
    this.labelBits = labelBits;
    this.labelMask = (1L << labelBits) - 1;
    this.walk = tables.prefixTable() == null ? null : Walk6.of(tables);
    this.keys =
        new Keys128(new StartHi(this), new Low(this, false), tables.prefixTable(), tables.tables());
  }

  /**
   * The rows of the ranges whose starts, ends and label ids the columns hold (label ids at least 0,
   * or -1 for the gap rows of tiled ranges, as the loaders check).
   */
  static Rows6 of(Keys128 starts, Keys128 ends, IntColumn labels) {
    int n = starts.size();
    int maxLabel = 0;
    for (int i = 0; i < n; i++) {
      maxLabel = Math.max(maxLabel, labels.get(i));
    }
    int labelBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(maxLabel + 1));
    // Bits between the label id and the flag: a difference must be below 2^span.
    int span = 63 - labelBits;
    int odds = 0;
    for (int i = 0; i < n; i++) {
      odds += usual(starts, ends, i, span) ? 0 : 1;
    }
    long[] rows = new long[Math.multiplyExact(2, n)];
    long[] odd = new long[Math.multiplyExact(3, odds)];
    int o = 0;
    for (int i = 0; i < n; i++) {
      long h = Keys128.flip(starts.hi(i));
      long word = labels.get(i) + 1L;
      if (usual(starts, ends, i, span)) {
        word |= (ends.hi(i) - starts.hi(i)) << labelBits;
      } else {
        odd[3 * o] = Keys128.flip(ends.hi(i));
        odd[3 * o + 1] = Keys128.flip(starts.lo(i));
        odd[3 * o + 2] = Keys128.flip(ends.lo(i));
        word |= Long.MIN_VALUE | (long) o << labelBits;
        o++;
      }
      rows[2 * i] = h;
      rows[2 * i + 1] = word;
    }
    return new Rows6(rows, odd, labelBits, starts);
  }

  /**
   * Whether the starts are in order (non-decreasing, 128-bit), as every file that passes {@code
   * spindex verify} has them. Only then do the rows answer exactly as the columns (any search of
   * the same candidate rows finds the same floor); a file opened with its rows out of order keeps
   * its columns, so that every loader gives the same answers for it.
   */
  static boolean inOrder(Keys128 starts) {
    for (int i = 1, n = starts.size(); i < n; i++) {
      long h0 = starts.hi(i - 1);
      long h1 = starts.hi(i);
      int c = Long.compareUnsigned(h0, h1);
      if (c > 0 || (c == 0 && Long.compareUnsigned(starts.lo(i - 1), starts.lo(i)) > 0)) {
        return false;
      }
    }
    return true;
  }

  /** Whether range {@code i} is of whole /64s and its difference fits in {@code span} bits. */
  private static boolean usual(Keys128 starts, Keys128 ends, int i, int span) {
    return starts.lo(i) == 0 && ends.lo(i) == -1L && (ends.hi(i) - starts.hi(i)) >>> span == 0;
  }

  /** Bytes of the three arrays' contents: what the rows hold on the heap. */
  long bytes() {
    return 8L * rows.length + 8L * odd.length;
  }

  /** Ranges in {@code odd}. */
  int oddCount() {
    return odd.length / 3;
  }

  /** The starts as {@link Keys128} (views over the rows), with the tables. */
  Keys128 starts() {
    return keys;
  }

  /** The ends as {@link Keys128} (views over the rows). */
  Keys128 ends() {
    return new Keys128(new EndHi(this), new Low(this, true));
  }

  /** The label ids as a column (a view over the rows). */
  IntColumn labels() {
    return new Labels(this);
  }

  /** Index in {@code odd} of the range whose word is {@code word} (a word with the flag set). */
  private int oddIndex(long word) {
    return (int) ((word & Long.MAX_VALUE) >>> labelBits);
  }

  /** Flipped low half of the start of {@code row}. */
  private long startLo(int row) {
    long word = rows[2 * row + 1];
    return word >= 0 ? LOW_START : odd[3 * oddIndex(word) + 1];
  }

  /** Flipped high half of the end of {@code row}. */
  private long endHi(int row) {
    long word = rows[2 * row + 1];
    return word >= 0 ? rows[2 * row] + (word >>> labelBits) : odd[3 * oddIndex(word)];
  }

  /** Flipped low half of the end of {@code row}. */
  private long endLo(int row) {
    long word = rows[2 * row + 1];
    return word >= 0 ? LOW_END : odd[3 * oddIndex(word) + 2];
  }

  /** Whether the start of {@code row} is at most the flipped key (for {@link Keys128.Floor}). */
  boolean startAtMost(int row, long kh, long kl) {
    long h = rows[2 * row];
    return h < kh || (h == kh && startLo(row) <= kl);
  }

  /** The last row whose start is at most the (unflipped) key, or -1: {@link Keys128#floor}. */
  @Override
  public int floor(long keyHi, long keyLo) {
    int from;
    int to;
    if (walk != null) {
      // The same rows as the columns' search (Keys128#candidates): the prefix6 tables' or the /16
      // block's, one read a level.
      long c = walk.candidates(keyHi);
      from = (int) (c >>> 32);
      to = (int) c;
    } else {
      from = 0;
      to = rows.length >>> 1;
    }
    long kh = Keys128.flip(keyHi);
    long kl = Keys128.flip(keyLo);
    long[] r = rows;
    while (to - from > SCAN) {
      int mid = (from + to) >>> 1;
      long h = r[2 * mid];
      if (h < kh || (h == kh && startLo(mid) <= kl)) {
        from = mid + 1;
      } else {
        to = mid;
      }
    }
    // The last few rows in order: their reads do not wait for each other's, so their cache misses
    // overlap, where each halving step waits for the one before.
    while (from < to) {
      long h = r[2 * from];
      if (h > kh || (h == kh && startLo(from) > kl)) {
        break;
      }
      from++;
    }
    return from - 1;
  }

  @Override
  public int labelId(long keyHi, long keyLo) {
    return labelIdAt(floor(keyHi, keyLo), keyHi, keyLo);
  }

  /**
   * The label id of {@code row} (from {@link #floor}, may be -1) if its range holds the (unflipped)
   * key, else {@link IpRanges#NONE}. The key must not be below the row's start.
   */
  @Override
  public int labelIdAt(int row, long keyHi, long keyLo) {
    if (row < 0) {
      return NONE;
    }
    long word = rows[2 * row + 1];
    long kh = Keys128.flip(keyHi);
    // The end against the key, exactly as the columns compare it (Keys128#atLeast): the end's
    // high half is the start's plus the difference (flipped or not), its low half all ones.
    if (word >= 0) {
      return rows[2 * row] + (word >>> labelBits) >= kh ? (int) (word & labelMask) - 1 : NONE;
    }
    int o = 3 * oddIndex(word);
    long h = odd[o];
    boolean in = h > kh || (h == kh && odd[o + 2] >= Keys128.flip(keyLo));
    return in ? (int) (word & labelMask) - 1 : NONE;
  }

  /** Batch {@link #floor}, in lock step as {@link Keys128#floorAll}. */
  @Override
  public void floorAll(long[] hi, long[] lo, int count, int[] out) {
    if (keys.prefixTable() == null || rows.length == 0) {
      for (int i = 0; i < count; i++) {
        out[i] = floor(hi[i], lo[i]);
      }
      return;
    }
    keys.floorAll(hi, lo, count, out, new Keys128.Floor(this));
  }

  private static final class StartHi extends LongColumn {
    private final Rows6 r;

    StartHi(Rows6 r) {
      this.r = r;
    }

    @Override
    long get(int i) {
      return r.rows[2 * i];
    }

    @Override
    int size() {
      return r.rows.length >>> 1;
    }
  }

  private static final class EndHi extends LongColumn {
    private final Rows6 r;

    EndHi(Rows6 r) {
      this.r = r;
    }

    @Override
    long get(int i) {
      return r.endHi(i);
    }

    @Override
    int size() {
      return r.rows.length >>> 1;
    }
  }

  /** A low-half column of the rows: the starts' or the ends'. */
  private static final class Low extends LongColumn {
    private final Rows6 r;
    private final boolean end;

    Low(Rows6 r, boolean end) {
      this.r = r;
      this.end = end;
    }

    @Override
    long get(int i) {
      return end ? r.endLo(i) : r.startLo(i);
    }

    @Override
    int size() {
      return r.rows.length >>> 1;
    }
  }

  private static final class Labels extends IntColumn {
    private final Rows6 r;

    Labels(Rows6 r) {
      this.r = r;
    }

    @Override
    int get(int i) {
      return (int) (r.rows[2 * i + 1] & r.labelMask) - 1;
    }

    @Override
    int size() {
      return r.rows.length >>> 1;
    }
  }
}
