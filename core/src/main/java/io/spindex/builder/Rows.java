/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import java.util.Arrays;
import java.util.List;

/**
 * The accepted rows of all pieces as one sequence in input order: global row {@code g} is row
 * {@code g - start[k]} of sink {@code k}. Also knows each row's {@code file:line}.
 */
final class Rows {
  private final List<ProductSink> sinks;
  private final int[] start;
  private final long[] lineOffset;

  Rows(List<ProductSink> sinks, int total) {
    this.sinks = sinks;
    this.start = new int[sinks.size() + 1];
    this.lineOffset = new long[sinks.size()];
    long offset = 0;
    for (int k = 0; k < sinks.size(); k++) {
      start[k + 1] = start[k] + sinks.get(k).rows;
      if (k > 0 && sinks.get(k - 1).piece.fileIndex != sinks.get(k).piece.fileIndex) {
        offset = 0;
      }
      lineOffset[k] = offset;
      offset += sinks.get(k).piece.lines;
    }
  }

  private int sink(int g) {
    int k = Arrays.binarySearch(start, g);
    if (k >= 0) {
      // Skip empty sinks that start at the same row.
      while (start[k + 1] == g) {
        k++;
      }
      return k;
    }
    return -k - 2;
  }

  int idLength(int g) {
    int k = sink(g);
    int i = g - start[k];
    ProductSink s = sinks.get(k);
    return s.idEnds[i] - (i == 0 ? 0 : s.idEnds[i - 1]);
  }

  byte[] id(int g) {
    byte[] out = new byte[idLength(g)];
    copyId(g, out, 0);
    return out;
  }

  int copyId(int g, byte[] dst, int at) {
    int k = sink(g);
    int i = g - start[k];
    ProductSink s = sinks.get(k);
    int from = i == 0 ? 0 : s.idEnds[i - 1];
    int n = s.idEnds[i] - from;
    System.arraycopy(s.ids.array(), from, dst, at, n);
    return at + n;
  }

  void copyInts(int g, int[] dst, int at, int stride) {
    int k = sink(g);
    System.arraycopy(sinks.get(k).ints, (g - start[k]) * stride, dst, at, stride);
  }

  /** {@code file:line} of global row {@code g}. */
  String position(int g, List<String> inputs) {
    int k = sink(g);
    ProductSink s = sinks.get(k);
    return inputs.get(s.piece.fileIndex) + ":" + (lineOffset[k] + s.lineIndex[g - start[k]] + 1);
  }

  void rejectDuplicate(int g, Rejects rejects, List<String> inputs, String firstAt) {
    byte[] id = id(g);
    int k = sink(g);
    ProductSink s = sinks.get(k);
    rejects.add(
        "duplicate-id",
        inputs.get(s.piece.fileIndex),
        lineOffset[k] + s.lineIndex[g - start[k]] + 1,
        id,
        0,
        id.length);
  }
}
