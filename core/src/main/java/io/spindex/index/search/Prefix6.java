/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;
import java.util.Arrays;

/**
 * The {@link io.spindex.index.Section#PREFIX6} section of an index with IPv6 keys: a tree of tables
 * over the bits of the routed IPv6 space, for the dense /16 blocks. The /16 prefix table ({@code
 * prefix16_v6}) leaves a lookup in {@code 2a02::/16} or {@code 2001::/16} thousands of rows to
 * search; the routed space is dense exactly where the registries allocate (/32 allocations, /48
 * sites, and runs of /56s and /64s under one provider), so a fixed second level (the /24 sub-tables
 * of IPv4) would spend its bits in the wrong place. Here each dense run of rows gets a table over
 * as many of the next bits as it has rows (about {@value #ROWS_PER_BUCKET} rows a bucket, at most
 * 2^{@value #MAX_STRIDE} buckets), and each bucket still denser gets a table of its own, until at
 * most {@value #LEAF_ROWS} rows are left to search (a few steps within a cache line or two).
 *
 * <p>Layout, all int32 elements. Elements 0 … 65,535 are the block map: element {@code p} is 0 when
 * /16 block {@code p} has no table, else the element offset of its table. A table at offset {@code
 * o}: element {@code o} holds {@code shift << 8 | stride} (its buckets are the values of address
 * bits {@code [shift, shift + stride)} of the high 64 bits, counted from the least significant),
 * {@code o + 1} the first row it covers, {@code o + 2} the row after the last, and {@code o + 3 +
 * q} for each of its {@code 2^stride} buckets either the first row whose key is in bucket {@code q}
 * or later ({@code >= 0}), or {@code ~c}: bucket {@code q} has a table of its own at offset {@code
 * c}, which lies after {@code o} (so that every walk ends). The rows of bucket {@code q} end where
 * bucket {@code q + 1} begins (the first row of its table when it has one), the last bucket's at
 * {@code o + 2}. A key's floor row is in its bucket's rows or is the row just before them, as with
 * the /16 table. Rows are absolute row numbers of the IPv6 keys.
 *
 * <p>Which runs get a table, and how many bits each takes, is the writer's choice, not part of the
 * format. Thread-safe: only absolute reads.
 */
@Internal
public final class Prefix6 {
  /** Elements of the block map. */
  public static final int MAP_INTS = 65_536;

  /** Elements of a table before its buckets: header, first row, end row. */
  public static final int HEAD_INTS = 3;

  /** The most bits a table takes. 2^16 buckets (256 KiB) serve a run of about 250,000 rows. */
  static final int MAX_STRIDE = 16;

  /** A table's bits are chosen to leave about this many rows in a bucket. */
  static final int ROWS_PER_BUCKET = 4;

  /** A run of more rows than this gets a table; fewer are searched. */
  static final int LEAF_ROWS = 16;

  /**
   * By default the section adds at most this share of the bytes of the rows it indexes (16 a key of
   * a set, 36 a range with its end and label): the leaf size doubles until it fits.
   */
  public static final double BUDGET = 0.25;

  private final IntColumn column;

  public Prefix6(IntColumn column) {
    this.column = column;
  }

  /** The element offset of block {@code p}'s table, or 0 when the block has none. */
  int root(int p) {
    return column.get(p);
  }

  /**
   * The rows to search for a key of the (unflipped) high half {@code hi} in block {@code p}, which
   * has a table at {@code offset}: {@code from << 32 | to}, the key's floor row being in {@code
   * [from, to)} or {@code from - 1}.
   */
  long rows(int offset, long hi) {
    int o = offset;
    while (true) {
      int head = column.get(o);
      int stride = head & 0xFF;
      int last = (1 << stride) - 1;
      int q = (int) (hi >>> (head >>> 8)) & last;
      int e = column.get(o + HEAD_INTS + q);
      if (e >= 0) {
        return (long) e << 32 | (bucketEnd(o, q) & 0xFFFF_FFFFL);
      }
      if (~e <= o) {
        // Only a file opened unchecked gets here: a table must lie after its parent.
        throw new IllegalStateException(
            "section 'prefix6': table at element "
                + o
                + " names a table before it, "
                + ~e
                + " (run spindex verify)");
      }
      o = ~e;
    }
  }

