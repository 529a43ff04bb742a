/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.gen.Queries;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.util.Arrays;
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
 * IPv4 range searches side by side against the anchors' class, single thread, the label ids of
 * {@value AddressPool#BATCH} addresses an invocation: Spindex's search ({@code labelId}, {@code
 * labelIds}; heap and {@code mapped}), a static B+-tree of PlanB's class written for the benchmark
 * ({@link StaticTree4}, single and batch), {@link Arrays#binarySearch} over the starts, ip2region's
 * searcher (content mode, to the region text it hands back), and two floors: {@code readAnswer}
 * reads each address's label id from its own row, found beforehand (what a lookup must read at
 * least), {@code chase} makes dependent random reads over an array as large as the index (the
 * machine's memory latency). Every search is checked against the binary search on every address of
 * the pool before timing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class Ipv4SearchBenchmark {
  @Param("700000")
  public int count;

  @Param({"real", "uniform"})
  public String shape;

  @Param({"ranges", "uniform"})
  public String query;

  private RangeData data;
  private IpRanges heap;
  private IpRanges mapped;
  private StaticTree4 tree;
  private int[] starts;
  private int[] labelIds;
  private int[] rows;
  private Searcher ip2region;
  private AddressPool pool;
  private MemoryChase chase;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    data = RangeData.create(count, RangeGenerator.Shape.parse(shape));
    heap = Loader.NIO.load(data.index).asRanges();
    mapped = Loader.MAPPED.load(data.index).asRanges();
    int n = heap.size();
    starts = new int[n];
    labelIds = new int[n];
    for (int i = 0; i < n; i++) {
      starts[i] = heap.start(i) ^ Integer.MIN_VALUE;
      labelIds[i] = heap.labelIdOfRow(i);
    }
    tree = new StaticTree4(starts, labelIds, n);
    ip2region = Searcher.newWithBuffer(Searcher.loadContentFromFile(data.xdb.toString()));
    int[] q =
        query.equals("uniform")
            ? Queries.uniform(AddressPool.SIZE, BenchFiles.SEED + 2)
            : Queries.weighted(heap, AddressPool.SIZE, BenchFiles.SEED + 2);
    pool = new AddressPool(q);
    int[][] batches = new int[3][q.length];
    heap.labelIds(q, q.length, batches[0]);
    mapped.labelIds(q, q.length, batches[1]);
    tree.labelIds(q, q.length, batches[2]);
    rows = new int[q.length];
    for (int i = 0; i < q.length; i++) {
      int expected = binarySearch(q[i]);
      rows[i] = heap.row(q[i]);
      int fromRow = rows[i] < 0 ? IpRanges.NONE : labelIds[rows[i]];
      if (heap.labelId(q[i]) != expected
          || mapped.labelId(q[i]) != expected
          || tree.labelId(q[i]) != expected
          || fromRow != expected
          || batches[0][i] != expected
          || batches[1][i] != expected
          || batches[2][i] != expected) {
        throw new IllegalStateException(String.format("searches differ for %08x", q[i]));
      }
    }
    data.check(q);
    chase = new MemoryChase(java.nio.file.Files.size(data.index), BenchFiles.SEED);
    System.out.printf("%n%,d rows; the tree's inner levels %,d bytes%n", n, tree.innerBytes());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    data.close();
  }

  private int binarySearch(int address) {
    int i = Arrays.binarySearch(starts, address ^ Integer.MIN_VALUE);
    int row = i >= 0 ? i : -i - 2;
    return row < 0 ? IpRanges.NONE : labelIds[row];
  }

  private final int[] batchIn = new int[AddressPool.BATCH];
  private final int[] batchOut = new int[AddressPool.BATCH];

  private int single(IpRanges r) {
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
  public int heapSingle() {
    return single(heap);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapBatch() {
    System.arraycopy(pool.addresses, pool.next(), batchIn, 0, AddressPool.BATCH);
    return heap.labelIds(batchIn, AddressPool.BATCH, batchOut);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedSingle() {
    return single(mapped);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedBatch() {
    System.arraycopy(pool.addresses, pool.next(), batchIn, 0, AddressPool.BATCH);
    return mapped.labelIds(batchIn, AddressPool.BATCH, batchOut);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int treeSingle() {
    int[] a = pool.addresses;
    int from = pool.next();
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += tree.labelId(a[i]);
    }
    return sum;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int treeBatch() {
    System.arraycopy(pool.addresses, pool.next(), batchIn, 0, AddressPool.BATCH);
    return tree.labelIds(batchIn, AddressPool.BATCH, batchOut);
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

  /** Each address's label id read from its own row, found beforehand: no search. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int readAnswer() {
    int[] r = rows;
    int from = pool.next();
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      int row = r[i];
      sum += row < 0 ? IpRanges.NONE : labelIds[row];
    }
    return sum;
  }

  /** Dependent random reads over an array of the index's size: one cache miss each, at most. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int chase() {
    return chase.run(AddressPool.BATCH);
  }
}
