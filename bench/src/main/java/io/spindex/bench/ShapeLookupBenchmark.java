/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import com.maxmind.db.Reader;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.gen.Queries;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
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
 * Range lookups by data shape, single thread: {@code count} ranges of the uniform shape (random
 * cuts of the whole space) or of the real shape ({@code spindex gen ranges --shape real}: dense in
 * a few /8s, sparse elsewhere, small ranges, labels with a long tail), queried by addresses uniform
 * over the 2^32 space or drawn by range ({@link Queries#weighted}: every address in a range, each
 * range as likely as any other, so the dense regions get their share). Spindex single and batch
 * lookups ({@code labelId}, {@code labelIds} of {@value AddressPool#BATCH}), heap and mapped, to
 * the label id and to the label text, beside ip2region (content mode) and MaxMind's reader ({@code
 * MEMORY}) on the same ranges; a {@code chase} of dependent random reads over an array as large as
 * the index gives the machine's memory latency, the floor of a lookup that misses the caches. The
 * {@code noSubTables} rows look up in the same ranges built without the /24 sub-tables ({@code
 * prefix24}), what a lookup costs with the /16 prefix table alone. The anchors' class: a static
 * B+-tree of PlanB's class written for the benchmark ({@link StaticTree4}, single and batch, its
 * nodes counted in scalar code and, {@code vector*}, in one SIMD compare of the Vector API, whose
 * incubating module the forks add) and {@link Arrays#binarySearch} over the starts, which every
 * search is checked against on every address of the pool; {@code readAnswer} reads each address's
 * label id from its own row, found beforehand, what a lookup must read at least.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgs = "--add-modules=jdk.incubator.vector",
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class ShapeLookupBenchmark {
  @Param("700000")
  public int count;

  @Param({"uniform", "real"})
  public String shape;

  @Param({"uniform", "ranges"})
  public String query;

  private RangeData data;
  private IpRanges heap;
  private IpRanges mapped;
  private IpRanges noSubTables;
  private Searcher ip2region;
  private Reader maxmind;
  private AddressPool pool;
  private InetAddress[] inet;
  private MemoryChase chase;

  /** The heap index's flipped starts and label ids, a row each; the tree over them. */
  private int[] starts;

  private int[] labelIds;
  private StaticTree4 tree;
  private StaticTree4 vectorTree;

  /** The row each address of the pool falls in (-1 for none). */
  private int[] rows;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    data = RangeData.create(count, RangeGenerator.Shape.parse(shape));
    heap = Loader.NIO.load(data.index).asRanges();
    mapped = Loader.MAPPED.load(data.index).asRanges();
    Path plain = data.dir.resolve("no-sub-tables.spx");
    new IpRangeBuilder()
        .delimiter('|')
        .subTables(0, 0)
        .createdMillis(0)
        .build(List.of(data.text), plain);
    noSubTables = Loader.NIO.load(plain).asRanges();
    ip2region = Searcher.newWithBuffer(Searcher.loadContentFromFile(data.xdb.toString()));
    maxmind = new Reader(data.mmdb.toFile(), Reader.FileMode.MEMORY);
    int[] q =
        query.equals("uniform")
            ? Queries.uniform(AddressPool.SIZE, BenchFiles.SEED + 2)
            : Queries.weighted(heap, AddressPool.SIZE, BenchFiles.SEED + 2);
    pool = new AddressPool(q);
    inet = new InetAddress[q.length];
    for (int i = 0; i < q.length; i++) {
      inet[i] = RangeData.inet(q[i]);
      if (mapped.labelId(q[i]) != heap.labelId(q[i])
          || noSubTables.labelId(q[i]) != heap.labelId(q[i])) {
        throw new IllegalStateException(
            String.format("heap, mapped and no-sub-tables differ for %08x", q[i]));
      }
    }
    int[] batch = new int[q.length];
    heap.labelIds(q, q.length, batch);
    for (int i = 0; i < q.length; i++) {
      if (batch[i] != heap.labelId(q[i])) {
        throw new IllegalStateException(String.format("batch and single differ for %08x", q[i]));
      }
    }
    int n = heap.size();
    starts = new int[n];
    labelIds = new int[n];
    for (int i = 0; i < n; i++) {
      starts[i] = heap.start(i) ^ Integer.MIN_VALUE;
      labelIds[i] = heap.labelIdOfRow(i);
    }
    tree = new StaticTree4(starts, labelIds, n, false);
    // The Vector API's tree only where the fork has its module (@Fork's jvmArgs; a command line's
    // -jvmArgs replaces them): vectorSingle and vectorBatch say so otherwise.
    vectorTree = StaticTree4.VECTOR_API ? new StaticTree4(starts, labelIds, n, true) : tree;
    tree.labelIds(q, q.length, batch);
    int[] vectorBatch = new int[q.length];
    vectorTree.labelIds(q, q.length, vectorBatch);
    rows = new int[q.length];
    for (int i = 0; i < q.length; i++) {
      int expected = binarySearch(q[i]);
      rows[i] = heap.row(q[i]);
      if (heap.labelId(q[i]) != expected
          || tree.labelId(q[i]) != expected
          || vectorTree.labelId(q[i]) != expected
          || batch[i] != expected
          || vectorBatch[i] != expected
          || (rows[i] < 0 ? IpRanges.NONE : labelIds[rows[i]]) != expected) {
        throw new IllegalStateException(
            String.format("the binary search, the B+-tree or the rows differ for %08x", q[i]));
      }
    }
    data.check(q);
    chase = new MemoryChase(java.nio.file.Files.size(data.index), BenchFiles.SEED);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    maxmind.close();
    data.close();
  }

  private static int single(IpRanges r, AddressPool pool) {
    int[] a = pool.addresses;
    int from = pool.next();
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += r.labelId(a[i]);
    }
    return sum;
  }

  private final int[] batchIn = new int[AddressPool.BATCH];
  private final int[] batchOut = new int[AddressPool.BATCH];

  private int batch(IpRanges r) {
    System.arraycopy(pool.addresses, pool.next(), batchIn, 0, AddressPool.BATCH);
    return r.labelIds(batchIn, AddressPool.BATCH, batchOut);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapSingle() {
    return single(heap, pool);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapBatch() {
    return batch(heap);
  }

  /** The same lookups in the index built without /24 sub-tables. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapSingleNoSubTables() {
    return single(noSubTables, pool);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapBatchNoSubTables() {
    return batch(noSubTables);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedSingle() {
    return single(mapped, pool);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedBatch() {
    return batch(mapped);
  }

  /** The label text, what ip2region and MaxMind hand back: {@code label()} one at a time. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapLabelText() {
    int[] a = pool.addresses;
    int from = pool.next();
    int found = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      found += heap.label(a[i]) != null ? 1 : 0;
    }
    return found;
  }

  /** The label text through the batch API: {@code labelIds}, then {@code labelText} per id. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapBatchLabelText() {
    batch(heap);
    int found = 0;
    for (int i = 0; i < AddressPool.BATCH; i++) {
      int id = batchOut[i];
      found += id != IpRanges.NONE && heap.labelText(id) != null ? 1 : 0;
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

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int maxmindMemory() throws IOException {
    int from = pool.next();
    int found = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      Map<?, ?> m = maxmind.get(inet[i], Map.class);
      found += m != null ? 1 : 0;
    }
    return found;
  }

  /** The last row whose start is at most the address: {@link Arrays#binarySearch}, its label. */
  private int binarySearch(int address) {
    int i = Arrays.binarySearch(starts, address ^ Integer.MIN_VALUE);
    int row = i >= 0 ? i : -i - 2;
    return row < 0 ? IpRanges.NONE : labelIds[row];
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

  /** The B+-tree, its nodes counted by the Vector API, one address at a time. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int vectorSingle() {
    StaticTree4.requireVectorApi();
    int[] a = pool.addresses;
    int from = pool.next();
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += vectorTree.labelId(a[i]);
    }
    return sum;
  }

  /** The B+-tree, its nodes counted by the Vector API, in batches level by level. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int vectorBatch() {
    StaticTree4.requireVectorApi();
    System.arraycopy(pool.addresses, pool.next(), batchIn, 0, AddressPool.BATCH);
    return vectorTree.labelIds(batchIn, AddressPool.BATCH, batchOut);
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
