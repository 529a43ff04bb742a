/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

/**
 * The IPv6 rows of a range index ({@link io.spindex.index.Section#RANGE6_ROWS}) on the heap, 8
 * bytes a row, as many as an IPv4 row's start and label id take, and read in place ({@link
 * InPlace}). It is DXR's idea applied to the {@code prefix6} tables: the rows a walk leaves to
 * search all start inside one bucket, so they share the bits of the high half above the bucket's
 * shift, and 32 bits below them tell nearly all of them apart.
 *
 * <ul>
 *   <li>{@code packed}: one long a row. The high 32 bits are the row's key, bits {@code [max(0, s -
 *       32), s)} of its start's high half, where {@code s} is the shift of the bucket whose rows it
 *       is in (48 for a /16 block without tables), flipped so that signed order is unsigned order.
 *       The low 31 bits are its label id plus one (0 for a gap row). Bit 31 is set when the key
 *       does not tell the start exactly: the start has bits below the key's, or a low half other
 *       than 0, or the row is in no bucket's rows.
 *   <li>{@code his}: the starts' high halves, flipped; {@code oddLows}: the low halves that are not
 *       0 (flipped, in row order), found by rank: {@code oddBits} has a bit set for each such row,
 *       {@code oddBefore} counts the bits set in the words before each word. Read only to settle a
 *       flagged row, and by the views.
 * </ul>
 *
 * <p>A lookup walks the file's tables ({@link Walk6}) to its bucket's rows {@code [from, to)},
 * takes the last of them whose key is at most the address's bits, or {@code from - 1}, and reads
 * that row's label id from the same long. In a file {@code spindex verify} accepts, every row in
 * {@code [from, to)} starts inside the bucket, so comparing keys compares starts, unless the row
 * found is flagged and its key equals the address's: then its run of equal keys is compared in
 * full. Both forms search the same rows through the same tables, so every loader gives the same
 * answer for any file the open-time checks accept. Thread-safe: immutable.
 */
@Internal
public final class Tiled6 implements Search6 {
  private static final int NONE = Encoding.GAP_LABEL;

  /**
   * The tables a writer makes for the rows ({@link #fileTables}): rows a bucket, at most this many
   * rows left to search.
   */
  static final int BUCKET_ROWS = 32;

  static final int LEAF_ROWS = 128;

  /** A search halves its rows down to this many, then reads them in order (misses overlapping). */
  static final int SCAN = 16;

  /** Bit 31 of a packed row: its key does not tell its start exactly. */
  private static final long INEXACT = 0x8000_0000L;

  private final long[] packed;
  private final long[] his;
  private final long[] oddBits;
  private final int[] oddBefore;
  private final long[] oddLows;
  private final Walk6 walk;

  /** The starts as {@link Keys128} views over the rows, with the file's tables. */
  private final Keys128 keys;

  private Tiled6(long[] packed, long[] his, Keys128 starts, Walk6 walk) {
    int n = his.length;
    long[] oddBits = new long[(n >>> 6) + 1];
    int[] oddBefore = new int[oddBits.length];
    int odd = 0;
    for (int i = 0; i < n; i++) {
      if (starts.lo(i) != 0) {
        oddBits[i >>> 6] |= 1L << i;
        odd++;
      }
    }
    long[] oddLows = new long[odd];
    odd = 0;
    for (int w = 0; w < oddBits.length; w++) {
      oddBefore[w] = odd;
      odd += Long.bitCount(oddBits[w]);
    }
    for (int i = 0, o = 0; i < n; i++) {
      if (starts.lo(i) != 0) {
        oddLows[o++] = starts.loColumn().get(i);
      }
    }
    this.packed = packed;
    this.his = his;
    this.oddBits = oddBits;
    this.oddBefore = oddBefore;
    this.oddLows = oddLows;
    this.walk = walk;
    this.keys =
        new Keys128(new StartHi(this), new StartLo(this), starts.prefixTable(), starts.tables());
  }

  /**
   * The rows of a file on the heap: searched through the file's tables as {@code mapped} searches
   * them ({@link InPlace}), so that every loader gives the same answers for any file the open-time
   * checks accept.
   */
  public static Tiled6 ofRows(long[] packed, Keys128 starts) {
    return new Tiled6(packed, starts.hiColumn().toArray(), starts, Walk6.of(starts));
  }

  /** The rows of a file, read where the file is mapped. */
  public static InPlace inPlace(ByteBuffer packed, Keys128 starts) {
    return new InPlace(packed.duplicate().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer(), starts);
  }

  /**
   * The label ids of packed rows, a view: the rows' low 31 bits less one (-1 for a gap). A heap
   * array or a mapped section.
   */
  public static IntColumn labels(LongColumn packed) {
    return new Labels(packed);
  }

  /** The packed rows under label ids that {@link #labels} gives, else {@code null}. */
  public static LongColumn rowsOf(IntColumn labels) {
    return labels instanceof Labels ? ((Labels) labels).packed : null;
  }

