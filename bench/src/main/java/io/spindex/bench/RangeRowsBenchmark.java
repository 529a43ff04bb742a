/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.OverlapPolicy;
import io.spindex.gen.Queries;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.SplittableRandom;
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
 * The rows of one range index on the heap ({@code nio}: the IPv4 rows unpacked into int columns,
 * the IPv6 rows copied) against the same file read in place ({@code mapped}), in one run: {@code
 * labelId} of addresses drawn by range (every one a hit), single ({@link #paired}) and batch
 * ({@link #batchPaired}); IPv6 lookups where the ranges are IPv6 only. Each pairs the two, a batch
 * of 1,024 addresses each in turn, each timed (the counters), so that both see the same load. The
 * ranges: {@code -p source=FILE} (range text or a MaxMind DB file, built as {@code spindex build
 * ranges} builds it), else {@code count} generated real-shaped ranges. The setup checks that both
 * give the same answer for every address, and reports the file's size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 8, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
public class RangeRowsBenchmark {
  @Param("2600000")
  public int count;

  @Param("")
  public String source;

  private Path dir;
  private IpRanges heap;
  private IpRanges mapped;
  private IpRanges[] all;
  private AddressPool pool;

  /** IPv6 addresses (high and low halves) when the ranges are IPv6 only, else {@code null}. */
  private long[] hi6;

  private long[] lo6;
  private final long[] inHi = new long[AddressPool.BATCH];
  private final long[] inLo = new long[AddressPool.BATCH];
  private final int[] in = new int[AddressPool.BATCH];
  private final int[] out = new int[AddressPool.BATCH];

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("range-rows");
    Path in =
        source.isEmpty()
            ? BenchFiles.rangeText(dir, count, RangeGenerator.Shape.REAL)
            : Paths.get(source);
    Path file = dir.resolve("ranges.spx");
    // Published range files overlap (ip-location-db's country ranges): the narrowest wins.
    new IpRangeBuilder().onOverlap(OverlapPolicy.NARROWEST).build(List.of(in), file);
    heap = Loader.NIO.load(file).asRanges();
    mapped = Loader.MAPPED.load(file).asRanges();
    all = new IpRanges[] {heap, mapped};
    boolean v6 = heap.size() == 0;
    if (v6) {
      draw6();
    } else {
      pool = new AddressPool(Queries.weighted(heap, AddressPool.SIZE, BenchFiles.SEED + 5));
      for (int a : pool.addresses) {
        int want = heap.labelId(a);
        if (want == IpRanges.NONE || mapped.labelId(a) != want) {
          throw new IllegalStateException(String.format("answers differ for %08x", a));
        }
      }
    }
    System.out.printf(
        "%n%,d %s rows, %,d of them gaps; %,d bytes%n",
        v6 ? heap.ipv6Size() : heap.size(),
        v6 ? "IPv6" : "IPv4",
        v6 ? heap.ipv6Size() - heap.ipv6RangeCount() : heap.size() - heap.rangeCount(),
        Files.size(file));
  }

  /**
   * IPv6 addresses drawn by range (a row that is not a gap, then an address in it), each checked to
   * give the same answer from both.
   */
  private void draw6() {
    SplittableRandom rnd = new SplittableRandom(BenchFiles.SEED + 6);
    pool = new AddressPool(new int[AddressPool.SIZE]);
    hi6 = new long[AddressPool.SIZE];
    lo6 = new long[AddressPool.SIZE];
    int n = heap.ipv6Size();
    for (int i = 0; i < AddressPool.SIZE; i++) {
      int row = rnd.nextInt(n);
      while (heap.ipv6LabelIdOfRow(row) == IpRanges.NONE) {
        row = rnd.nextInt(n);
      }
      long sh = heap.ipv6StartHi(row);
      long sl = heap.ipv6StartLo(row);
      long eh = heap.ipv6EndHi(row);
      long el = heap.ipv6EndLo(row);
      long span = eh - sh;
      long h = span >= 0 && span < Long.MAX_VALUE ? sh + rnd.nextLong(span + 1) : sh;
      long l = rnd.nextLong();
      // Within the range: at least the start's low half beside its high half, at most the end's.
      if (h == sh && Long.compareUnsigned(l, sl) < 0) {
        l = sl;
      }
      if (h == eh && Long.compareUnsigned(l, el) > 0) {
        l = el;
      }
      hi6[i] = h;
      lo6[i] = l;
      int want = heap.labelId(h, l);
      if (want == IpRanges.NONE || mapped.labelId(h, l) != want) {
        throw new IllegalStateException(String.format("answers differ for %x:%x", h, l));
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  /** Nanoseconds spent in each by {@link #paired} or {@link #batchPaired}, per iteration. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Nanos {
    public long heapNanos;
    public long mappedNanos;
    private int turn;

    @Setup(Level.Iteration)
    public void reset() {
      heapNanos = 0;
      mappedNanos = 0;
    }

    void add(int which, long nanos) {
      if (which == 0) {
        heapNanos += nanos;
      } else {
        mappedNanos += nanos;
      }
    }
  }

  /** {@code labelId} of a batch of addresses in each of the two, in turn, each timed. */
  @Benchmark
  @OperationsPerInvocation(2 * AddressPool.BATCH)
  public int paired(Nanos n) {
    return run(n, false);
  }

  /**
   * The batch {@code labelIds} of a batch of addresses in each of the two, like {@link #paired}.
   */
  @Benchmark
  @OperationsPerInvocation(2 * AddressPool.BATCH)
  public int batchPaired(Nanos n) {
    return run(n, true);
  }

  private int run(Nanos n, boolean batch) {
    int from = pool.next();
    int sum = 0;
    n.turn = (n.turn + 1) % all.length;
    for (int k = 0; k < all.length; k++) {
      int which = (n.turn + k) % all.length;
      long t0 = System.nanoTime();
      sum += batch ? batch(all[which], from) : single(all[which], from);
      n.add(which, System.nanoTime() - t0);
    }
    return sum;
  }

  private int single(IpRanges r, int from) {
    int sum = 0;
    if (hi6 != null) {
      for (int i = from; i < from + AddressPool.BATCH; i++) {
        sum += r.labelId(hi6[i], lo6[i]);
      }
      return sum;
    }
    int[] a = pool.addresses;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += r.labelId(a[i]);
    }
    return sum;
  }

  private int batch(IpRanges r, int from) {
    if (hi6 != null) {
      System.arraycopy(hi6, from, inHi, 0, AddressPool.BATCH);
      System.arraycopy(lo6, from, inLo, 0, AddressPool.BATCH);
      return r.labelIds(inHi, inLo, AddressPool.BATCH, out);
    }
    System.arraycopy(pool.addresses, from, in, 0, AddressPool.BATCH);
    return r.labelIds(in, AddressPool.BATCH, out);
  }
}
