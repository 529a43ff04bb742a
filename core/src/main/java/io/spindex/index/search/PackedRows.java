/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ShortBuffer;

/**
 * The IPv4 rows of a range index (sections {@code range_starts_low} and {@code row_label_ids}): a
 * row a range and a row a gap, each ending where the next starts, whose starts keep only their low
 * 16 bits, the block of each row being the one {@code prefix16} puts it in, and whose label ids
 * take the fewest of 1 to 4 bytes that hold every id and the gap's (all bits set). The heap loaders
 * unpack them into {@code int} columns (flipped starts, label ids); {@code mapped} reads them in
 * place ({@link InPlace}), its search comparing the 16-bit keys of the one block {@code prefix16}
 * gives an address.
 */
@Internal
public final class PackedRows {
  /** Rows a chunk of the heap loaders' unpacking of the label ids ({@link #labelIds}). */
  private static final int CHUNK_ROWS = 1 << 14;

  private PackedRows() {}

  /** Bytes a row's label id takes for {@code labels} labels: room for each id and the gap's. */
  public static int labelIdBytes(int labels) {
    return LeIds.width(labels + 1L);
  }

  /** The low 16 bits of each of the first {@code n} flipped starts, little-endian. */
  public static byte[] lows(int[] flippedStarts, int n) {
    byte[] out = new byte[2 * n];
    for (int i = 0; i < n; i++) {
      out[2 * i] = (byte) flippedStarts[i];
      out[2 * i + 1] = (byte) (flippedStarts[i] >>> 8);
    }
    return out;
  }

  /** The first {@code n} label ids ({@code -1} for a gap) in {@code width} bytes each. */
  public static byte[] labelIds(int[] ids, int n, int width) {
    byte[] out = new byte[n * width];
    for (int i = 0, p = 0; i < n; i++) {
      for (int b = 0; b < width; b++) {
        out[p++] = (byte) (ids[i] >>> (8 * b));
      }
    }
    return out;
  }

  /**
   * The flipped starts: the rows {@code prefix16} gives block {@code b} start at {@code b << 16}
   * and their low 16 bits. An entry below the one before it (which only a file opened unchecked
   * gets here with) is an element of {@code prefix} that is {@link Malformed}, never a row out of
   * bounds.
   */
  public static IntColumn starts(IntColumn prefix, ByteBuffer low) throws Malformed {
    int n = low.remaining() / 2;
    short[] lows = new short[n];
    low.duplicate().order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(lows);
    int[] out = new int[n];
    int from = 0;
    for (int b = 0; b < Encoding.PREFIX16_ENTRIES - 1; b++) {
      int to = prefix.get(b + 1);
      if (to < from || to > n) {
        throw new Malformed(
            b + 1L,
            "entries in ascending order, from " + from + " to at most " + n,
            String.valueOf(to));
      }
      int high = (b << 16) ^ Integer.MIN_VALUE;
      for (int i = from; i < to; i++) {
        out[i] = high | (lows[i] & 0xFFFF);
      }
      from = to;
    }
    return IntColumn.of(out);
  }

  /** The label ids of {@code rows} rows, {@code width} bytes each, {@code -1} for a gap. */
  public static IntColumn labelIds(ByteBuffer ids, int rows, int width) {
    int[] out = new int[rows];
    int mask = LeIds.mask(width);
    byte[] chunk = LeIds.chunk(width * CHUNK_ROWS);
    ByteBuffer in = ids.duplicate();
    for (int from = 0; from < rows; from += CHUNK_ROWS) {
      int n = Math.min(CHUNK_ROWS, rows - from);
      in.get(chunk, 0, n * width);
      for (int i = 0, p = 0; i < n; i++, p += width) {
        int id = LeIds.get(chunk, p, mask);
        out[from + i] = id == mask ? Encoding.GAP_LABEL : id;
      }
    }
    return IntColumn.of(out);
  }

  /** Packed rows read in place by a mapping: what a lookup reads of them. */
  public static InPlace inPlace(ByteBuffer low, ByteBuffer ids, int width) {
    return new InPlace(low, ids, width);
  }

  /**
   * Packed rows in place ({@code mapped}): the starts' low 16 bits and the label ids in 1 to 4
   * bytes, read by the lookups of {@link io.spindex.index.IpRanges} as they are stored (no {@link
   * IntColumn} holds 16-bit or packed values). {@link #starts} and {@link #labelIds} are columns
   * over them for everything else (a row's start, {@code verify}, the checks at open).
   */
  public static final class InPlace {
    private final ShortBuffer lows;
    private final ByteBuffer ids;
    private final int width;
    private final int gap;

    private InPlace(ByteBuffer low, ByteBuffer ids, int width) {
      this.lows = low.duplicate().order(ByteOrder.LITTLE_ENDIAN).asShortBuffer();
      this.ids = ids.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      this.width = width;
      this.gap = LeIds.mask(width);
    }

    /** The low 16 bits of row {@code row}'s start (0 to 65535). */
    public int low(int row) {
      return lows.get(row) & 0xFFFF;
    }

    /** The label id of row {@code row}, {@link Encoding#GAP_LABEL} for a gap. */
    public int labelId(int row) {
      int id = LeIds.get(ids, width * row, width);
      return id == gap ? Encoding.GAP_LABEL : id;
    }

    /** The first row in {@code [lo, hi)} of one /16 block whose low 16 bits exceed {@code key}. */
    public int upperBound(int lo, int hi, int key) {
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (low(mid) <= key) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    /** The low halves, for the batch search's probe. */
    public ShortBuffer lows() {
      return lows;
    }

    /**
     * The flipped starts: row {@code i}'s block is the last whose {@code prefix16} entry is at most
     * {@code i} (a binary search of the table: for reading a row, not for lookups, which know the
     * block).
     */
    public IntColumn starts(IntColumn prefix) {
      return new IntColumn() {
        @Override
        protected int read(int i) {
          int block = IntColumn.upperBound(prefix, 0, Encoding.PREFIX16_ENTRIES, i) - 1;
          return ((block << 16) ^ Integer.MIN_VALUE) | low(i);
        }

        @Override
        public int size() {
          return lows.limit();
        }
      };
    }

    /** The label ids ({@code -1} for a gap), checked at open in bulk. */
    public IntColumn labelIds() {
      return new IntColumn() {
        @Override
        protected int read(int i) {
          return labelId(i);
        }

        @Override
        public int size() {
          return lows.limit();
        }

        /** In bulk: a chunk of rows copied out of the mapping at a time, then decoded. */
        @Override
        public int firstOutside(int count, boolean gaps) {
          int rows = size();
          byte[] chunk = LeIds.chunk(width * CHUNK_ROWS);
          ByteBuffer in = ids.duplicate();
          in.position(0);
          for (int from = 0; from < rows; from += CHUNK_ROWS) {
            int n = Math.min(CHUNK_ROWS, rows - from);
            in.get(chunk, 0, n * width);
            for (int i = 0, p = 0; i < n; i++, p += width) {
              int id = LeIds.get(chunk, p, gap);
              boolean isGap = id == gap;
              if ((isGap && !gaps) || (!isGap && (id < 0 || id >= count))) {
                return from + i;
              }
            }
          }
          return -1;
        }
      };
    }
  }
}
