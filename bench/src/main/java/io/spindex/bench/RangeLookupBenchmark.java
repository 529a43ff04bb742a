/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import com.maxmind.db.CHMCache;
import com.maxmind.db.Reader;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.lionsoul.ip2region.xdb.Searcher;
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
 * Range lookups, single thread, uniformly random addresses (about 90% fall in a range): Spindex
 * label ids on the heap and mapped, single and batch; a plain binary search over the same
 * starts/ends arrays; and, for the label text that a user wants, Spindex {@code label()} next to
 * ip2region (content mode) and MaxMind's reader (both file modes, with and without its node cache).
 * The MaxMind keys are {@code InetAddress} objects made in advance, so only the library's own work
 * is timed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class RangeLookupBenchmark {
  @Param("700000")
  public int count;

  private RangeData data;
  private IpRanges heapPrefix;
  private IpRanges mappedPrefix;
  private int[] starts;
  private int[] ends;
  private int[] labelIds;
  private Searcher ip2region;
  private Reader maxmindMemory;
  private Reader maxmindMemoryCached;
  private Reader maxmindMapped;
  private AddressPool pool;
  private InetAddress[] inet;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    data = RangeData.create(count);
    heapPrefix = Loader.NIO.load(data.index).asRanges();
    mappedPrefix = Loader.MAPPED.load(data.index).asRanges();
    int n = heapPrefix.size();
    starts = new int[n];
    ends = new int[n];
    labelIds = new int[n];
    for (int i = 0; i < n; i++) {
      starts[i] = heapPrefix.start(i) ^ 0x80000000;
      ends[i] = heapPrefix.end(i) ^ 0x80000000;
      labelIds[i] = heapPrefix.labelIdOfRow(i);
    }
    ip2region = Searcher.newWithBuffer(Searcher.loadContentFromFile(data.xdb.toString()));
    maxmindMemory = new Reader(data.mmdb.toFile(), Reader.FileMode.MEMORY);
    maxmindMemoryCached = new Reader(data.mmdb.toFile(), Reader.FileMode.MEMORY, new CHMCache());
    maxmindMapped = new Reader(data.mmdb.toFile(), Reader.FileMode.MEMORY_MAPPED);
    pool = new AddressPool(BenchFiles.randomAddresses(AddressPool.SIZE, BenchFiles.SEED + 2));
    inet = new InetAddress[AddressPool.SIZE];
    for (int i = 0; i < inet.length; i++) {
      int a = pool.addresses[i];
      inet[i] = RangeData.inet(a);
      int expected = heapPrefix.labelId(a);
      if (mappedPrefix.labelId(a) != expected || binarySearch(a) != expected) {
        throw new IllegalStateException(String.format("answers differ for %08x", a));
      }
    }
    data.check(pool.addresses);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    maxmindMemory.close();
    maxmindMemoryCached.close();
    maxmindMapped.close();
    data.close();
  }

  private int labelIds(IpRanges r) {
    int[] a = pool.addresses;
    int from = pool.next();
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += r.labelId(a[i]);
    }
    return sum;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapPrefix() {
    return labelIds(heapPrefix);
  }

  private final int[] batchIn = new int[AddressPool.BATCH];
  private final int[] batchOut = new int[AddressPool.BATCH];

  /** The batch API, {@code IpRanges.labelIds}: lookups interleaved to overlap cache misses. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapPrefixBatch() {
    System.arraycopy(pool.addresses, pool.next(), batchIn, 0, AddressPool.BATCH);
    return heapPrefix.labelIds(batchIn, AddressPool.BATCH, batchOut);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedPrefixBatch() {
    System.arraycopy(pool.addresses, pool.next(), batchIn, 0, AddressPool.BATCH);
    return mappedPrefix.labelIds(batchIn, AddressPool.BATCH, batchOut);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedPrefix() {
    return labelIds(mappedPrefix);
  }

  /** Plain {@code Arrays}-style binary search over int[] starts, then the end check. */
  private int binarySearch(int address) {
    int key = address ^ 0x80000000;
    int lo = 0;
    int hi = starts.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (starts[mid] <= key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    int r = lo - 1;
    return r >= 0 && ends[r] >= key ? labelIds[r] : IpRanges.NONE;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int binarySearch() {
    int[] a = pool.addresses;
    int from = pool.next();
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += binarySearch(a[i]);
    }
    return sum;
  }

  /** The label text, what ip2region and MaxMind hand back: Spindex's {@code label()}. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int labelText() {
    int[] a = pool.addresses;
    int from = pool.next();
    int found = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      found += heapPrefix.label(a[i]) != null ? 1 : 0;
    }
    return found;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int ip2region() throws IOException {
    int[] a = pool.addresses;
    int from = pool.next();
    int found = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      found += ip2region.search(a[i] & 0xFFFFFFFFL) != null ? 1 : 0;
    }
    return found;
  }

  private int maxmind(Reader r) throws IOException {
    int from = pool.next();
    int found = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      Map<?, ?> m = r.get(inet[i], Map.class);
      found += m != null ? 1 : 0;
    }
    return found;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int maxmindMemory() throws IOException {
    return maxmind(maxmindMemory);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int maxmindMemoryCached() throws IOException {
    return maxmind(maxmindMemoryCached);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int maxmindMapped() throws IOException {
    return maxmind(maxmindMapped);
  }
}
