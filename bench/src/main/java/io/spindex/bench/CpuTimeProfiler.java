/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.lang.management.ManagementFactory;
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
 * CPU time of the whole benchmark JVM (every thread, JIT and GC included) per operation, as the
 * secondary metric {@code cpu.ms}. Wall time on a shared two-core machine depends on what else
 * runs; CPU time per operation is the steadier figure of how much work one operation costs, and
 * input bytes per CPU-second is throughput per core.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  private long cpuAtStart;

  @Override
  public String getDescription() {
    return "Process CPU time per operation (all threads), from OperatingSystemMXBean";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    cpuAtStart = processCpuNanos();
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result type.
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long ops = Math.max(1, result.getMetadata().getMeasuredOps());
    double perOp = (processCpuNanos() - cpuAtStart) / 1e6 / ops;
    List<ScalarResult> out = new ArrayList<>();
    out.add(new ScalarResult("cpu.ms", perOp, "ms/op", AggregationPolicy.AVG));
    return out;
  }

  private static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean) {
      return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
    }
    throw new IllegalStateException("this JVM does not report process CPU time");
  }
}
