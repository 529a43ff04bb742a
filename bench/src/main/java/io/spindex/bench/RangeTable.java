/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.index.IpRanges;

/**
 * The ranges of a Spindex range index as plain arrays (unsigned addresses as longs), the single
 * source from which the competitors' files are written: every library answers from the same data.
 */
final class RangeTable {
  final long[] starts;
  final long[] ends;
  final int[] labelIds;
  final String[] labels;

  private RangeTable(long[] starts, long[] ends, int[] labelIds, String[] labels) {
    this.starts = starts;
    this.ends = ends;
    this.labelIds = labelIds;
    this.labels = labels;
  }

  static RangeTable of(IpRanges r) {
    int n = 0;
    for (int i = 0; i < r.size(); i++) {
      n += r.labelIdOfRow(i) == IpRanges.NONE ? 0 : 1;
    }
    long[] s = new long[n];
    long[] e = new long[n];
    int[] ids = new int[n];
    // The ranges only: a tiled index's gap rows are none.
    for (int i = 0, j = 0; i < r.size(); i++) {
      if (r.labelIdOfRow(i) != IpRanges.NONE) {
        s[j] = r.start(i) & 0xFFFFFFFFL;
        e[j] = r.end(i) & 0xFFFFFFFFL;
        ids[j++] = r.labelIdOfRow(i);
      }
    }
    String[] labels = new String[r.labelCount()];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = r.labelText(i);
    }
    return new RangeTable(s, e, ids, labels);
  }

  /** A table of the rows given (starts ascending, no overlaps), labelled by index into labels. */
  static RangeTable of(long[] starts, long[] ends, int[] labelIds, String[] labels) {
    return new RangeTable(starts, ends, labelIds, labels);
  }

  int size() {
    return starts.length;
  }

  /** The row of the last range starting at or before {@code address}, or -1. */
  int floorRow(long address) {
    int lo = 0;
    int hi = starts.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (starts[mid] <= address) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo - 1;
  }
}
