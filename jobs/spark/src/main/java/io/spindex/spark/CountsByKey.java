/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.util.AccumulatorV2;

/** An accumulator of counts per key (e.g. tasks per executor); the value is a sorted copy. */
final class CountsByKey extends AccumulatorV2<String, Map<String, Long>> {
  private static final long serialVersionUID = 1L;

  private final TreeMap<String, Long> counts = new TreeMap<>();

  @Override
  public boolean isZero() {
    synchronized (counts) {
      return counts.isEmpty();
    }
  }

  @Override
  public CountsByKey copy() {
    CountsByKey c = new CountsByKey();
    synchronized (counts) {
      c.counts.putAll(counts);
    }
    return c;
  }

  @Override
  public void reset() {
    synchronized (counts) {
      counts.clear();
    }
  }

  @Override
  public void add(String key) {
    add(key, 1);
  }

  void add(String key, long n) {
    synchronized (counts) {
      counts.merge(key, n, Long::sum);
    }
  }

  @Override
  public void merge(AccumulatorV2<String, Map<String, Long>> other) {
    for (Map.Entry<String, Long> e : other.value().entrySet()) {
      add(e.getKey(), e.getValue());
    }
  }

  @Override
  public Map<String, Long> value() {
    synchronized (counts) {
      return new TreeMap<>(counts);
    }
  }
}
