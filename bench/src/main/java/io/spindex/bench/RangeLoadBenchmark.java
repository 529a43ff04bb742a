/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import com.maxmind.db.Reader;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.TextLoader;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.lionsoul.ip2region.xdb.Searcher;
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
 * Opening a range database until it can answer lookups: Spindex's loaders and text loader next to
 * ip2region's in-memory content mode and MaxMind's reader in both file modes, all on the same
 * ranges ({@link RangeData}). The heap is pre-touched, as in {@link SetLoadBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class RangeLoadBenchmark {
  /** Generated ranges (before gaps are cut out: about 90% of them remain). */
  @Param("700000")
  public int count;

  private RangeData data;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    data = RangeData.create(count);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    data.close();
  }

  /**
   * Between iterations, outside the measured time: the mapped loads' mappings go only when the
   * garbage collector finds them unreachable, and a process may hold about 65,000 of them.
   */
  @TearDown(Level.Iteration)
  public void releaseMappings() {
    System.gc();
  }

  @Benchmark
  public SpindexIndex textSpindex() throws IOException {
    return TextLoader.ranges(new IpRangeBuilder().delimiter('|')).load(data.text);
  }

  @Benchmark
  public SpindexIndex nio() throws IOException {
    return Loader.NIO.load(data.index);
  }

  @Benchmark
  public SpindexIndex mapped() throws IOException {
    return Loader.MAPPED.load(data.index);
  }

  @Benchmark
  public SpindexIndex mappedUnchecked() throws IOException {
    return Loader.mappedUnchecked().load(data.index);
  }

  /** ip2region's fastest mode: the whole xdb file read into a byte[]. */
  @Benchmark
  public Searcher ip2regionContent() throws IOException {
    return Searcher.newWithBuffer(Searcher.loadContentFromFile(data.xdb.toString()));
  }

  @Benchmark
  public Reader maxmindMemory() throws IOException {
    return new Reader(data.mmdb.toFile(), Reader.FileMode.MEMORY);
  }

  @Benchmark
  public Reader maxmindMapped() throws IOException {
    return new Reader(data.mmdb.toFile(), Reader.FileMode.MEMORY_MAPPED);
  }
}
