/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.util.Arrays;

/**
 * A baseline of the class of PlanB's search (a linearized, static B+-tree over the elementary
 * intervals' starts), written for the benchmark in Java: an S+-tree over the IPv4 rows' starts,
 * {@value #B} keys (one 64-byte cache line) a node, every level in one array, the rows' starts the
 * leaves. A node is searched by counting its keys at most the key without a branch (a subtraction
 * in 64 bits, its sign bit), as PlanB's SIMD compare does 16 keys at once; the batch walks {@value
 * #GROUP} keys a level at a time so that their reads of a level are in flight together; built with
 * {@code vector}, it counts a node in one 512-bit compare of the Vector API instead ({@link
 * VectorCount}), as PlanB does. No /16 table on top: the tree alone, as the anchor's class has it.
 * Thread-safe: immutable.
 */
final class StaticTree4 {
  /** Keys a node. */
  static final int B = 16;

  /** Keys walked together by {@link #labelIds}. */
  static final int GROUP = 16;

  /** {@code levels[0]}: the starts (flipped), padded; {@code levels[l]}: every 16th key below. */
  private final int[][] levels;

  /** Keys of each level before its padding. */
  private final int[] sizes;

  private final int[] labelIds;
  private final int rows;
  private final boolean vector;

  /**
   * Over {@code rows > 0} flipped starts in ascending order and the rows' label ids (-1 a gap), its
   * nodes counted by the Vector API when {@code vector} (see {@link #VECTOR_API}).
   */
  StaticTree4(int[] flippedStarts, int[] labelIds, int rows, boolean vector) {
    if (rows <= 0) {
      throw new IllegalArgumentException("no rows");
    }
    if (vector) {
      requireVectorApi();
    }
    this.vector = vector;
    this.rows = rows;
    this.labelIds = labelIds;
    int depth = 1;
    for (long n = rows; n > B; n = (n + B - 1) / B) {
      depth++;
    }
    levels = new int[depth][];
    sizes = new int[depth];
    levels[0] = pad(flippedStarts, rows);
    sizes[0] = rows;
    for (int l = 1; l < depth; l++) {
      int n = (sizes[l - 1] + B - 1) / B;
      int[] keys = new int[n];
      for (int j = 0; j < n; j++) {
        keys[j] = levels[l - 1][j * B];
      }
      levels[l] = pad(keys, n);
      sizes[l] = n;
    }
  }

  /** The first {@code n} keys, then {@link Integer#MAX_VALUE} up to a whole node and one more. */
  private static int[] pad(int[] keys, int n) {
    int[] out = Arrays.copyOf(keys, (n + B - 1) / B * B + B);
    Arrays.fill(out, n, out.length, Integer.MAX_VALUE);
    return out;
  }

  /** Bytes of the inner levels: what the tree adds to the rows. */
  long innerBytes() {
    long b = 0;
    for (int l = 1; l < levels.length; l++) {
      b += 4L * levels[l].length;
    }
    return b;
  }

  /** Whether this JVM runs with the Vector API's (incubating) module. */
  static final boolean VECTOR_API =
      ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

  /** Fails unless {@link #VECTOR_API}: what a tree counted by the Vector API needs. */
  static void requireVectorApi() {
    if (!VECTOR_API) {
      throw new IllegalStateException("the Vector API needs --add-modules jdk.incubator.vector");
    }
  }

  /** How many of the {@value #B} keys from {@code at} are at most {@code key}, branch-free. */
  private int count(int[] keys, int at, int key) {
    if (vector) {
      return VectorCount.count16(keys, at, key);
    }
    long k = key;
    int c = 0;
    for (int i = 0; i < B; i++) {
      c += (int) ((k - keys[at + i]) >>> 63) ^ 1;
    }
    return c;
  }

  /** The key below {@code at} of level {@code l} to descend to for {@code key}: a node index. */
  private int child(int l, int at, int key) {
    int from = at * B;
    return Math.min(from + Math.max(count(levels[l], from, key) - 1, 0), sizes[l] - 1);
  }

  /** The last row whose start is at most the (unflipped) address, or -1. */
  int floor(int address) {
    int key = address ^ Integer.MIN_VALUE;
    int at = 0;
    for (int l = levels.length - 1; l >= 1; l--) {
      at = child(l, at, key);
    }
    int from = at * B;
    return Math.min(from + count(levels[0], from, key) - 1, rows - 1);
  }

  /** The label id of the range that holds the address, or -1. */
  int labelId(int address) {
    int row = floor(address);
    return row < 0 ? -1 : labelIds[row];
  }

  /**
   * {@code out[i] = labelId(addresses[i])} for {@code i < count}, {@value #GROUP} at a time, level
   * by level; returns how many fell in a range.
   */
  int labelIds(int[] addresses, int count, int[] out) {
    int[] at = new int[GROUP];
    int[] key = new int[GROUP];
    int hits = 0;
    for (int g = 0; g < count; g += GROUP) {
      int m = Math.min(GROUP, count - g);
      for (int j = 0; j < m; j++) {
        key[j] = addresses[g + j] ^ Integer.MIN_VALUE;
        at[j] = 0;
      }
      for (int l = levels.length - 1; l >= 1; l--) {
        for (int j = 0; j < m; j++) {
          at[j] = child(l, at[j], key[j]);
        }
      }
      for (int j = 0; j < m; j++) {
        int from = at[j] * B;
        int row = Math.min(from + count(levels[0], from, key[j]) - 1, rows - 1);
        int id = row < 0 ? -1 : labelIds[row];
        out[g + j] = id;
        hits += id < 0 ? 0 : 1;
      }
    }
    return hits;
  }
}
