/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes an IPv4 MaxMind DB ({@code .mmdb}, format 2.0) holding the same ranges as a Spindex range
 * index, for MaxMind's own reader to open. No MMDB writer library is published on Maven Central
 * (MaxMind's writers are Go and Perl), so this follows the public format spec: a binary search tree
 * with 32-bit records, a 16-byte separator, a data section with one map {@code {"label": text}} per
 * distinct label, and the metadata map after the {@code \xAB\xCD\xEFMaxMind.com} marker. The tree
 * is minimal: a node splits a block only when the block is not inside one range or one gap.
 */
final class MmdbWriter {
  private static final int MAP = 7;
  private static final int STRING = 2;
  private static final int UINT16 = 5;
  private static final int UINT32 = 6;
  private static final int UINT64 = 9;
  private static final int ARRAY = 11;
  private static final int EMPTY = -1;

  private final RangeTable t;
  private int[] left = new int[1 << 16];
  private int[] right = new int[1 << 16];
  private int nodes;

  private MmdbWriter(RangeTable t) {
    this.t = t;
  }

  static void write(RangeTable t, Path out) throws IOException {
    new MmdbWriter(t).writeTo(out);
  }

  private void writeTo(Path out) throws IOException {
    int root = node(0, 0);
    if (root < 0) {
      throw new IllegalStateException("the whole space is one range: no tree to write");
    }
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    int[] offsets = new int[t.labels.length];
    for (int i = 0; i < t.labels.length; i++) {
      offsets[i] = data.size();
      control(data, MAP, 1);
      string(data, "label");
      string(data, t.labels[i]);
    }
    try (OutputStream o = Files.newOutputStream(out)) {
      byte[] rec = new byte[8];
      for (int n = 0; n < nodes; n++) {
        putInt(rec, 0, record(left[n], offsets));
        putInt(rec, 4, record(right[n], offsets));
        o.write(rec);
      }
      o.write(new byte[16]);
      data.writeTo(o);
      o.write(new byte[] {(byte) 0xAB, (byte) 0xCD, (byte) 0xEF});
      o.write("MaxMind.com".getBytes(StandardCharsets.US_ASCII));
      o.write(metadata());
    }
  }

  /** Record value: a node number, {@code nodes} (no data) or a data pointer past the tree. */
  private int record(int v, int[] offsets) {
    if (v >= 0) {
      return v;
    }
    if (v == EMPTY) {
      return nodes;
    }
    return nodes + 16 + offsets[-v - 2];
  }

  /**
   * The record for the block of {@code 2^(32-depth)} addresses at {@code start}: a data value when
   * one range covers it, {@link #EMPTY} when no range touches it, otherwise a new node.
   */
  private int node(long start, int depth) {
    long end = start + (1L << (32 - depth)) - 1;
    int r = t.floorRow(start);
    if (r >= 0 && t.ends[r] >= end) {
      return -2 - t.labelIds[r];
    }
    boolean startInGap = r < 0 || t.ends[r] < start;
    if (startInGap && (r + 1 >= t.size() || t.starts[r + 1] > end)) {
      return EMPTY;
    }
    int n = nodes++;
    if (n == left.length) {
      left = Arrays.copyOf(left, n * 2);
      right = Arrays.copyOf(right, n * 2);
    }
    long half = 1L << (31 - depth);
    int l = node(start, depth + 1);
    int h = node(start + half, depth + 1);
    left[n] = l;
    right[n] = h;
    return n;
  }

  private byte[] metadata() throws IOException {
    ByteArrayOutputStream m = new ByteArrayOutputStream();
    control(m, MAP, 9);
    string(m, "binary_format_major_version");
    uint(m, UINT16, 2);
    string(m, "binary_format_minor_version");
    uint(m, UINT16, 0);
    string(m, "build_epoch");
    uint(m, UINT64, 0);
    string(m, "database_type");
    string(m, "Spindex-Bench-Ranges");
    string(m, "description");
    control(m, MAP, 0);
    string(m, "ip_version");
    uint(m, UINT16, 4);
    string(m, "languages");
    control(m, ARRAY, 0);
    string(m, "node_count");
    uint(m, UINT32, nodes);
    string(m, "record_size");
    uint(m, UINT16, 32);
    return m.toByteArray();
  }

  /** A control byte (and extended type byte and size bytes) as the spec lays them out. */
  private static void control(ByteArrayOutputStream o, int type, int size) {
    int first = type <= 7 ? type << 5 : 0;
    int sizeBits;
    byte[] extra;
    if (size < 29) {
      sizeBits = size;
      extra = new byte[0];
    } else if (size < 29 + 256) {
      sizeBits = 29;
      extra = new byte[] {(byte) (size - 29)};
    } else if (size < 285 + 65536) {
      sizeBits = 30;
      int s = size - 285;
      extra = new byte[] {(byte) (s >>> 8), (byte) s};
    } else {
      sizeBits = 31;
      int s = size - 65821;
      extra = new byte[] {(byte) (s >>> 16), (byte) (s >>> 8), (byte) s};
    }
    o.write(first | sizeBits);
    if (type > 7) {
      o.write(type - 7);
    }
    o.write(extra, 0, extra.length);
  }

  private static void string(ByteArrayOutputStream o, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    control(o, STRING, b.length);
    o.write(b, 0, b.length);
  }

  /** An unsigned integer in as few big-endian bytes as it needs (zero takes none). */
  private static void uint(ByteArrayOutputStream o, int type, long v) {
    int bytes = (64 - Long.numberOfLeadingZeros(v) + 7) / 8;
    control(o, type, bytes);
    for (int i = bytes - 1; i >= 0; i--) {
      o.write((int) (v >>> (8 * i)));
    }
  }

  private static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }
}
