/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.ep.SeenRows;
import org.apache.spark.util.AccumulatorV2;

/**
 * OR-merges the tasks' {@link SeenRows}: the index rows some task of ep-diff saw. OR is idempotent,
 * so a retried or speculative task that adds its bitmap twice changes nothing. A bitmap is {@code
 * rows / 8} bytes (2.5 MB for 20 M products), sent once per task.
 */
final class SeenRowsAccumulator extends AccumulatorV2<SeenRows, SeenRows> {
  private static final long serialVersionUID = 1L;

  private final int rows;
  private SeenRows seen;

  SeenRowsAccumulator(int rows) {
    this.rows = rows;
    this.seen = new SeenRows(rows);
  }

  @Override
  public boolean isZero() {
    synchronized (this) {
      return seen.cardinality() == 0;
    }
  }

  @Override
  public SeenRowsAccumulator copy() {
    SeenRowsAccumulator c = new SeenRowsAccumulator(rows);
    synchronized (this) {
      c.seen.or(seen);
    }
    return c;
  }

  @Override
  public void reset() {
    synchronized (this) {
      seen = new SeenRows(rows);
    }
  }

  @Override
  public void add(SeenRows v) {
    synchronized (this) {
      seen.or(v);
    }
  }

  @Override
  public void merge(AccumulatorV2<SeenRows, SeenRows> other) {
    add(other.value());
  }

  @Override
  public SeenRows value() {
    synchronized (this) {
      return seen;
    }
  }
}
