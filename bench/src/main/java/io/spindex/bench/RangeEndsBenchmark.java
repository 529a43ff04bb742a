/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.RangeEnds;
import io.spindex.gen.Queries;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.IpRanges;
import io.spindex.index.Loader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * IPv4 ranges stored with their ends ({@code range_ends}) against the same ranges stored without
 * them ({@code tiled_labels}, format version 6), in one run: {@code labelId} of addresses drawn by
 * range (every one a hit), on the heap ({@code nio}) and {@code mapped}, single ({@link #paired})
 * and batch ({@link #batchPaired}); each pairs the two layouts, a batch of 1,024 addresses each in
 * turn, each timed (the counters), so that both see the same load. The ranges: {@code -p
 * source=FILE} (range text or a MaxMind DB file, built as {@code spindex build ranges} builds it),
 * else {@code count} generated real-shaped ranges. The setup checks that both layouts give the same
 * answer for every address, and reports both files' sizes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 8, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
public class RangeEndsBenchmark {
  @Param("2600000")
  public int count;

  @Param("")
  public String source;

  private Path dir;
  private IpRanges heapStored;
  private IpRanges heapTiled;
  private IpRanges mappedStored;
  private IpRanges mappedTiled;
  private AddressPool pool;
  private final int[] in = new int[AddressPool.BATCH];
  private final int[] out = new int[AddressPool.BATCH];

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("range-ends");
    Path in =
        source.isEmpty()
            ? BenchFiles.rangeText(dir, count, RangeGenerator.Shape.REAL)
            : Paths.get(source);
    Path stored = build(in, RangeEnds.STORED, "stored.spx");
    Path tiled = build(in, RangeEnds.TILED, "tiled.spx");
    heapStored = Loader.NIO.load(stored).asRanges();
    heapTiled = Loader.NIO.load(tiled).asRanges();
    mappedStored = Loader.MAPPED.load(stored).asRanges();
    mappedTiled = Loader.MAPPED.load(tiled).asRanges();
    if (heapStored.tiled() || !heapTiled.tiled()) {
      throw new IllegalStateException("the two layouts were not built as asked");
    }
    pool = new AddressPool(Queries.weighted(heapStored, AddressPool.SIZE, BenchFiles.SEED + 5));
    for (int a : pool.addresses) {
      int want = heapStored.labelId(a);
      if (want == IpRanges.NONE
          || heapTiled.labelId(a) != want
          || mappedStored.labelId(a) != want
          || mappedTiled.labelId(a) != want) {
        throw new IllegalStateException(String.format("answers differ for %08x", a));
      }
    }
    System.out.printf(
        "%n%,d ranges, %,d gap rows; stored %,d bytes, tiled %,d bytes (%.3fx)%n",
        heapStored.size(),
        heapTiled.size() - heapTiled.rangeCount(),
        Files.size(stored),
        Files.size(tiled),
        (double) Files.size(tiled) / Files.size(stored));
  }

  private Path build(Path in, RangeEnds ends, String name) throws IOException {
    Path out = dir.resolve(name);
    new IpRangeBuilder().rangeEnds(ends).build(List.of(in), out);
    return out;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  /** Nanoseconds spent in each layout by {@link #paired} or {@link #batchPaired}, per iteration. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Nanos {
    public long heapStoredNanos;
    public long heapTiledNanos;
    public long mappedStoredNanos;
    public long mappedTiledNanos;
    private int turn;

    @Setup(Level.Iteration)
    public void reset() {
      heapStoredNanos = 0;
      heapTiledNanos = 0;
      mappedStoredNanos = 0;
      mappedTiledNanos = 0;
    }
  }

  /** {@code labelId} of a batch of addresses in each of the four, in rotating order, each timed. */
  @Benchmark
  @OperationsPerInvocation(4 * AddressPool.BATCH)
  public int paired(Nanos n) {
    return run(n, false);
  }

  /**
   * The batch {@code labelIds} of a batch of addresses in each of the four, like {@link #paired}.
   */
  @Benchmark
  @OperationsPerInvocation(4 * AddressPool.BATCH)
  public int batchPaired(Nanos n) {
    return run(n, true);
  }

  private int run(Nanos n, boolean batch) {
    int from = pool.next();
    int sum = 0;
    n.turn = (n.turn + 1) % 4;
    for (int k = 0; k < 4; k++) {
      int which = (n.turn + k) % 4;
      IpRanges r =
          which == 0
              ? heapStored
              : which == 1 ? heapTiled : which == 2 ? mappedStored : mappedTiled;
      long t0 = System.nanoTime();
      sum += batch ? batch(r, from) : single(r, from);
      long t = System.nanoTime() - t0;
      if (which == 0) {
        n.heapStoredNanos += t;
      } else if (which == 1) {
        n.heapTiledNanos += t;
      } else if (which == 2) {
        n.mappedStoredNanos += t;
      } else {
        n.mappedTiledNanos += t;
      }
    }
    return sum;
  }

  private int single(IpRanges r, int from) {
    int[] a = pool.addresses;
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += r.labelId(a[i]);
    }
    return sum;
  }

  private int batch(IpRanges r, int from) {
    System.arraycopy(pool.addresses, from, in, 0, AddressPool.BATCH);
    return r.labelIds(in, AddressPool.BATCH, out);
  }
}
