/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import com.maxmind.db.CHMCache;
import com.maxmind.db.Reader;
import io.spindex.gen.Queries;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.net.InetAddress;
import java.util.Map;
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
 * Typed lookups in a City-sized database ({@link CityData}), one thread: the seven {@link
 * CityRecords#FIELDS} of an address as Java values. Spindex: {@code labelValues(labelId(address))}
 * on the index built from the database (heap and mapped; and {@code labelIds} of a batch, then the
 * values of each); MaxMind: {@code Reader.get(address, Map.class)} on the same file ({@code
 * MEMORY_MAPPED}), without and with its {@code CHMCache} (default capacity), the seven values
 * pulled out of the map. Addresses are drawn by range ({@link Queries#weighted} over the index's
 * rows, all hits), a new batch of 1,024 from a pool of 262,144 per invocation; the MaxMind keys are
 * {@code InetAddress} objects made in advance. The setup checks that both give the same values for
 * every address of the pool.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+AlwaysPreTouch"})
public class CityLookupBenchmark {
  @Param("2600000")
  public int ranges;

  private CityData data;
  private IpRanges heap;
  private IpRanges mapped;
  private Reader maxmind;
  private Reader maxmindCached;
  private AddressPool pool;
  private InetAddress[] inet;
  private final Object[] values = new Object[CityRecords.FIELDS.size()];
  private final int[] batchIn = new int[AddressPool.BATCH];
  private final int[] batchOut = new int[AddressPool.BATCH];

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    data = CityData.open(ranges, true);
    heap = Loader.NIO.load(data.index).asRanges();
    mapped = Loader.MAPPED.load(data.index).asRanges();
    maxmind = new Reader(data.mmdb.toFile());
    maxmindCached = new Reader(data.mmdb.toFile(), new CHMCache());
    pool = new AddressPool(Queries.weighted(heap, AddressPool.SIZE, BenchFiles.SEED + 2));
    inet = new InetAddress[AddressPool.SIZE];
    for (int i = 0; i < inet.length; i++) {
      int a = pool.addresses[i];
      inet[i] = RangeData.inet(a);
      if (mapped.labelId(a) != heap.labelId(a)) {
        throw new IllegalStateException(String.format("heap and mapped differ for %08x", a));
      }
    }
    data.check(heap, pool.addresses);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    maxmind.close();
    maxmindCached.close();
    data.close();
  }

  private static int present(Object[] v) {
    int n = 0;
    for (Object o : v) {
      n += o != null ? 1 : 0;
    }
    return n;
  }

  private int spindex(IpRanges r) {
    int[] a = pool.addresses;
    int from = pool.next();
    int found = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      int id = r.labelId(a[i]);
      if (id != IpRanges.NONE) {
        found += present(r.labelValues(id));
      }
    }
    return found;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int spindexHeap() {
    return spindex(heap);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int spindexMapped() {
    return spindex(mapped);
  }

  /**
   * The range search alone, no values: the floor under every typed lookup above, which a faster
   * layout of the values could not go below.
   */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int spindexHeapSearchOnly() {
    int[] a = pool.addresses;
    int from = pool.next();
    int found = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      found += heap.labelId(a[i]) != IpRanges.NONE ? 1 : 0;
    }
    return found;
  }

  /** {@code labelIds} of the batch alone, no values: the floor under {@link #spindexHeapBatch}. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int spindexHeapBatchSearchOnly() {
    System.arraycopy(pool.addresses, pool.next(), batchIn, 0, AddressPool.BATCH);
    return heap.labelIds(batchIn, AddressPool.BATCH, batchOut);
  }

  /** {@code labelIds} of the batch (16 searches in lock step), then each address's values. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int spindexHeapBatch() {
    System.arraycopy(pool.addresses, pool.next(), batchIn, 0, AddressPool.BATCH);
    heap.labelIds(batchIn, AddressPool.BATCH, batchOut);
    int found = 0;
    for (int id : batchOut) {
      if (id != IpRanges.NONE) {
        found += present(heap.labelValues(id));
      }
    }
    return found;
  }

  private int maxmind(Reader r) throws IOException {
    int from = pool.next();
    int found = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      Map<?, ?> m = r.get(inet[i], Map.class);
      if (m != null) {
        found += CityRecords.fields(m, values);
      }
    }
    return found;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int maxmind() throws IOException {
    return maxmind(maxmind);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int maxmindCached() throws IOException {
    return maxmind(maxmindCached);
  }
}
