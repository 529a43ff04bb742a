/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.OverlapPolicy;
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
 * IPv4 ranges stored with their ends ({@code range_ends}) against the same ranges stored without
 * them ({@code tiled_labels}, format version 6) and packed ({@code range_starts_low}, format
 * version 7), in one run: {@code labelId} of addresses drawn by range (every one a hit), on the
 * heap ({@code nio}, which unpacks packed rows into the columns of tiled ones) and {@code mapped}
 * (which reads them in place), single ({@link #paired}) and batch ({@link #batchPaired}); IPv6
 * lookups where the ranges are IPv6 only (on the heap, the IPv6 rows {@code Rows6} made from either
 * layout); each pairs the layouts, a batch of 1,024 addresses each in turn, each timed (the
 * counters), so that all see the same load. The ranges: {@code -p source=FILE} (range text or a
 * MaxMind DB file, built as {@code spindex build ranges} builds it), else {@code count} generated
 * real-shaped ranges. The setup checks that both layouts give the same answer for every address,
 * and reports both files' sizes.
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
  private IpRanges mappedPacked;
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
    dir = BenchFiles.scratch("range-ends");
    Path in =
        source.isEmpty()
            ? BenchFiles.rangeText(dir, count, RangeGenerator.Shape.REAL)
            : Paths.get(source);
    Path stored = build(in, RangeEnds.STORED, "stored.spx");
    Path tiled = build(in, RangeEnds.TILED, "tiled.spx");
    Path packed = build(in, RangeEnds.PACKED, "packed.spx");
    heapStored = Loader.NIO.load(stored).asRanges();
    heapTiled = Loader.NIO.load(tiled).asRanges();
    mappedStored = Loader.MAPPED.load(stored).asRanges();
    mappedTiled = Loader.MAPPED.load(tiled).asRanges();
    mappedPacked = Loader.MAPPED.load(packed).asRanges();
    all = new IpRanges[] {heapStored, heapTiled, mappedStored, mappedTiled, mappedPacked};
    if (heapStored.tiled()
        || heapStored.ipv6Tiled()
        || !(heapTiled.size() == 0 ? heapTiled.ipv6Tiled() : heapTiled.tiled())) {
      throw new IllegalStateException("the two layouts were not built as asked");
    }
    boolean v6 = heapStored.size() == 0;
    if (v6) {
      draw6();
    } else {
      pool = new AddressPool(Queries.weighted(heapStored, AddressPool.SIZE, BenchFiles.SEED + 5));
      for (int a : pool.addresses) {
        int want = heapStored.labelId(a);
        if (want == IpRanges.NONE
            || heapTiled.labelId(a) != want
            || mappedStored.labelId(a) != want
            || mappedTiled.labelId(a) != want
            || mappedPacked.labelId(a) != want) {
          throw new IllegalStateException(String.format("answers differ for %08x", a));
        }
      }
    }
    System.out.printf(
        "%n%,d %s ranges, %,d gap rows; stored %,d bytes, tiled %,d bytes (%.3fx),"
            + " packed %,d bytes (%.3fx)%n",
        v6 ? heapStored.ipv6Size() : heapStored.size(),
        v6 ? "IPv6" : "IPv4",
        v6
            ? heapTiled.ipv6Size() - heapTiled.ipv6RangeCount()
            : heapTiled.size() - heapTiled.rangeCount(),
        Files.size(stored),
        Files.size(tiled),
        (double) Files.size(tiled) / Files.size(stored),
        Files.size(packed),
        (double) Files.size(packed) / Files.size(stored));
  }

  /**
   * IPv6 addresses drawn by range from the stored layout's rows (a range, then an address in it),
   * each checked to give the same answer from the five.
   */
  private void draw6() {
    SplittableRandom rnd = new SplittableRandom(BenchFiles.SEED + 6);
    pool = new AddressPool(new int[AddressPool.SIZE]);
    hi6 = new long[AddressPool.SIZE];
    lo6 = new long[AddressPool.SIZE];
    int n = heapStored.ipv6Size();
    for (int i = 0; i < AddressPool.SIZE; i++) {
      int row = rnd.nextInt(n);
      long sh = heapStored.ipv6StartHi(row);
      long sl = heapStored.ipv6StartLo(row);
      long eh = heapStored.ipv6EndHi(row);
      long el = heapStored.ipv6EndLo(row);
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
      int want = heapStored.labelId(h, l);
      if (want == IpRanges.NONE
          || heapTiled.labelId(h, l) != want
          || mappedStored.labelId(h, l) != want
          || mappedTiled.labelId(h, l) != want
          || mappedPacked.labelId(h, l) != want) {
        throw new IllegalStateException(String.format("answers differ for %x:%x", h, l));
      }
    }
  }

  private Path build(Path in, RangeEnds ends, String name) throws IOException {
    Path out = dir.resolve(name);
    // Published range files overlap (ip-location-db's country ranges): the narrowest wins.
    new IpRangeBuilder().rangeEnds(ends).onOverlap(OverlapPolicy.NARROWEST).build(List.of(in), out);
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
    public long mappedPackedNanos;
    private int turn;

    @Setup(Level.Iteration)
    public void reset() {
      heapStoredNanos = 0;
      heapTiledNanos = 0;
      mappedStoredNanos = 0;
      mappedTiledNanos = 0;
      mappedPackedNanos = 0;
    }

    void add(int which, long nanos) {
      if (which == 0) {
        heapStoredNanos += nanos;
      } else if (which == 1) {
        heapTiledNanos += nanos;
      } else if (which == 2) {
        mappedStoredNanos += nanos;
      } else if (which == 3) {
        mappedTiledNanos += nanos;
      } else {
        mappedPackedNanos += nanos;
      }
    }
  }

  /** {@code labelId} of a batch of addresses in each of the five, in rotating order, each timed. */
  @Benchmark
  @OperationsPerInvocation(5 * AddressPool.BATCH)
  public int paired(Nanos n) {
    return run(n, false);
  }

  /**
   * The batch {@code labelIds} of a batch of addresses in each of the five, like {@link #paired}.
   */
  @Benchmark
  @OperationsPerInvocation(5 * AddressPool.BATCH)
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
