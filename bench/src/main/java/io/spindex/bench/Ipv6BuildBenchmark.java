/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.builder.BuildReport;
import io.spindex.builder.IpRangeBuilder;
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
 * Building a range index from IPv6 CIDR text ({@link BenchFiles#range6Text}), wall time of one
 * complete build per operation (single shot, as {@link BuildBenchmark}); for scale, the same build
 * from IPv4 range text of as many generated ranges ({@link BenchFiles#rangeText}; about a tenth are
 * cut out as gaps). Run with {@code -prof io.spindex.bench.PeakHeapProfiler} for the peak heap of
 * each.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx8g"})
public class Ipv6BuildBenchmark {
  /** IPv6 CIDR lines (and IPv4 ranges generated for the reference build). */
  @Param("1000000")
  public int lines;

  private Path dir;
  private Path text6;
  private Path text4;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("build6");
    text6 = BenchFiles.range6Text(dir, lines);
    text4 = BenchFiles.rangeText(dir, lines);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  @Benchmark
  public BuildReport ipv6() throws IOException {
    return new IpRangeBuilder().build(Collections.singletonList(text6), dir.resolve("ranges6.spx"));
  }

  @Benchmark
  public BuildReport ipv4() throws IOException {
    return new IpRangeBuilder()
        .delimiter('|')
        .build(Collections.singletonList(text4), dir.resolve("ranges4.spx"));
  }
}