  /**
   * The rows ({@link io.spindex.index.Section#RANGE6_ROWS}) of starts (in order) and label ids (-1
   * for a gap), each key below the shift of the bucket of {@code tables} (a prefix table and
   * optional {@link Prefix6} tables over the same starts) whose rows it is in; {@code null} when a
   * bucket's rows do not all start inside it (a file {@code spindex verify} refuses). A row in no
   * bucket's rows is flagged.
   */
  public static long[] pack(Keys128 starts, IntColumn labels, Keys128 tables) {
    int n = starts.size();
    // Every row is flagged until a bucket's rows hold it.
    long[] packed = new long[n];
    for (int i = 0; i < n; i++) {
      packed[i] = INEXACT | (labels.get(i) + 1L);
    }
    boolean inside =
        Walk6.leaves(
            tables,
            (from, to, shift, bits) -> {
              int low = Math.max(0, shift - 32);
              for (int i = from; i < to; i++) {
                long hi = starts.hi(i);
                if (hi >>> shift != bits) {
                  return false;
                }
                boolean exact = (hi & ((1L << low) - 1)) == 0 && starts.lo(i) == 0;
                packed[i] = key(hi, low) << 32 | (exact ? 0 : INEXACT) | (labels.get(i) + 1L);
              }
              return true;
            });
    return inside ? packed : null;
  }

  /**
   * Tables over the starts for the rows in a file: buckets of about {@value #BUCKET_ROWS} rows (4
   * cache lines of rows), at most {@value #LEAF_ROWS} left to search, within the section's {@value
   * Prefix6#MAX_STRIDE} bits a table; {@code null} when no block has more than {@value #LEAF_ROWS}
   * rows or the tables would take more than {@code allowed} elements (the block map's 65,536 among
   * them).
   */
  public static int[] fileTables(long[] flippedHi, int[] prefix, long allowed) {
    int[] t = Prefix6.build(flippedHi, prefix, LEAF_ROWS, BUCKET_ROWS, Prefix6.MAX_STRIDE, allowed);
    return t == null || t.length == Prefix6.MAP_INTS ? null : t;
  }

  /** Bits {@code [low, low + 32)} of a high half, flipped to signed order. */
  private static long key(long hi, int low) {
    return (int) (hi >>> low) ^ Integer.MIN_VALUE;
  }

  /** Bytes of the arrays: what the rows and their walk hold on the heap. */
  long bytes() {
    return 8L * packed.length
        + 8L * his.length
        + 12L * oddBits.length
        + 8L * oddLows.length
        + walk.bytes();
  }

  /** Rows whose starts' low halves are not 0. */
  int oddCount() {
    return oddLows.length;
  }

  /** Rows flagged: a lookup that ends on one of them with an equal key compares starts in full. */
  int inexactCount() {
    int c = 0;
    for (long p : packed) {
      c += (p & INEXACT) != 0 ? 1 : 0;
    }
    return c;
  }

  /** The starts as {@link Keys128} (views over the rows), with the tables. */
  public Keys128 starts() {
    return keys;
  }

  /** The label ids as a column (a view over the rows). */
  public IntColumn labels() {
    return new Labels(LongColumn.of(packed));
  }

  /** Flipped low half of the start of {@code row}. */
  private long startLo(int row) {
    long word = oddBits[row >>> 6];
    long bit = 1L << row;
    if ((word & bit) == 0) {
      return Long.MIN_VALUE;
    }
    return oddLows[oddBefore[row >>> 6] + Long.bitCount(word & (bit - 1))];
  }

  @Override
  public int floor(long keyHi, long keyLo) {
    long e = walk.map[(int) (keyHi >>> 48)];
    int shift = 48;
    while (e < 0) {
      shift = Walk6.shift(e);
      e = walk.nodes[Walk6.bucket(e, keyHi)];
    }
    return search(e, shift, keyHi, keyLo);
  }

