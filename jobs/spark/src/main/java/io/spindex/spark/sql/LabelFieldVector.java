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
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * One field of {@code spindex_lookup}'s STRUCT: read from its row's label row, an {@link UnsafeRow}
 * in the arena, through the STRUCT's row object ({@link LabelVector#row}).
 */
@Internal
public final class LabelFieldVector extends ColumnVector {
  private final LabelVector parent;
  private final int ordinal;

  LabelFieldVector(DataType type, LabelVector parent, int ordinal) {
    super(type);
    this.parent = parent;
    this.ordinal = ordinal;
  }

  private UnsafeRow at(int r) {
    return parent.row(r);
  }

  @Override
  public void close() {}

  @Override
  public void closeIfFreeable() {}

  @Override
  public boolean hasNull() {
    return true;
  }

  @Override
  public int numNulls() {
    // Only for a batch's statistics; a field's NULLs are known row by row.
    int n = 0;
    for (int r = 0; r < parent.rows(); r++) {
      n += isNullAt(r) ? 1 : 0;
    }
    return n;
  }

  @Override
  public boolean isNullAt(int r) {
    return parent.isNullAt(r) || at(r).isNullAt(ordinal);
  }

  @Override
  public boolean getBoolean(int r) {
    return at(r).getBoolean(ordinal);
  }

  @Override
  public long getLong(int r) {
    return at(r).getLong(ordinal);
  }

  @Override
  public double getDouble(int r) {
    return at(r).getDouble(ordinal);
  }

  @Override
  public UTF8String getUTF8String(int r) {
    return at(r).getUTF8String(ordinal);
  }

  @Override
  public Decimal getDecimal(int r, int precision, int scale) {
    return at(r).getDecimal(ordinal, precision, scale);
  }

  @Override
  public byte getByte(int r) {
    throw LabelVector.unsupported(dataType());
  }

  @Override
  public short getShort(int r) {
    throw LabelVector.unsupported(dataType());
  }

  @Override
  public int getInt(int r) {
    throw LabelVector.unsupported(dataType());
  }

  @Override
  public float getFloat(int r) {
    throw LabelVector.unsupported(dataType());
  }

  @Override
  public ColumnarArray getArray(int r) {
    throw LabelVector.unsupported(dataType());
  }

  @Override
  public ColumnarMap getMap(int r) {
    throw LabelVector.unsupported(dataType());
  }

  @Override
  public byte[] getBinary(int r) {
    throw LabelVector.unsupported(dataType());
  }

  @Override
  public ColumnVector getChild(int o) {
    throw LabelVector.unsupported(dataType());
  }
}
