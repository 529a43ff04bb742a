/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * IPv4 ranges shaped like the public geo and ASN databases: the {@link RangeGenerator.Shape#REAL}
 * shape, documented there. Ranges come out /8 by /8 in address order, sorted and non-overlapping;
 * the rows of each /8 are drawn from a random generator of their own (from the seed and the /8), so
 * a /8's rows do not depend on the other /8s' draws.
 *
 * <p>Longer than most files here because of its tables: the reserved blocks and the registry's
 * assignment of every /8 to a density tier are data, kept beside the code that draws from them.
 */
final class RealRanges {
  /** Receives the ranges in address order. */
  interface Sink {
    void range(long start, long end) throws IOException;
  }

  /** The special-purpose blocks (RFC 6890) no range may touch, as {start, end} pairs, sorted. */
  static final long[][] RESERVED = {
    block("0.0.0.0", 8),
    block("10.0.0.0", 8),
    block("100.64.0.0", 10),
    block("127.0.0.0", 8),
    block("169.254.0.0", 16),
    block("172.16.0.0", 12),
    block("192.0.0.0", 24),
    block("192.0.2.0", 24),
    block("192.88.99.0", 24),
    block("192.168.0.0", 16),
    block("198.18.0.0", 15),
    block("198.51.100.0", 24),
    block("203.0.113.0", 24),
    block("224.0.0.0", 3),
  };

  /** The weight of each density tier, per /8: very dense, dense, medium, sparse, very sparse. */
  static final double[] TIER_WEIGHTS = {100, 16, 4, 0.5, 0.05};

  /**
   * The /8s of each tier (from the IANA IPv4 address space registry: who got each /8 and how it was
   * handed out). Every /8 outside the reserved space is in exactly one tier.
   */
  static final int[][] TIERS = {
    // Very dense: the RIRs' last /8s and the blocks handed out as /24s (RIPE's early PA space,
    // the legacy class C "swamp"), and 45/8 (split up on the transfer market).
    {45, 103, 185, 192, 193, 194, 195, 212, 213, 217},
    // Dense: the other RIPE /8s and the ARIN ones of small allocations and CDNs.
    concat(
        new int[] {2, 5, 23, 31, 37, 46, 62, 104, 109, 176, 178, 188, 198, 199},
        span(77, 95),
        span(204, 209)),
    // Medium: APNIC, LACNIC, AFRINIC and ARIN /8s of large ISPs (big blocks split by city).
    concat(
        new int[] {1, 14, 24, 27, 36, 39, 41, 42, 43, 49, 50, 101, 102, 105, 106, 107, 108},
        span(58, 61),
        span(63, 76),
        span(96, 100),
        span(110, 126),
        new int[] {173, 174, 175, 177, 179, 180, 181, 182, 183, 184, 186, 187, 189, 190, 191},
        new int[] {196, 197, 200, 201, 202, 203, 210, 211, 216},
        span(218, 223)),
    // Sparse: legacy /8s and the legacy class B space, routed in large blocks.
    concat(new int[] {3, 4, 8, 12, 18, 20, 32, 34, 35, 38, 40, 44, 47, 52, 54}, span(128, 172)),
    // Very sparse: legacy /8s of single organisations (mostly the US DoD), largely unrouted.
    {
      6, 7, 9, 11, 13, 15, 16, 17, 19, 21, 22, 25, 26, 28, 29, 30, 33, 48, 51, 53, 55, 56, 57, 214,
      215
    },
  };

  /**
   * The most of each tier's /8s' free addresses the rows may cover: where they cover less, the rows
   * larger than a /24 grow towards it (the published databases cover most of the routed space).
   * Alignment and the gaps keep the rows well under it: at 700,000 rows they cover about 45% of the
   * 2^32 addresses.
   */
  static final double[] COVERAGE = {0.85, 0.85, 0.85, 0.7, 0.3};

  /** At most one row per this many free addresses of a /8. */
  static final int ADDRESSES_PER_ROW = 400;

  /** Per-/8 weights: 0 for the reserved /8s. */
  static final double[] WEIGHTS = weights();

  private final long seed;

  RealRanges(long seed) {
    this.seed = seed;
  }

  /** The most rows the shape holds. */
  static long capacity() {
    long c = 0;
    for (int b = 0; b < 256; b++) {
      c += WEIGHTS[b] > 0 ? free(b) / ADDRESSES_PER_ROW : 0;
    }
    return c;
  }

  /** Writes {@code count} ranges to {@code sink}, in address order. */
  void write(int count, Sink sink) throws IOException {
    int[] rows = rowsPerSlash8(count);
    for (int b = 0; b < 256; b++) {
      if (rows[b] > 0) {
        slash8(b, rows[b], sink);
      }
    }
  }

  /**
   * Splits {@code count} over the /8s by weight (largest remainders), capping a /8 at its capacity
   * and sharing what it cannot hold among the others by their weights, until all fit.
   */
  static int[] rowsPerSlash8(int count) {
    if (count > capacity()) {
      throw new IllegalArgumentException(
          "the real shape holds at most " + capacity() + " IPv4 ranges, not " + count);
    }
    int[] rows = new int[256];
    boolean[] full = new boolean[256];
    int left = count;
    while (left > 0) {
      double w = 0;
      for (int b = 0; b < 256; b++) {
        w += full[b] ? 0 : WEIGHTS[b];
      }
      int[] share = new int[256];
      double[] rest = new double[256];
      int given = 0;
      for (int b = 0; b < 256; b++) {
        if (!full[b] && WEIGHTS[b] > 0) {
          double exact = left * WEIGHTS[b] / w;
          share[b] = (int) exact;
          rest[b] = exact - share[b];
          given += share[b];
        }
      }
      // Largest remainders first (ties to the lower /8), so the shares add up to `left`.
      Integer[] order = new Integer[256];
      for (int b = 0; b < 256; b++) {
        order[b] = b;
      }
      Arrays.sort(order, (x, y) -> Double.compare(rest[y], rest[x]));
      for (int i = 0; given < left; i++) {
        int b = order[i];
        if (!full[b] && WEIGHTS[b] > 0) {
          share[b]++;
          given++;
        }
      }
      left = 0;
      for (int b = 0; b < 256; b++) {
        int cap = (int) (free(b) / ADDRESSES_PER_ROW);
        rows[b] += share[b];
        if (rows[b] >= cap && WEIGHTS[b] > 0) {
          left += rows[b] - cap;
          rows[b] = cap;
          full[b] = true;
        }
      }
    }
    return rows;
  }

  /** The rows' draws for one /8, before they are sized to fit it. */
  private static final class Draws {
    final long[] size;
    final long[] align;

    /** Gap after the row: 0 none, k > 0 k times the row's size (at most a /24), -1 a large gap. */
    final int[] gap;

    /**
     * The rows' large gaps' weights, then the space before the first row's and after the last's.
     */
    final double[] gapWeight;

    /** Where in [0, 1) the row's growth rounds up (see {@code place}). */
    final double[] growRounding;

    /** The reserved blocks in the /8. */
    final long[][] reserved;

    Draws(int n, long[][] reserved) {
      size = new long[n];
      align = new long[n];
      gap = new int[n];
      gapWeight = new double[n + 2];
      growRounding = new double[n];
      this.reserved = reserved;
    }
  }

  /** The largest rows grow to: a /12. */
  static final long MAX_GROWN = 1L << 20;

  private void slash8(int b, int n, Sink sink) throws IOException {
    SplittableRandom rnd = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (b + 1)));
    long lo = (long) b << 24;
    long hi = lo + (1L << 24);
    Draws d = new Draws(n, reservedIn(lo, hi - 1));
    for (int i = 0; i < n; i++) {
      rowSize(rnd, d, i);
      int g = rnd.nextInt(100);
      d.gap[i] = g < 65 ? 0 : g < 90 ? rnd.nextInt(1, 3) : -1;
      d.gapWeight[i] = largeGapWeight(rnd);
      d.growRounding[i] = rnd.nextDouble();
    }
    d.gapWeight[n] = largeGapWeight(rnd);
    d.gapWeight[n + 1] = largeGapWeight(rnd);
    largestFirst(d);
    long[] starts = new long[n];
    long[] ends = new long[n];
    // The rows without the large gaps may take 90% of the /8's free space. Where they take more
    // (the densest /8s at large counts), rows are cut down to `cap` addresses until they fit; where
    // they cover less than the tier's coverage, the rows larger than a /24 grow (by about 2^(grow /
    // 4), to at most a /12) as far as they fit and cover at most that much.
    long limit = hi - free(b) / 10;
    long cap = 1L << 24;
    while (place(d, cap, 0, lo, hi, 0, starts, ends) > limit && cap > 1) {
      cap >>= 1;
    }
    int grow = 0;
    long cover = (long) (free(b) * COVERAGE[tier(b)]);
    for (int g = 1; g <= 64 && cap == 1L << 24; g++) {
      if (place(d, cap, g, lo, hi, 0, starts, ends) <= limit && covered(starts, ends) <= cover) {
        grow = g;
      }
    }
    long used = place(d, cap, grow, lo, hi, 0, starts, ends);
    if (used > hi) {
      throw new IllegalStateException(n + " rows do not fit in " + b + "/8");
    }
    // Then the room left is shared among the large gaps, the space before the first row and the
    // space after the last one, by their weights. Alignment and the reserved blocks shift the rows
    // a little from where the shares put them; should they no longer fit, smaller gaps are tried.
    long room = hi - used;
    for (double f : new double[] {0.9, 0.6, 0.3, 0}) {
      if (place(d, cap, grow, lo, hi, (long) (room * f), starts, ends) <= hi) {
        break;
      }
    }
    for (int i = 0; i < n; i++) {
      sink.range(starts[i], ends[i]);
    }
  }

  /**
   * Orders the rows of each cluster (the rows between two large gaps) largest first, as an
   * allocation's subnets often are: then a row starts where the one before it ends, aligned, and
   * the alignment wastes (almost) no space.
   */
  private static void largestFirst(Draws d) {
    int n = d.size.length;
    double[] rounding = new double[n];
    for (int from = 0; from < n; ) {
      int to = from;
      while (to < n - 1 && d.gap[to] >= 0) {
        to++;
      }
      long[][] rows = new long[to - from + 1][];
      for (int i = from; i <= to; i++) {
        rows[i - from] = new long[] {d.size[i], d.align[i], i};
      }
      // Stable: rows of one size keep their order.
      Arrays.sort(rows, (x, y) -> Long.compare(y[0], x[0]));
      for (int i = from; i <= to; i++) {
        d.size[i] = rows[i - from][0];
        d.align[i] = rows[i - from][1];
        rounding[i] = d.growRounding[(int) rows[i - from][2]];
      }
      from = to + 1;
    }
    System.arraycopy(rounding, 0, d.growRounding, 0, n);
  }

  private static long covered(long[] starts, long[] ends) {
    long c = 0;
    for (int i = 0; i < starts.length; i++) {
      c += ends[i] - starts[i] + 1;
    }
    return c;
  }

  /**
   * Places the rows from {@code lo}, sized by {@code cap} and {@code grow}, with {@code room}
   * addresses shared among the large gaps; returns where the last row ends (exclusive), more than
   * {@code hi} when they do not fit.
   */
  private static long place(
      Draws d, long cap, int grow, long lo, long hi, long room, long[] starts, long[] ends) {
    int n = starts.length;
    double total = d.gapWeight[n] + d.gapWeight[n + 1];
    for (int i = 0; i < n; i++) {
      total += d.gap[i] < 0 ? d.gapWeight[i] : 0;
    }
    long pos = lo + largeGap(room, d.gapWeight[n], total);
    long last = lo;
    for (int i = 0; i < n; i++) {
      long size = d.size[i];
      long align = d.align[i];
      if (size > 256 && grow > 0) {
        // Doubled grow / 4 times, rounded up or down at random: sizes stay powers of two (times
        // the /24s of a run) and grow smoothly in all.
        int shift = (int) (grow / 4.0 + d.growRounding[i]);
        size = Math.min(size << shift, MAX_GROWN);
        align = Math.min(align << shift, MAX_GROWN);
      }
      size = Math.min(size, cap);
      align = Math.min(align, cap);
      pos = alignUp(pos, align);
      long r = reservedOverlap(d.reserved, pos, pos + size - 1);
      while (r >= 0) {
        pos = alignUp(r + 1, align);
        r = reservedOverlap(d.reserved, pos, pos + size - 1);
      }
      if (pos + size > hi) {
        return hi + 1;
      }
      starts[i] = pos;
      ends[i] = pos + size - 1;
      pos += size;
      last = pos;
      if (d.gap[i] > 0) {
        pos += Math.min(size, 256) * d.gap[i];
      } else if (d.gap[i] < 0) {
        pos += largeGap(room, d.gapWeight[i], total);
      }
    }
    return last;
  }

  /** A large gap: its share of the room, in whole /24s. */
  private static long largeGap(long room, double weight, double total) {
    return (long) (room * weight / total) & ~0xFFL;
  }

  /** The reserved blocks that touch [lo, hi]. */
  private static long[][] reservedIn(long lo, long hi) {
    return Arrays.stream(RESERVED).filter(r -> r[0] <= hi && r[1] >= lo).toArray(long[][]::new);
  }

  /** The end of the reserved block that [start, end] touches, or -1. */
  private static long reservedOverlap(long[][] reserved, long start, long end) {
    for (long[] r : reserved) {
      if (start <= r[1] && end >= r[0]) {
        return r[1];
      }
    }
    return -1;
  }

  private static long alignUp(long pos, long align) {
    return (pos + align - 1) / align * align;
  }

  /** Pareto (alpha 1.5) weights: most large gaps are modest, a few take a big share. */
  private static double largeGapWeight(SplittableRandom rnd) {
    return StrictMath.pow(1 - rnd.nextDouble(), -1 / 1.5);
  }

  /**
   * A row's size and alignment, per mille: 40 single addresses, 60 unaligned runs of 2 to 255
   * addresses, 250 aligned /29 to /25 blocks, 470 aligned /24s, 60 runs of 2 to 15 /24s, 100
   * aligned /23 to /20 blocks, 18 aligned /19 to /16 and 2 aligned /15 to /12 blocks.
   */
  private static void rowSize(SplittableRandom rnd, Draws d, int i) {
    int x = rnd.nextInt(1000);
    long size;
    long align;
    if (x < 40) {
      size = 1;
      align = 1;
    } else if (x < 100) {
      size = rnd.nextInt(2, 256);
      align = 1;
    } else if (x < 350) {
      size = 1L << (3 + SMALL_BLOCKS[rnd.nextInt(SMALL_BLOCKS.length)]);
      align = size;
    } else if (x < 820) {
      size = 256;
      align = 256;
    } else if (x < 880) {
      size = 256L * rnd.nextInt(2, 16);
      align = 256;
    } else if (x < 980) {
      size = 1L << rnd.nextInt(9, 13);
      align = size;
    } else if (x < 998) {
      size = 1L << rnd.nextInt(13, 17);
      align = size;
    } else {
      size = 1L << rnd.nextInt(17, 21);
      align = size;
    }
    d.size[i] = size;
    d.align[i] = align;
  }

  /** /29 to /25 (as log2(size) - 3), smaller blocks more often: 60, 60, 50, 45 and 35 per mille. */
  private static final int[] SMALL_BLOCKS = smallBlocks();

  private static int[] smallBlocks() {
    int[] perMille = {60, 60, 50, 45, 35};
    int[] out = new int[250];
    int at = 0;
    for (int k = 0; k < perMille.length; k++) {
      for (int j = 0; j < perMille[k]; j++) {
        out[at++] = k;
      }
    }
    return out;
  }

  /** The density tier of a /8 outside the reserved space. */
  static int tier(int b) {
    for (int t = 0; t < TIERS.length; t++) {
      for (int x : TIERS[t]) {
        if (x == b) {
          return t;
        }
      }
    }
    throw new IllegalArgumentException(b + "/8 is reserved");
  }

  /** Addresses of /8 {@code b} outside the reserved blocks. */
  static long free(int b) {
    long lo = (long) b << 24;
    long hi = lo + (1L << 24) - 1;
    long f = 1L << 24;
    for (long[] r : RESERVED) {
      long s = Math.max(lo, r[0]);
      long e = Math.min(hi, r[1]);
      if (s <= e) {
        f -= e - s + 1;
      }
    }
    return f;
  }

  private static double[] weights() {
    double[] w = new double[256];
    boolean[] seen = new boolean[256];
    for (int t = 0; t < TIERS.length; t++) {
      for (int b : TIERS[t]) {
        if (seen[b] || free(b) == 0) {
          throw new AssertionError(b + "/8 listed twice or reserved");
        }
        seen[b] = true;
        w[b] = TIER_WEIGHTS[t];
      }
    }
    for (int b = 0; b < 256; b++) {
      if (!seen[b] && free(b) > 0) {
        throw new AssertionError(b + "/8 in no tier");
      }
    }
    return w;
  }

  private static long[] block(String address, int len) {
    long start =
        io.spindex.text.AddressText.parse(address, io.spindex.text.AddressText.PLAIN, new long[2]);
    return new long[] {start, start + (1L << (32 - len)) - 1};
  }

  private static int[] span(int from, int to) {
    int[] out = new int[to - from + 1];
    for (int i = 0; i < out.length; i++) {
      out[i] = from + i;
    }
    return out;
  }

  private static int[] concat(int[]... parts) {
    int n = 0;
    for (int[] p : parts) {
      n += p.length;
    }
    int[] out = new int[n];
    int at = 0;
    for (int[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
