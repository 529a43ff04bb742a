/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.text.InputException;
import io.spindex.text.Ipv4Text;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Turns source ranges (possibly unsorted, nested or partly overlapping) into sorted,
 * non-overlapping ranges. Without overlaps the rows are only sorted. With overlaps and a policy
 * other than {@link OverlapPolicy#FAIL}, a sweep over every range boundary keeps the active ranges
 * in a priority queue ordered by the policy; each elementary interval gets the winner's label, and
 * consecutive intervals won by the same source range become one range again.
 */
final class RangeFlattener {
  /** The flattened ranges: starts and ends stored flipped (see the format), label ids. */
  static final class Flat {
    int[] starts;
    int[] ends;
    int[] labels;
    int size;

    /** Source ranges that begin inside an earlier (in address order) range. */
    int overlapping;

    Flat(int capacity) {
      starts = new int[capacity];
      ends = new int[capacity];
      labels = new int[capacity];
    }

    void add(long start, long end, int label) {
      if (size == starts.length) {
        int n = Math.max(16, size * 2);
        starts = java.util.Arrays.copyOf(starts, n);
        ends = java.util.Arrays.copyOf(ends, n);
        labels = java.util.Arrays.copyOf(labels, n);
      }
      starts[size] = (int) start ^ 0x80000000;
      ends[size] = (int) end ^ 0x80000000;
      labels[size] = label;
      size++;
    }

    /** Ranges with a gap after them: the next starts past the end plus one, or none follows. */
    int gaps() {
      int g = 0;
      for (int i = 0; i < size; i++) {
        g += touchesNext(i) ? 0 : 1;
      }
      return g;
    }

    private boolean touchesNext(int i) {
      // Flipped keys: the end plus one is the next start; the last range touches the top only.
      return i + 1 < size ? starts[i + 1] == ends[i] + 1 : ends[i] == Integer.MAX_VALUE;
    }

    /**
     * The rows of these ranges (docs/FORMAT.md, "IPv4 ranges"): a row a range and a row a gap
     * ({@code gaps} of them, {@link #gaps}), the starts flipped and the gap rows' label id -1;
     * {@code [0]} the starts, {@code [1]} the label ids.
     */
    int[][] tiled(int gaps) {
      int n = Math.addExact(size, gaps);
      int[] s = new int[n];
      int[] l = new int[n];
      int r = 0;
      for (int i = 0; i < size; i++) {
        s[r] = starts[i];
        l[r++] = labels[i];
        if (!touchesNext(i)) {
          s[r] = ends[i] + 1;
          l[r++] = -1;
        }
      }
      return new int[][] {s, l};
    }
  }

  private RangeFlattener() {}

  /** How an overlap error names a source row. */
  interface RowText {
    String describe(int row, List<String> files);
  }

  /** Flattens IPv4 rows: keys are the addresses. */
  static Flat flatten(RangeRows rows, OverlapPolicy policy, List<String> files)
      throws InputException {
    Comparator<Integer> narrowest =
        Comparator.<Integer>comparingLong(r -> rows.end(r) - rows.start(r))
            .thenComparing(Comparator.naturalOrder());
    return flatten(rows, policy, files, narrowest, (r, f) -> describe(rows, r, f));
  }

  /**
   * Flattens rows whose keys are any ordered 32-bit values (addresses, or the boundary ranks of
   * {@link Ipv6RangeRows}); {@code narrowest} orders rows for {@link OverlapPolicy#NARROWEST}.
   */
  static Flat flatten(
      RangeRows rows,
      OverlapPolicy policy,
      List<String> files,
      Comparator<Integer> narrowest,
      RowText text)
      throws InputException {
    int[] order = rows.byStart();
    int overlapping = 0;
    long maxEnd = -1;
    int maxEndRow = -1;
    for (int r : order) {
      if (rows.start(r) <= maxEnd) {
        if (policy == OverlapPolicy.FAIL) {
          throw new InputException(
              "overlapping ranges: "
                  + text.describe(maxEndRow, files)
                  + " and "
                  + text.describe(r, files)
                  + "; choose --on-overlap narrowest, first or last to flatten them");
        }
        overlapping++;
      }
      if (rows.end(r) > maxEnd) {
        maxEnd = rows.end(r);
        maxEndRow = r;
      }
    }
    Flat flat = new Flat(Math.max(16, rows.size()));
    flat.overlapping = overlapping;
    if (overlapping == 0) {
      for (int r : order) {
        flat.add(rows.start(r), rows.end(r), rows.label(r));
      }
      return flat;
    }
    sweep(rows, order, comparator(policy, narrowest), flat);
    return flat;
  }

  private static void sweep(RangeRows rows, int[] order, Comparator<Integer> cmp, Flat flat) {
    long[] bounds = new long[2 * order.length];
    for (int i = 0; i < order.length; i++) {
      bounds[2 * i] = rows.start(order[i]);
      bounds[2 * i + 1] = rows.end(order[i]) + 1;
    }
    java.util.Arrays.sort(bounds);
    PriorityQueue<Integer> active = new PriorityQueue<>(cmp);
    int next = 0;
    int lastWinner = -1;
    long lastEnd = -2;
    for (int i = 0; i < bounds.length; i++) {
      long b = bounds[i];
      if ((i > 0 && bounds[i - 1] == b) || b > 0xFFFF_FFFFL) {
        continue;
      }
      while (next < order.length && rows.start(order[next]) <= b) {
        active.add(order[next++]);
      }
      while (!active.isEmpty() && rows.end(active.peek()) < b) {
        active.poll();
      }
      if (active.isEmpty()) {
        continue;
      }
      long to = nextBound(bounds, i) - 1;
      int winner = active.peek();
      if (winner == lastWinner && lastEnd + 1 == b) {
        flat.ends[flat.size - 1] = (int) to ^ 0x80000000;
      } else {
        flat.add(b, to, rows.label(winner));
      }
      lastWinner = winner;
      lastEnd = to;
    }
  }

  private static long nextBound(long[] bounds, int i) {
    for (int j = i + 1; j < bounds.length; j++) {
      if (bounds[j] != bounds[i]) {
        return bounds[j];
      }
    }
    return 1L << 32;
  }

  private static Comparator<Integer> comparator(
      OverlapPolicy policy, Comparator<Integer> narrowest) {
    switch (policy) {
      case FIRST:
        return Comparator.naturalOrder();
      case LAST:
        return Comparator.reverseOrder();
      case NARROWEST:
        return narrowest;
      default:
        throw new IllegalArgumentException("no sweep for policy " + policy);
    }
  }

  private static String describe(RangeRows rows, int r, List<String> files) {
    return files.get(rows.file(r))
        + ":"
        + rows.line(r)
        + " ("
        + Ipv4Text.format((int) rows.start(r))
        + "-"
        + Ipv4Text.format((int) rows.end(r))
        + ")";
  }
}
