/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * What a benchmark's data holds, as its setup and its operations published it ({@link #put}): file
 * sizes and counts, reported after each iteration as secondary results {@code data.NAME}, and
 * {@code data.index/mmdb} (the index's size over the database's) when both sizes are known. {@code
 * -prof io.spindex.bench.DataSizeProfiler}.
 */
public final class DataSizeProfiler implements InternalProfiler {
  private static final Map<String, Object[]> FIGURES = new ConcurrentSkipListMap<>();

  /** Publishes one figure of the data measured in this JVM. */
  static void put(String name, double value, String unit) {
    FIGURES.put(name, new Object[] {value, unit});
  }

  @Override
  public String getDescription() {
    return "Sizes and counts of the data measured (files, networks, records)";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {}

  @Override
  @SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result type.
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    List<ScalarResult> out = new ArrayList<>();
    for (Map.Entry<String, Object[]> e : FIGURES.entrySet()) {
      Object[] f = e.getValue();
      out.add(
          new ScalarResult(
              "data." + e.getKey(), (Double) f[0], (String) f[1], AggregationPolicy.MAX));
    }
    Object[] mmdb = FIGURES.get("mmdb");
    Object[] index = FIGURES.get("index");
    if (index != null && mmdb != null) {
      out.add(
          new ScalarResult(
              "data.index/mmdb",
              (Double) index[0] / (Double) mmdb[0],
              "ratio",
              AggregationPolicy.MAX));
    }
    return out;
  }
}
