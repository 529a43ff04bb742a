/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Peak heap used during each iteration: a full GC and a reset of every heap pool's peak before the
 * iteration, the sum of the pools' peaks after it. The pools peak at different moments, so the sum
 * is an upper bound that includes garbage not yet collected (G1's eden sizing shows in it); it is
 * the figure the JVM itself can vouch for without a heap dump. {@code -prof
 * io.spindex.bench.PeakHeapProfiler}.
 */
public final class PeakHeapProfiler implements InternalProfiler {
  @Override
  public String getDescription() {
    return "Peak heap used during each iteration (sum of heap pool peaks, after a full GC)";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    System.gc();
    for (MemoryPoolMXBean p : heapPools()) {
      p.resetPeakUsage();
    }
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result type.
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long peak = 0;
    for (MemoryPoolMXBean p : heapPools()) {
      peak += p.getPeakUsage().getUsed();
    }
    List<ScalarResult> out = new ArrayList<>();
    out.add(new ScalarResult("peak.heap", peak / 1e6, "MB", AggregationPolicy.MAX));
    return out;
  }

  private static List<MemoryPoolMXBean> heapPools() {
    List<MemoryPoolMXBean> out = new ArrayList<>();
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP && p.isValid()) {
        out.add(p);
      }
    }
    return out;
  }
}
