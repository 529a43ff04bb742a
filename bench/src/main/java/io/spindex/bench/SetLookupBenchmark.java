/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.index.IpSet;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
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
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * Membership lookups on the IP-list set, single thread: Spindex on the heap ({@code nio}) and
 * mapped, with and without the /16 prefix table; {@code Arrays.binarySearch} over the same sorted
 * int[]; RoaringBitmap mapped (immutable) and on the heap. Half the keys are members, half random
 * (almost all misses), in random order.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+AlwaysPreTouch"})
public class SetLookupBenchmark {
  @Param("26123456")
  public int count;

  private Path dir;
  private IpSet heapPrefix;
  private IpSet heapNoPrefix;
  private IpSet mappedPrefix;
  private IpSet mappedNoPrefix;
  private int[] keys;
  private ImmutableRoaringBitmap roaringMapped;
  private RoaringBitmap roaringHeap;
  private AddressPool pool;
  private MemoryChase chase;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("set-lookup");
    Path text = BenchFiles.ipText(dir, count);
    Path withPrefix = BenchFiles.setIndex(text, dir.resolve("ips.spx"), true);
    Path without = BenchFiles.setIndex(text, dir.resolve("ips-np.spx"), false);
    Files.delete(text);
    heapPrefix = Loader.NIO.load(withPrefix).asSet();
    heapNoPrefix = Loader.NIO.load(without).asSet();
    mappedPrefix = Loader.MAPPED.load(withPrefix).asSet();
    mappedNoPrefix = Loader.MAPPED.load(without).asSet();
    keys = new int[heapPrefix.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = heapPrefix.address(i) ^ 0x80000000; // signed order = address order
    }
    Path rb = RoaringFiles.write(heapPrefix, dir.resolve("ips.roaring"));
    try (FileChannel ch = FileChannel.open(rb, StandardOpenOption.READ)) {
      roaringMapped =
          new ImmutableRoaringBitmap(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()));
    }
    roaringHeap = roaringMapped.toRoaringBitmap();

    SplittableRandom rnd = new SplittableRandom(BenchFiles.SEED + 1);
    int[] a = new int[AddressPool.SIZE];
    for (int i = 0; i < a.length; i++) {
      a[i] = rnd.nextBoolean() ? heapPrefix.address(rnd.nextInt(keys.length)) : rnd.nextInt();
    }
    pool = new AddressPool(a);
    chase = new MemoryChase(Files.size(withPrefix), BenchFiles.SEED);
    for (int x : a) {
      boolean expected = Arrays.binarySearch(keys, x ^ 0x80000000) >= 0;
      if (heapPrefix.contains(x) != expected
          || heapNoPrefix.contains(x) != expected
          || mappedPrefix.contains(x) != expected
          || mappedNoPrefix.contains(x) != expected
          || roaringMapped.contains(x) != expected
          || roaringHeap.contains(x) != expected) {
        throw new IllegalStateException(String.format("answers differ for %08x", x));
      }
    }
  }

  /**
   * Dependent random reads over an array as large as the index (104 MB at 26 M addresses): the cost
   * of one memory access that misses every cache here, the floor under each step of a search.
   */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int chase() {
    return chase.run(AddressPool.BATCH);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  private int contains(IpSet set) {
    int[] a = pool.addresses;
    int from = pool.next();
    int hits = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      hits += set.contains(a[i]) ? 1 : 0;
    }
    return hits;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapPrefix() {
    return contains(heapPrefix);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapNoPrefix() {
    return contains(heapNoPrefix);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedPrefix() {
    return contains(mappedPrefix);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedNoPrefix() {
    return contains(mappedNoPrefix);
  }

  private final int[] batchIn = new int[AddressPool.BATCH];
  private final boolean[] batchOut = new boolean[AddressPool.BATCH];

  /** The batch API, {@code IpSet.containsAll}: lookups interleaved to overlap cache misses. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapPrefixBatch() {
    System.arraycopy(pool.addresses, pool.next(), batchIn, 0, AddressPool.BATCH);
    return heapPrefix.containsAll(batchIn, AddressPool.BATCH, batchOut);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedPrefixBatch() {
    System.arraycopy(pool.addresses, pool.next(), batchIn, 0, AddressPool.BATCH);
    return mappedPrefix.containsAll(batchIn, AddressPool.BATCH, batchOut);
  }

  /** The baseline: {@code Arrays.binarySearch} over the same sorted keys in an int[]. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int binarySearch() {
    int[] a = pool.addresses;
    int from = pool.next();
    int hits = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      hits += Arrays.binarySearch(keys, a[i] ^ 0x80000000) >= 0 ? 1 : 0;
    }
    return hits;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int roaringMapped() {
    int[] a = pool.addresses;
    int from = pool.next();
    int hits = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      hits += roaringMapped.contains(a[i]) ? 1 : 0;
    }
    return hits;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int roaringHeap() {
    int[] a = pool.addresses;
    int from = pool.next();
    int hits = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      hits += roaringHeap.contains(a[i]) ? 1 : 0;
    }
    return hits;
  }
}
