/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.annotations.Internal;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The answers of one lookup of {@link SpindexBatchExec} for one batch, as a column: {@code
 * spindex_label}'s STRING, {@code spindex_lookup}'s STRUCT whose fields are {@link
 * LabelFieldVector} columns, or {@code spindex_contains}'s BOOLEAN. Nothing is copied: a row's
 * value is a view of its label's bytes in the arena ({@link LabelArena}), as the expression hands
 * it out. Public only because Spark's generated code names the class of the vectors it reads.
 */
@Internal
public final class LabelVector extends ColumnVector {
  private final LabelFieldVector[] fields;

  private final LookupBatch batch;
  private int[] slots;
  private byte[][] chunks;

  LabelVector(DataType type, LookupBatch batch) {
    super(type);
    this.batch = batch;
    if (type instanceof StructType) {
      int n = ((StructType) type).fields().length;
      fields = new LabelFieldVector[n];
      for (int i = 0; i < n; i++) {
        fields[i] = new LabelFieldVector(((StructType) type).fields()[i].dataType(), this, i);
      }
      row = new UnsafeRow(n);
    } else {
      fields = null;
      row = null;
    }
  }

  /**
   * The label row of row {@link #pointed}, which the fields read: a STRUCT's reader reads each
   * field in turn, of the same row.
   */
  private final UnsafeRow row;

  private int pointed = -1;

  /** Takes the batch's answers, after {@link LookupBatch#fill}. */
  void reset() {
    slots = batch.slots;
    chunks = batch.chunks;
    pointed = -1;
  }

  /** Nothing to free: the vector holds views of the shared arena, and is reused batch to batch. */
  @Override
  public void close() {}

  /** Spark's reader of batches calls this after each batch; this vector serves the next one. */
  @Override
  public void closeIfFreeable() {}

  @Override
  public boolean hasNull() {
    return batch.nulls > 0;
  }

  @Override
  public int numNulls() {
    return batch.nulls;
  }

  @Override
  public boolean isNullAt(int row) {
    int s = slots[row];
    if (s > 0) {
      return false;
    }
    if (s < 0) {
      batch.ref.raise(batch.input, batch.columnKind, row);
    }
    return true;
  }

  @Override
  public UTF8String getUTF8String(int row) {
    int s = slots[row];
    if (s <= 0) {
      return null;
    }
    byte[] c = chunks[LabelArena.chunk(s)];
    long at = LabelArena.address(s);
    return UTF8String.fromAddress(c, at, Platform.getInt(c, at - 4));
  }

  /** The label row of {@code row} (not NULL), a view of the arena's bytes. */
  UnsafeRow row(int row) {
    if (row != pointed) {
      int s = slots[row];
      byte[] c = chunks[LabelArena.chunk(s)];
      long at = LabelArena.address(s);
      this.row.pointTo(c, at, Platform.getInt(c, at - 4));
      pointed = row;
    }
    return this.row;
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    return fields[ordinal];
  }

  /** {@code spindex_contains}: whether the row's address is in the set. */
  @Override
  public boolean getBoolean(int row) {
    return slots[row] == IndexRef.IN_SET;
  }

  @Override
  public byte getByte(int row) {
    throw unsupported();
  }

  @Override
  public short getShort(int row) {
    throw unsupported();
  }

  @Override
  public int getInt(int row) {
    throw unsupported();
  }

  @Override
  public long getLong(int row) {
    throw unsupported();
  }

  @Override
  public float getFloat(int row) {
    throw unsupported();
  }

  @Override
  public double getDouble(int row) {
    throw unsupported();
  }

  @Override
  public ColumnarArray getArray(int row) {
    throw unsupported();
  }

  @Override
  public ColumnarMap getMap(int row) {
    throw unsupported();
  }

  @Override
  public Decimal getDecimal(int row, int precision, int scale) {
    throw unsupported();
  }

  @Override
  public byte[] getBinary(int row) {
    throw unsupported();
  }

  private UnsupportedOperationException unsupported() {
    return unsupported(dataType());
  }

  static UnsupportedOperationException unsupported(DataType t) {
    return new UnsupportedOperationException("spindex: not a value of " + t.simpleString());
  }

  /** Rows of the current batch. */
  int rows() {
    return batch.rows;
  }
}
