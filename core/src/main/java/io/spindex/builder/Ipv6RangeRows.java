/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.text.InputException;
import io.spindex.text.Ipv6Text;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Accepted IPv6 source ranges in input order, labelled with ids of the IPv4 rows' dictionary (one
 * dictionary for both families), and their flattening.
 *
 * <p>The flattening reuses {@link RangeFlattener} in <em>rank space</em>: the distinct range
 * boundaries (each start, and each end + 1) are sorted as unsigned 128-bit values and numbered, a
 * range becomes the interval of boundary ranks it covers, the 32-bit flattener resolves overlaps by
 * the same policy as for IPv4 (narrowest by the real 128-bit width), and the flat rank intervals
 * are mapped back to addresses. Ranks preserve order and adjacency, so the result is the one a
 * 128-bit sweep would give.
 */
final class Ipv6RangeRows implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private int size;
  private long[] startHi = new long[256];
  private long[] startLo = new long[256];
  private long[] endHi = new long[256];
  private long[] endLo = new long[256];
  private int[] labels = new int[256];
  private int[] files = new int[256];
  private long[] lines = new long[256];

  /** Flattened IPv6 ranges: halves stored flipped (as in the format) and label ids. */
  static final class Flat {
    long[] startHi;
    long[] startLo;
    long[] endHi;
    long[] endLo;
    int[] labels;
    int size;
    int overlapping;

    /** Ranges with a gap after them: the next starts past the end plus one, or none follows. */
    int gaps() {
      int g = 0;
      for (int i = 0; i < size; i++) {
        g += touchesNext(i) ? 0 : 1;
      }
      return g;
    }

    /**
     * Flipped keys: the end plus one (128 bits: a low half that wraps to 0, flipped {@code
     * Long.MIN_VALUE}, carries) is the next start; the last range touches the top only.
     */
    private boolean touchesNext(int i) {
      if (i + 1 == size) {
        return endHi[i] == Long.MAX_VALUE && endLo[i] == Long.MAX_VALUE;
      }
      long lo = endLo[i] + 1;
      long hi = lo == Long.MIN_VALUE ? endHi[i] + 1 : endHi[i];
      return startHi[i + 1] == hi && startLo[i + 1] == lo;
    }

    /**
     * These ranges as rows (docs/FORMAT.md, "IPv6 ranges"): a row a range and a row a gap ({@code
     * gaps} of them), the gap rows' label id -1; {@code [0]} the starts' high halves, {@code [1]}
     * their low halves (flipped), with the label ids in {@code labelsOut}.
     */
    long[][] tiled(int gaps, int[] labelsOut) {
      int n = Math.addExact(size, gaps);
      long[] hi = new long[n];
      long[] lo = new long[n];
      int r = 0;
      for (int i = 0; i < size; i++) {
        hi[r] = startHi[i];
        lo[r] = startLo[i];
        labelsOut[r++] = labels[i];
        if (!touchesNext(i)) {
          long l = endLo[i] + 1;
          hi[r] = l == Long.MIN_VALUE ? endHi[i] + 1 : endHi[i];
          lo[r] = l;
          labelsOut[r++] = -1;
        }
      }
      return new long[][] {hi, lo};
    }
  }

  void add(long sHi, long sLo, long eHi, long eLo, int label, int file, long line) {
    if (size == startHi.length) {
      int n = Math.max(16, size * 2);
      startHi = Arrays.copyOf(startHi, n);
      startLo = Arrays.copyOf(startLo, n);
      endHi = Arrays.copyOf(endHi, n);
      endLo = Arrays.copyOf(endLo, n);
      labels = Arrays.copyOf(labels, n);
      files = Arrays.copyOf(files, n);
      lines = Arrays.copyOf(lines, n);
    }
    startHi[size] = sHi;
    startLo[size] = sLo;
    endHi[size] = eHi;
    endLo[size] = eLo;
    labels[size] = label;
    files[size] = file;
    lines[size] = line;
    size++;
  }

  /**
   * Appends the rows of {@code part} (another reader's, later in the input), in order, their labels
   * mapped through {@code ids} (from {@link RangeRows#addAll} of the same part).
   */
  void addAll(Ipv6RangeRows part, int[] ids) {
    for (int r = 0; r < part.size; r++) {
      add(
          part.startHi[r],
          part.startLo[r],
          part.endHi[r],
          part.endLo[r],
          ids[part.labels[r]],
          part.files[r],
          part.lines[r]);
    }
  }

  /** Shrinks the arrays to what they hold, before the rows are shipped. */
  Ipv6RangeRows trim() {
    startHi = Arrays.copyOf(startHi, size);
    startLo = Arrays.copyOf(startLo, size);
    endHi = Arrays.copyOf(endHi, size);
    endLo = Arrays.copyOf(endLo, size);
    labels = Arrays.copyOf(labels, size);
    files = Arrays.copyOf(files, size);
    lines = Arrays.copyOf(lines, size);
    return this;
  }

  int size() {
    return size;
  }

  Flat flatten(OverlapPolicy policy, List<String> inputs) throws InputException {
    // Boundaries: every start, and every end + 1 below 2^128 (an end of all ones has none).
    long[] bHi = new long[2 * size];
    long[] bLo = new long[2 * size];
    int n = 0;
    for (int r = 0; r < size; r++) {
      bHi[n] = startHi[r];
      bLo[n++] = startLo[r];
      if ((endHi[r] & endLo[r]) != -1L) {
        long lo = endLo[r] + 1;
        bHi[n] = lo == 0 ? endHi[r] + 1 : endHi[r];
        bLo[n++] = lo;
      }
    }
    long[] uHi = bHi;
    long[] uLo = bLo;
    int u = Sort128.sortUnique(uHi, uLo, n);
    if (u > Integer.MAX_VALUE - 2) {
      throw new IllegalStateException("too many IPv6 range boundaries: " + u);
    }
    RangeRows ranks = new RangeRows();
    for (int r = 0; r < size; r++) {
      int s = rank(uHi, uLo, u, startHi[r], startLo[r]);
      int e =
          (endHi[r] & endLo[r]) == -1L
              ? u - 1
              : rank(uHi, uLo, u, endLo[r] == -1L ? endHi[r] + 1 : endHi[r], endLo[r] + 1) - 1;
      ranks.addLabelled(s, e, labels[r], files[r], lines[r]);
    }
    Comparator<Integer> narrowest =
        (x, y) -> {
          // Widths as unsigned 128-bit differences end - start.
          long wxLo = endLo[x] - startLo[x];
          long wxHi =
              endHi[x] - startHi[x] - (Long.compareUnsigned(endLo[x], startLo[x]) < 0 ? 1 : 0);
          long wyLo = endLo[y] - startLo[y];
          long wyHi =
              endHi[y] - startHi[y] - (Long.compareUnsigned(endLo[y], startLo[y]) < 0 ? 1 : 0);
          int c = Long.compareUnsigned(wxHi, wyHi);
          c = c != 0 ? c : Long.compareUnsigned(wxLo, wyLo);
          return c != 0 ? c : Integer.compare(x, y);
        };
    RangeFlattener.Flat flat =
        RangeFlattener.flatten(ranks, policy, inputs, narrowest, this::describe);
    Flat out = new Flat();
    out.size = flat.size;
    out.overlapping = flat.overlapping;
    out.startHi = new long[flat.size];
    out.startLo = new long[flat.size];
    out.endHi = new long[flat.size];
    out.endLo = new long[flat.size];
    out.labels = Arrays.copyOf(flat.labels, flat.size);
    for (int i = 0; i < flat.size; i++) {
      int s = flat.starts[i] ^ 0x80000000;
      int e = flat.ends[i] ^ 0x80000000;
      out.startHi[i] = uHi[s] ^ Long.MIN_VALUE;
      out.startLo[i] = uLo[s] ^ Long.MIN_VALUE;
      long eHi = -1L;
      long eLo = -1L;
      if (e + 1 < u) {
        // The last address before the next boundary: boundary - 1 in 128 bits.
        eLo = uLo[e + 1] - 1;
        eHi = uLo[e + 1] == 0 ? uHi[e + 1] - 1 : uHi[e + 1];
      }
      out.endHi[i] = eHi ^ Long.MIN_VALUE;
      out.endLo[i] = eLo ^ Long.MIN_VALUE;
    }
    return out;
  }

  private static int rank(long[] hi, long[] lo, int n, long kh, long kl) {
    int from = 0;
    int to = n - 1;
    while (from <= to) {
      int mid = (from + to) >>> 1;
      int c = Long.compareUnsigned(hi[mid], kh);
      c = c != 0 ? c : Long.compareUnsigned(lo[mid], kl);
      if (c < 0) {
        from = mid + 1;
      } else if (c > 0) {
        to = mid - 1;
      } else {
        return mid;
      }
    }
    throw new IllegalStateException("not a boundary");
  }

  /** {@code file:line (start-end)} of source row {@code r}, for overlap errors. */
  private String describe(int r, List<String> files) {
    return files.get(this.files[r])
        + ":"
        + lines[r]
        + " ("
        + Ipv6Text.format(startHi[r], startLo[r])
        + "-"
        + Ipv6Text.format(endHi[r], endLo[r])
        + ")";
  }
}