  /**
   * The row after bucket {@code q}'s rows in the table at element {@code o}: where bucket {@code q
   * + 1} begins (the first row of its table when it has one), the table's end for the last.
   */
  int bucketEnd(int o, int q) {
    if (q == (1 << (column.get(o) & 0xFF)) - 1) {
      return column.get(o + 2);
    }
    int next = column.get(o + HEAD_INTS + q + 1);
    return next >= 0 ? next : column.get(~next + 1);
  }

  /** Element {@code i} of the section. */
  int element(int i) {
    return column.get(i);
  }

  /**
   * The section for IPv6 keys whose high halves (flipped, as stored) and /16 prefix table are
   * given, or {@code null} when no block has more than {@value #LEAF_ROWS} rows or the section
   * would not fit the budget. The leaf size starts at {@value #LEAF_ROWS} and doubles until the
   * tables fit.
   *
   * @param rowBytes the bytes of a row in the file (16 a set key, 36 a range)
   * @param budget the section may be at most this share of the rows' bytes
   */
  public static int[] build(long[] flippedHi, int n, int[] prefix, int rowBytes, double budget) {
    long allowed = (long) (budget * rowBytes * n / 4);
    if (allowed < MAP_INTS + HEAD_INTS + 2) {
      return null;
    }
    for (int leaf = LEAF_ROWS; leaf < n; leaf <<= 1) {
      int[] out = build(flippedHi, prefix, leaf, ROWS_PER_BUCKET, MAX_STRIDE, allowed);
      if (out != null) {
        return out.length == MAP_INTS ? null : out;
      }
    }
    return null;
  }

  /**
   * The section with the given leaf size and bucket density, or {@code null} when it would take
   * more than {@code allowed} elements.
   */
  static int[] build(
      long[] flippedHi,
      int[] prefix,
      int leafRows,
      int rowsPerBucket,
      int maxStride,
      long allowed) {
    Builder b = new Builder(flippedHi, leafRows, rowsPerBucket, maxStride, allowed);
    for (int p = 0; p < MAP_INTS; p++) {
      if (prefix[p + 1] - prefix[p] > leafRows) {
        int offset = b.table(prefix[p], prefix[p + 1], 48);
        if (offset < 0) {
          return null;
        }
        b.out[p] = offset;
      }
    }
    return Arrays.copyOf(b.out, b.size);
  }

  private static final class Builder {
    final long[] flippedHi;
    final int leafRows;
    final int rowsPerBucket;
    final int maxStride;
    final long allowed;
    int[] out = new int[MAP_INTS * 2];
    int size = MAP_INTS;

    Builder(long[] flippedHi, int leafRows, int rowsPerBucket, int maxStride, long allowed) {
      this.flippedHi = flippedHi;
      this.leafRows = leafRows;
      this.rowsPerBucket = rowsPerBucket;
      this.maxStride = maxStride;
      this.allowed = allowed;
    }

    /**
     * Writes the table of rows {@code [from, to)}, which share the bits of the high half above bit
     * {@code bits}, and returns its offset; -1 when the section would outgrow {@code allowed}.
     */
    int table(int from, int to, int bits) {
      int rows = to - from;
      int want = 32 - Integer.numberOfLeadingZeros((rows - 1) / rowsPerBucket);
      int stride = Math.max(1, Math.min(want, Math.min(maxStride, bits)));
      int shift = bits - stride;
      int buckets = 1 << stride;
      int o = size;
      if ((long) o + HEAD_INTS + buckets > allowed) {
        return -1;
      }
      grow(o + HEAD_INTS + buckets);
      size = o + HEAD_INTS + buckets;
      out[o] = shift << 8 | stride;
      out[o + 1] = from;
      out[o + 2] = to;
      int[] first = new int[buckets + 1];
      int row = from;
      for (int q = 0; q < buckets; q++) {
        while (row < to && bucket(row, shift, buckets - 1) < q) {
          row++;
        }
        first[q] = row;
      }
      first[buckets] = to;
      for (int q = 0; q < buckets; q++) {
        int a = first[q];
        int z = first[q + 1];
        if (z - a > leafRows && shift > 0) {
          int child = table(a, z, shift);
          if (child < 0) {
            return -1;
          }
          out[o + HEAD_INTS + q] = ~child;
        } else {
          out[o + HEAD_INTS + q] = a;
        }
      }
      return o;
    }

    private int bucket(int row, int shift, int mask) {
      return (int) (Keys128.flip(flippedHi[row]) >>> shift) & mask;
    }

