/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.index.IpRanges;
import io.spindex.text.Ipv6Text;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The IPv6 ranges of a Spindex range index as plain arrays (each address as its high and low 64
 * bits, compared unsigned), the single source from which the competitors' IPv6 files are written:
 * every library answers from the same data. The IPv6 counterpart of {@link RangeTable}.
 */
final class Range6Table {
  final long[] startHi;
  final long[] startLo;
  final long[] endHi;
  final long[] endLo;
  final int[] labelIds;
  final String[] labels;

  private Range6Table(
      long[] startHi, long[] startLo, long[] endHi, long[] endLo, int[] labelIds, String[] labels) {
    this.startHi = startHi;
    this.startLo = startLo;
    this.endHi = endHi;
    this.endLo = endLo;
    this.labelIds = labelIds;
    this.labels = labels;
  }

  static Range6Table of(IpRanges r) {
    int n = r.ipv6RangeCount();
    long[] sh = new long[n];
    long[] sl = new long[n];
    long[] eh = new long[n];
    long[] el = new long[n];
    int[] ids = new int[n];
    // The ranges only: the gap rows of tiled IPv6 ranges are none.
    for (int i = 0, j = 0; i < r.ipv6Size(); i++) {
      if (r.ipv6LabelIdOfRow(i) == IpRanges.NONE) {
        continue;
      }
      sh[j] = r.ipv6StartHi(i);
      sl[j] = r.ipv6StartLo(i);
      eh[j] = r.ipv6EndHi(i);
      el[j] = r.ipv6EndLo(i);
      ids[j++] = r.ipv6LabelIdOfRow(i);
    }
    String[] labels = new String[r.labelCount()];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = r.labelText(i);
    }
    return new Range6Table(sh, sl, eh, el, ids, labels);
  }

  int size() {
    return startHi.length;
  }

  /** Writes the ranges as text, {@code start|end|label} a line, that a range build reads back. */
  void writeText(Path out) throws IOException {
    try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      for (int i = 0; i < size(); i++) {
        w.write(Ipv6Text.format(startHi[i], startLo[i]));
        w.write('|');
        w.write(Ipv6Text.format(endHi[i], endLo[i]));
        w.write('|');
        w.write(labels[labelIds[i]]);
        w.write('\n');
      }
    }
  }

  /** Unsigned 128-bit comparison of {@code (aHi, aLo)} with {@code (bHi, bLo)}. */
  static int compare(long aHi, long aLo, long bHi, long bLo) {
    int c = Long.compareUnsigned(aHi, bHi);
    return c != 0 ? c : Long.compareUnsigned(aLo, bLo);
  }

  /** The row of the last range starting at or before the address, or -1. */
  int floorRow(long hi, long lo) {
    int a = 0;
    int b = startHi.length;
    while (a < b) {
      int mid = (a + b) >>> 1;
      if (compare(startHi[mid], startLo[mid], hi, lo) <= 0) {
        a = mid + 1;
      } else {
        b = mid;
      }
    }
    return a - 1;
  }

  /** Whether range {@code row} ends at or after the address. */
  boolean endsAtOrAfter(int row, long hi, long lo) {
    return compare(endHi[row], endLo[row], hi, lo) >= 0;
  }

  /** The label of the range that holds the address, or {@code null}: the reference answer. */
  String label(long hi, long lo) {
    int r = floorRow(hi, lo);
    return r >= 0 && endsAtOrAfter(r, hi, lo) ? labels[labelIds[r]] : null;
  }
}
