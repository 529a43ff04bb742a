/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.gen.AccessLogGenerator;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.Loader;
import io.spindex.lookup.IpLocator;
import io.spindex.lookup.LineBatch;
import io.spindex.lookup.LineLookup;
import io.spindex.lookup.LookupMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * ip-lookup's per-line work (locate the address, look it up, build {@code line<TAB>label}) on
 * generated access-log lines against a mapped range index larger than the CPU caches: one line at a
 * time ({@link LineLookup#apply}) and a batch at a time ({@link LineBatch}, {@link
 * LineLookup#applyAll}: what the Spark and MapReduce jobs run). Scores are ns per line.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
public class LineLookupBenchmark {
  private static final int LINES = 100_000;

  /** Generated ranges in the index. */
  @Param("700000")
  public int count;

  private Path dir;
  private LineLookup lookup;
  private byte[][] lines;
  private final LineBatch batch = new LineBatch();

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("line-lookup");
    Path index = BenchFiles.rangeIndex(BenchFiles.rangeText(dir, count), dir.resolve("r.spx"));
    SpindexIndex ranges = Loader.MAPPED.load(index);
    lookup = new LineLookup(IpLocator.first(), ranges, LookupMode.ANNOTATE, true);
    AccessLogGenerator gen = new AccessLogGenerator(BenchFiles.SEED, 10);
    lines = new byte[LINES][];
    for (int i = 0; i < LINES; i++) {
      lines[i] = gen.line(i);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  /** {@link LineLookup#apply} line by line. */
  @Benchmark
  @OperationsPerInvocation(LINES)
  public long oneAtATime() {
    long bytes = 0;
    for (byte[] l : lines) {
      if (lookup.apply(l, 0, l.length) == LineLookup.WRITE_OUT) {
        bytes += lookup.outLength();
      }
    }
    return bytes;
  }

  /** Lines copied into a {@link LineBatch}, looked up together, each record built in turn. */
  @Benchmark
  @OperationsPerInvocation(LINES)
  public long batches() {
    long bytes = 0;
    batch.clear();
    for (int i = 0; i < LINES; i++) {
      byte[] l = lines[i];
      if (batch.add(l, 0, l.length, i) || i == LINES - 1) {
        batch.lookUp(lookup);
        for (int k = 0; k < batch.count(); k++) {
          if (batch.result(k) == LineLookup.WRITE_OUT) {
            batch.select(lookup, k);
            bytes += lookup.outLength();
          }
        }
        batch.clear();
      }
    }
    return bytes;
  }
}