    private void grow(int need) {
      if (need > out.length) {
        out = Arrays.copyOf(out, Math.max(need, out.length * 2));
      }
    }
  }

  /**
   * What a walk of the tables checks, at open (bounds only) or in {@code spindex verify} (every
   * value against the keys).
   */
  public interface Keys {
    /** The (unflipped) high half of the key at {@code row}. */
    long hi(int row);
  }

  /**
   * Checks that every lookup stays within the rows and ends: each table within the section, after
   * its parent and reached once; its header a valid shift and stride; every row number in {@code
   * [0, rows]}. With {@code keys}, also every value against them: the tables cover exactly their
   * block's or bucket's rows, each entry the first row of its bucket, and no element unreachable.
   *
   * @throws Malformed naming the first element that breaks a rule
   */
  public void check(IntColumn prefix, int rows, Keys keys) throws Malformed {
    int n = column.size();
    boolean[] seen = new boolean[n];
    long reached = MAP_INTS;
    for (int p = 0; p < MAP_INTS; p++) {
      int o = column.get(p);
      if (o == 0) {
        continue;
      }
      reached += checkTable(p, o, 0, prefix.get(p), prefix.get(p + 1), 48, rows, keys, seen);
    }
    if (keys != null && reached != n) {
      throw new Malformed(
          0, n + " elements, every one in a table a block reaches", reached + " reached");
    }
  }

  private long checkTable(
      int p, int o, int parent, int from, int to, int bits, int rows, Keys keys, boolean[] seen)
      throws Malformed {
    int n = column.size();
    String where = "block " + p + ", table at element " + o;
    if (o <= parent || o < MAP_INTS || o > n - HEAD_INTS - 2 || seen[o]) {
      throw new Malformed(
          parent,
          "a table offset in [" + MAP_INTS + ", " + n + "), after its parent, used once",
          String.valueOf(o));
    }
    seen[o] = true;
    int head = column.get(o);
    int stride = head & 0xFF;
    int shift = head >>> 8;
    int buckets = 1 << Math.min(stride, 30);
    if (stride < 1
        || stride > MAX_STRIDE
        || shift + stride > bits
        || (keys != null && shift + stride != bits)
        || (long) o + HEAD_INTS + buckets > n) {
      throw new Malformed(
          o,
          where
              + ": a stride in [1, "
              + MAX_STRIDE
              + "] and shift + stride "
              + (keys != null ? "= " : "<= ")
              + bits
              + ", the table within the section",
          "shift " + shift + ", stride " + stride);
    }
    int first = column.get(o + 1);
    int end = column.get(o + 2);
    checkRow(o + 1, where + ", first row", first, rows, keys == null ? -1 : from);
    checkRow(o + 2, where + ", end row", end, rows, keys == null ? -1 : to);
    long reached = HEAD_INTS + buckets;
    int row = from;
    for (int q = 0; q < buckets; q++) {
      int v = column.get(o + HEAD_INTS + q);
      int expected = -1;
      int next = -1;
      if (keys != null) {
        while (row < to && ((keys.hi(row) >>> shift) & (buckets - 1)) < q) {
          row++;
        }
        expected = row;
        int z = row;
        while (z < to && ((keys.hi(z) >>> shift) & (buckets - 1)) <= q) {
          z++;
        }
        next = z;
      }
      if (v >= 0) {
        checkRow(o + HEAD_INTS + q, where + ", bucket " + q, v, rows, expected);
      } else {
        if (keys != null && shift == 0) {
          throw new Malformed(o + HEAD_INTS + q, where + ", bucket " + q + ": a row", "" + v);
        }
        int c = ~v;
        if (c <= o || c > n - HEAD_INTS - 2) {
          throw new Malformed(
              o + HEAD_INTS + q,
              where + ", bucket " + q + ": a row in [0, " + rows + "] or a table after it",
              String.valueOf(v));
        }
        reached += checkTable(p, c, o, expected, next, shift, rows, keys, seen);
      }
    }
    return reached;
  }

  private static void checkRow(long element, String what, int v, int rows, int expected)
      throws Malformed {
    if (expected >= 0 ? v != expected : v < 0 || v > rows) {
      throw new Malformed(
          element,
          what + (expected >= 0 ? ": row " + expected : ": a row in [0, " + rows + "]"),
          String.valueOf(v));
    }
  }
}
