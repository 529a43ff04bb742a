/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import org.apache.spark.sql.vectorized.ColumnVector;

/**
 * One lookup of {@link SpindexBatchExec} in one task: the answers of the current batch ({@link
 * IndexRef#slots}) and the arrays that compute them, reused from batch to batch (they grow to the
 * largest batch, 4,096 rows with Spark's default reader).
 */
final class LookupBatch {
  final IndexRef ref;
  final int columnKind;
  final boolean asRows;

  /** Each row's label slot, 0 for NULL, -1 for an error to raise. */
  int[] slots = new int[0];

  /** The IPv4 addresses and their rows; the IPv6 ones and theirs; the label ids found. */
  int[] v4 = new int[0];

  int[] at4 = new int[0];
  long[] hi = new long[0];
  long[] lo = new long[0];
  int[] at6 = new int[0];
  int[] ids = new int[0];

  /** Set membership of the addresses searched ({@code spindex_contains}). */
  boolean[] in = new boolean[0];

  /** Rows of the batch; of them, NULL answers (and errors). */
  int rows;

  int nulls;

  /** The arena's arrays when the batch was filled: every slot of the batch is in them. */
  byte[][] chunks;

  /** The batch's address column, for an error's value. */
  ColumnVector input;

  /** Kept so that the reads which bring the labels into the cache are not dropped as unused. */
  long touched;

  LookupBatch(IndexRef ref, int columnKind, boolean asRows) {
    this.ref = ref;
    this.columnKind = columnKind;
    this.asRows = asRows;
  }

  /** Makes room for {@code n} rows. */
  void reserve(int n) {
    if (slots.length < n) {
      slots = new int[n];
      v4 = new int[n];
      at4 = new int[n];
      hi = new long[n];
      lo = new long[n];
      at6 = new int[n];
      ids = new int[n];
      in = new boolean[n];
    }
  }

  void filled(int rows, int nulls, byte[][] chunks, ColumnVector input, long touched) {
    this.rows = rows;
    this.nulls = nulls;
    this.chunks = chunks;
    this.input = input;
    this.touched += touched;
  }

  /** Fills the batch from the first {@code n} rows of the address column {@code ips}. */
  void fill(ColumnVector ips, int n) {
    ref.slots(ips, columnKind, n, asRows, this);
  }
}