  /** The floor row of the key in the rows of {@code leaf}, a bucket of shift {@code shift}. */
  private int search(long leaf, int shift, long keyHi, long keyLo) {
    int from = (int) (leaf >>> 32);
    int to = (int) leaf;
    // At most this key, whatever the row's label: the address's bits in the high 32 bits.
    long k = key(keyHi, Math.max(0, shift - 32)) << 32 | 0xFFFF_FFFFL;
    long[] p = packed;
    int lo = from;
    int hi = to;
    while (hi - lo > SCAN) {
      int mid = (lo + hi) >>> 1;
      if (p[mid] <= k) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    // The last few rows in order, their cache misses overlapping.
    while (lo < hi && p[lo] <= k) {
      lo++;
    }
    int row = lo - 1;
    if (row >= from && (p[row] & INEXACT) != 0 && p[row] >>> 32 == k >>> 32) {
      // The key does not tell (a run of equal keys, which may be long: many ranges inside one
      // /64): halve rows [from, row] on the full starts.
      long kh = Keys128.flip(keyHi);
      long kl = Keys128.flip(keyLo);
      int a = from;
      int b = row + 1;
      while (a < b) {
        int mid = (a + b) >>> 1;
        if (his[mid] < kh || (his[mid] == kh && startLo(mid) <= kl)) {
          a = mid + 1;
        } else {
          b = mid;
        }
      }
      row = a - 1;
    }
    return row;
  }

  @Override
  public int labelIdAt(int row) {
    return row < 0 ? NONE : (int) (packed[row] & Integer.MAX_VALUE) - 1;
  }

  @Override
  public int labelId(long keyHi, long keyLo) {
    return labelIdAt(floor(keyHi, keyLo));
  }

  /**
   * Batch {@link #floor}: the walks of {@value LockStep#GROUP} keys a level at a time, so that
   * their reads are in flight together, then each key's search. Allocates two small arrays per
   * call.
   */
  @Override
  public void floorAll(long[] hi, long[] lo, int count, int[] out) {
    long[] leaves = new long[LockStep.GROUP];
    int[] shifts = new int[LockStep.GROUP];
    for (int g = 0; g < count; g += LockStep.GROUP) {
      int n = Math.min(LockStep.GROUP, count - g);
      walk.leaves(hi, g, n, leaves, shifts);
      for (int j = 0; j < n; j++) {
        out[g + j] = search(leaves[j], shifts[j], hi[g + j], lo[g + j]);
      }
    }
  }

  private static final class StartHi extends LongColumn {
    private final Tiled6 t;

    StartHi(Tiled6 t) {
      this.t = t;
    }

    @Override
    public long get(int i) {
      return t.his[i];
    }

    @Override
    public int size() {
      return t.his.length;
    }
  }

  private static final class StartLo extends LongColumn {
    private final Tiled6 t;

    StartLo(Tiled6 t) {
      this.t = t;
    }

    @Override
    public long get(int i) {
      return t.startLo(i);
    }

    @Override
    public int size() {
      return t.his.length;
    }
  }

  private static final class Labels extends IntColumn {
    private final LongColumn packed;

    Labels(LongColumn packed) {
      this.packed = packed;
    }

    @Override
    protected int read(int i) {
      return (int) (packed.get(i) & Integer.MAX_VALUE) - 1;
    }

    @Override
    public int size() {
      return packed.size();
    }
  }

  /**
   * The rows read where the file is mapped ({@code mapped}), searched as {@link Tiled6} searches
   * them on the heap, through the file's tables laid out by {@link Walk6} (8 bytes a bucket, made
   * at open from the tables alone: no pass over the rows). A class of its own, not {@link Tiled6}
   * over a {@link LongColumn}: a call of {@code LongColumn.get} in the search would see the heap's,
   * the mapped and the view classes in one JVM and stop being inlined. Thread-safe: only absolute
   * reads.
   */
  static final class InPlace implements Search6 {
    private final LongBuffer packed;
    private final Keys128 starts;
    private final Walk6 walk;

    private InPlace(LongBuffer packed, Keys128 starts) {
      this.packed = packed;
      this.starts = starts;
      this.walk = Walk6.of(starts);
    }

    @Override
    public int floor(long keyHi, long keyLo) {
      long e = walk.map[(int) (keyHi >>> 48)];
      int shift = 48;
      while (e < 0) {
        shift = Walk6.shift(e);
        e = walk.nodes[Walk6.bucket(e, keyHi)];
      }
      return search(e, shift, keyHi, keyLo);
    }

    private int search(long leaf, int shift, long keyHi, long keyLo) {
      int from = (int) (leaf >>> 32);
      int to = (int) leaf;
      long k = key(keyHi, Math.max(0, shift - 32)) << 32 | 0xFFFF_FFFFL;
      LongBuffer p = packed;
      int lo = from;
      int hi = to;
      while (hi - lo > SCAN) {
        int mid = (lo + hi) >>> 1;
        if (p.get(mid) <= k) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      while (lo < hi && p.get(lo) <= k) {
        lo++;
      }
      int row = lo - 1;
      if (row >= from && (p.get(row) & INEXACT) != 0 && p.get(row) >>> 32 == k >>> 32) {
        // A run of equal keys: halve rows [from, row] on the full starts, as Tiled6 does.
        row = starts.floorWithin(from, row + 1, keyHi, keyLo);
      }
      return row;
    }

    @Override
    public int labelIdAt(int row) {
      return row < 0 ? NONE : (int) (packed.get(row) & Integer.MAX_VALUE) - 1;
    }

    @Override
    public int labelId(long keyHi, long keyLo) {
      return labelIdAt(floor(keyHi, keyLo));
    }

    /** Batch {@link #floor}: the walks of a group a level at a time, as {@link Tiled6} walks. */
    @Override
    public void floorAll(long[] hi, long[] lo, int count, int[] out) {
      long[] leaves = new long[LockStep.GROUP];
      int[] shifts = new int[LockStep.GROUP];
      for (int g = 0; g < count; g += LockStep.GROUP) {
        int n = Math.min(LockStep.GROUP, count - g);
        walk.leaves(hi, g, n, leaves, shifts);
        for (int j = 0; j < n; j++) {
          out[g + j] = search(leaves[j], shifts[j], hi[g + j], lo[g + j]);
        }
      }
    }
  }
}
