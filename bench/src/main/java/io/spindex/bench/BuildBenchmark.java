/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.builder.BuildReport;
import io.spindex.builder.IpSetBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Building the set index from its text, wall time of one complete build per operation (single shot:
 * a build is seconds long): {@code IpSetBuilder} on all cores against the naive pipeline ({@code
 * readLine} + {@code split} + {@code Arrays.sort} + dedupe + {@code DataOutputStream}). Run with
 * {@code -prof io.spindex.bench.PeakHeapProfiler} for the peak heap of each.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx8g"})
public class BuildBenchmark {
  @Param("26123456")
  public int count;

  private Path dir;
  private Path text;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("build");
    text = BenchFiles.ipText(dir, count);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  @Benchmark
  public BuildReport spindex() throws IOException {
    return new IpSetBuilder().build(Collections.singletonList(text), dir.resolve("ips.spx"));
  }

  @Benchmark
  public int naive() throws IOException {
    return NaiveIpText.build(text, dir.resolve("ips.bin"));
  }
}
