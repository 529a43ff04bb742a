/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import java.util.Arrays;

/**
 * The /16 prefix table and the {@link Prefix6} tables of a heap index's IPv6 rows in two heap
 * arrays, so that a walk reads one element a level where the section's layout costs up to three (a
 * table's header, its bucket, and the next bucket, or the first row of its table, for where the
 * bucket's rows end). Each element is either a leaf, the rows to search {@code from << 32 | to}
 * (non-negative), or a table: the sign bit, the table's shift in bits 57 … 62, its stride in bits
 * 52 … 56 and the offset of its buckets in {@code nodes} in the low 32 bits. A walk gives exactly
 * the candidates of {@link Keys128#candidates}, so every search of them finds the same row. Memory:
 * 8 bytes a /16 block and 8 a bucket. Thread-safe: immutable.
 */
final class Walk6 {
  /** The element of each /16 block. */
  final long[] map;

  /** The buckets of the tables, a table's {@code 2^stride} in a run. */
  final long[] nodes;

  private Walk6(long[] map, long[] nodes) {
    this.map = map;
    this.nodes = nodes;
  }

  /**
   * The walk of keys with a prefix table and optional prefix6 tables, which the loader checked:
   * each table after its parent, its shift and stride within its parent's bits, every row number
   * within the rows.
   */
  static Walk6 of(Keys128 keys) {
    IntColumn prefix = keys.prefixTable();
    Prefix6 tables = keys.tables();
    long[] map = new long[Prefix6.MAP_INTS];
    Nodes nodes = new Nodes(tables);
    for (int p = 0; p < Prefix6.MAP_INTS; p++) {
      int root = tables == null ? 0 : tables.root(p);
      map[p] = root == 0 ? leaf(prefix.get(p), prefix.get(p + 1)) : nodes.table(root);
    }
    return new Walk6(map, Arrays.copyOf(nodes.out, nodes.size));
  }

  private static long leaf(int from, int to) {
    return (long) from << 32 | (to & 0xFFFF_FFFFL);
  }

  /** The shift of a table element (negative). */
  static int shift(long table) {
    return (int) (table >>> 57) & 63;
  }

  /** The bucket of the (unflipped) high half {@code keyHi} in a table element (negative). */
  static int bucket(long table, long keyHi) {
    return (int) table
        + ((int) (keyHi >>> shift(table)) & ((1 << ((int) (table >>> 52) & 31)) - 1));
  }

  /** {@link Keys128#candidates} for the (unflipped) high half of a key: a leaf. */
  long candidates(long keyHi) {
    long e = map[(int) (keyHi >>> 48)];
    while (e < 0) {
      e = nodes[bucket(e, keyHi)];
    }
    return e;
  }

  /**
   * The leaves of {@code n} keys' (unflipped) high halves from {@code hi[from]} and the shifts of
   * their buckets (48 for a /16 block), walked a level at a time so that the reads of a level are
   * in flight together.
   */
  void leaves(long[] hi, int from, int n, long[] leaves, int[] shifts) {
    boolean deeper = false;
    for (int j = 0; j < n; j++) {
      long e = map[(int) (hi[from + j] >>> 48)];
      leaves[j] = e;
      shifts[j] = 48;
      deeper |= e < 0;
    }
    while (deeper) {
      deeper = false;
      for (int j = 0; j < n; j++) {
        long e = leaves[j];
        if (e < 0) {
          shifts[j] = shift(e);
          e = nodes[bucket(e, hi[from + j])];
          leaves[j] = e;
          deeper |= e < 0;
        }
      }
    }
  }

  long bytes() {
    return 8L * map.length + 8L * nodes.length;
  }

  /** What {@link #leaves} hands each leaf. */
  interface Leaves {
    /**
     * Rows {@code [from, to)} are searched for the keys whose high halves, shifted right by {@code
     * shift}, equal {@code bits}. Returns whether to go on.
     */
    boolean leaf(int from, int to, int shift, long bits);
  }

  /**
   * Hands every leaf of the keys' prefix table and prefix6 tables (those a walk of them ends in) to
   * {@code visit}, with the bits above its shift that every key walked to it has, reading the
   * section itself: nothing is laid out. Returns false, having stopped, when {@code visit} does, or
   * when a table does not take the bits right below its parent's (a file {@code spindex verify}
   * refuses): then the keys of a bucket do not all share the bits above its shift.
   */
  static boolean leaves(Keys128 keys, Leaves visit) {
    IntColumn prefix = keys.prefixTable();
    Prefix6 tables = keys.tables();
    for (int p = 0; p < Prefix6.MAP_INTS; p++) {
      int root = tables == null ? 0 : tables.root(p);
      boolean more =
          root == 0
              ? visit.leaf(prefix.get(p), prefix.get(p + 1), 48, p)
              : leaves(tables, root, 48, p, visit);
      if (!more) {
        return false;
      }
    }
    return true;
  }

  private static boolean leaves(Prefix6 tables, int o, int shift, long bits, Leaves visit) {
    int head = tables.element(o);
    int stride = head & 0xFF;
    int s = head >>> 8;
    if (s + stride != shift) {
      return false;
    }
    for (int q = 0; q < 1 << stride; q++) {
      int e = tables.element(o + Prefix6.HEAD_INTS + q);
      long b = bits << stride | q;
      boolean more =
          e < 0 ? leaves(tables, ~e, s, b, visit) : visit.leaf(e, tables.bucketEnd(o, q), s, b);
      if (!more) {
        return false;
      }
    }
    return true;
  }

  /** The buckets of the tables, as they are laid out. */
  private static final class Nodes {
    private final Prefix6 tables;
    long[] out = new long[1024];
    int size;

    Nodes(Prefix6 tables) {
      this.tables = tables;
    }

    /** Lays out the table at element {@code o} of the section and its children; its element. */
    long table(int o) {
      int head = tables.element(o);
      int stride = head & 0xFF;
      int shift = head >>> 8;
      int buckets = 1 << stride;
      int base = size;
      if (base + buckets > out.length) {
        out = Arrays.copyOf(out, Math.max(base + buckets, 2 * out.length));
      }
      size = base + buckets;
      for (int q = 0; q < buckets; q++) {
        int e = tables.element(o + Prefix6.HEAD_INTS + q);
        long element = e < 0 ? table(~e) : leaf(e, tables.bucketEnd(o, q));
        // Assigned after the child's layout, which may grow (replace) the array.
        out[base + q] = element;
      }
      return Long.MIN_VALUE | (long) shift << 57 | (long) stride << 52 | base;
    }
  }
}
