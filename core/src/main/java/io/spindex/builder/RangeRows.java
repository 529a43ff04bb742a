/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Accepted source ranges in input order (row = input order), with their labels interned: each
 * distinct label's bytes are stored once. Serializable, so that a distributed build can ship one
 * split's rows ({@link RangePart}) to be appended to the whole input's by {@link #addAll}. Not
 * thread-safe.
 */
final class RangeRows implements Serializable {
  private static final long serialVersionUID = 1L;

  private int size;
  private int[] starts = new int[1024];
  private int[] ends = new int[1024];
  private int[] labels = new int[1024];
  private int[] files = new int[1024];
  private long[] lines = new long[1024];

  private transient Map<ByteBuffer, Integer> labelIds = new HashMap<>();
  private int[] labelOffsets = new int[] {0, 0, 0, 0};
  private byte[] labelBytes = new byte[4096];
  private int labelCount;

  void add(long start, long end, byte[] b, int labelFrom, int labelTo, int file, long line) {
    addLabelled(start, end, intern(b, labelFrom, labelTo), file, line);
  }

  /** A row whose label is already interned (an id of this or of another dictionary). */
  void addLabelled(long start, long end, int label, int file, long line) {
    if (size == starts.length) {
      int n = Math.max(16, size * 2);
      starts = Arrays.copyOf(starts, n);
      ends = Arrays.copyOf(ends, n);
      labels = Arrays.copyOf(labels, n);
      files = Arrays.copyOf(files, n);
      lines = Arrays.copyOf(lines, n);
    }
    starts[size] = (int) start;
    ends[size] = (int) end;
    labels[size] = label;
    files[size] = file;
    lines[size] = line;
    size++;
  }

  /**
   * Appends the rows of {@code part} (another reader's, later in the input), in order, with their
   * labels interned here in the order of {@code part}'s dictionary. Interning a part's labels in
   * their first-seen order before its rows gives each label the id it would have had if this
   * dictionary had read the part's lines itself, so the merged rows equal one reader's.
   *
   * @return the ids here of {@code part}'s labels, for its IPv6 rows ({@link Ipv6RangeRows#addAll})
   */
  int[] addAll(RangeRows part) {
    int[] ids = new int[part.labelCount];
    for (int l = 0; l < part.labelCount; l++) {
      ids[l] = intern(part.labelBytes, part.labelOffsets[l], part.labelOffsets[l + 1]);
    }
    for (int r = 0; r < part.size; r++) {
      addLabelled(part.start(r), part.end(r), ids[part.labels[r]], part.files[r], part.lines[r]);
    }
    return ids;
  }

  /** Shrinks the arrays to what they hold, before the rows are shipped. */
  RangeRows trim() {
    starts = Arrays.copyOf(starts, size);
    ends = Arrays.copyOf(ends, size);
    labels = Arrays.copyOf(labels, size);
    files = Arrays.copyOf(files, size);
    lines = Arrays.copyOf(lines, size);
    labelOffsets = Arrays.copyOf(labelOffsets, labelCount + 1);
    labelBytes = Arrays.copyOf(labelBytes, labelOffsets[labelCount]);
    return this;
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    labelIds = new HashMap<>();
    for (int l = 0; l < labelCount; l++) {
      int from = labelOffsets[l];
      labelIds.put(ByteBuffer.wrap(labelBytes, from, labelOffsets[l + 1] - from).slice(), l);
    }
  }

  /** Interns a label without adding a row; returns its id. */
  int internLabel(byte[] b, int from, int to) {
    return intern(b, from, to);
  }

  private int intern(byte[] b, int from, int to) {
    Integer id = labelIds.get(ByteBuffer.wrap(b, from, to - from));
    if (id != null) {
      return id;
    }
    int len = to - from;
    int at = labelOffsets[labelCount];
    if (at + len > labelBytes.length) {
      long n = Math.max((long) labelBytes.length * 2, (long) at + len);
      if (n > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("label dictionary over 2 GiB");
      }
      labelBytes = Arrays.copyOf(labelBytes, (int) n);
    }
    System.arraycopy(b, from, labelBytes, at, len);
    if (labelCount + 2 > labelOffsets.length) {
      labelOffsets = Arrays.copyOf(labelOffsets, labelOffsets.length * 2);
    }
    labelOffsets[labelCount + 1] = at + len;
    labelIds.put(ByteBuffer.wrap(labelBytes, at, len).slice(), labelCount);
    return labelCount++;
  }

  int size() {
    return size;
  }

  /** First address of row {@code r}, unsigned. */
  long start(int r) {
    return Integer.toUnsignedLong(starts[r]);
  }

  /** Last address of row {@code r}, unsigned. */
  long end(int r) {
    return Integer.toUnsignedLong(ends[r]);
  }

  int label(int r) {
    return labels[r];
  }

  int file(int r) {
    return files[r];
  }

  long line(int r) {
    return lines[r];
  }

  int labelCount() {
    return labelCount;
  }

  int[] labelOffsets() {
    return Arrays.copyOf(labelOffsets, labelCount + 1);
  }

  byte[] labelBytes() {
    return labelBytes;
  }

  int labelBytesLength() {
    return labelOffsets[labelCount];
  }

  /** Row ids sorted by start address, then by input order. */
  int[] byStart() {
    long[] keys = new long[size];
    for (int r = 0; r < size; r++) {
      keys[r] = (start(r) << 31) | r;
    }
    Arrays.sort(keys);
    int[] order = new int[size];
    for (int i = 0; i < size; i++) {
      order[i] = (int) (keys[i] & 0x7FFF_FFFFL);
    }
    return order;
  }
}
