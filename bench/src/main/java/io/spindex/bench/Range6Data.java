/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import com.maxmind.db.Reader;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import io.spindex.text.Ipv6Text;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;

/**
 * One set of generated IPv6 ranges in every format measured: the CIDR text ({@link
 * BenchFiles#range6Text}), a Spindex index with the prefix table, an ip2region 3.x IPv6 xdb file
 * and an IPv6 MaxMind DB, both written from the Spindex index; and the two pools of lookup keys the
 * benchmarks walk. {@link #check} proves that all of them give the same answers before anything is
 * timed. The IPv6 counterpart of {@link RangeData}.
 */
final class Range6Data implements AutoCloseable {
  /** Addresses of each pool checked against every library when the data is made. */
  static final int CHECKED = 20_000;

  /** Seeds of the benchmark pools (the IPv4 benchmarks' pool uses {@code SEED + 2}). */
  static final long RANGES_SEED = BenchFiles.SEED + 3;

  static final long UNIFORM_SEED = BenchFiles.SEED + 4;

  final Path dir;
  final Path text;
  final Path index;
  final Path xdb;
  final Path mmdb;
  final Range6Table table;

  private Range6Data(Path dir, Path text, Path index, Path xdb, Path mmdb, Range6Table table) {
    this.dir = dir;
    this.text = text;
    this.index = index;
    this.xdb = xdb;
    this.mmdb = mmdb;
    this.table = table;
  }

  /** {@code lines} IPv6 CIDR lines, indexed and written in every format, then checked. */
  static Range6Data create(int lines) throws IOException {
    return create(lines, BenchFiles.IPV6_CHUNK);
  }

  /**
   * The IPv6 ranges of a published database instead of generated ones: {@code source} is range text
   * or a MaxMind DB file that {@code spindex build ranges} reads (overlaps flattened, narrowest
   * first); its IPv4 ranges are left out.
   */
  static Range6Data fromSource(Path source) throws IOException {
    return create(source, -1, 0);
  }

  /** As {@link #create(int)}, the text generated in chunks of at most {@code chunk} rows. */
  static Range6Data create(int lines, int chunk) throws IOException {
    return create(null, lines, chunk);
  }

  private static Range6Data create(Path source, int lines, int chunk) throws IOException {
    Path dir = BenchFiles.scratch("ranges6");
    try {
      Path text = source != null ? source : BenchFiles.range6Text(dir, lines, chunk);
      Path index = dir.resolve("ranges6.spx");
      if (source != null) {
        // Only the IPv6 ranges, in an index of their own: the file the benchmarks time.
        Path all = dir.resolve("source.spx");
        BenchFiles.publishedIndex(source, all);
        text = dir.resolve("ranges6.txt");
        Range6Table published = Range6Table.of(Loader.NIO.load(all).asRanges());
        published.writeText(text);
        lines = published.size();
      }
      new IpRangeBuilder().createdMillis(0).build(Collections.singletonList(text), index);
      IpRanges r = Loader.NIO.load(index).asRanges();
      if (r.ipv6RangeCount() != lines || r.size() != 0) {
        throw new IllegalStateException(
            "expected "
                + lines
                + " IPv6 ranges, the index has "
                + r.ipv6RangeCount()
                + " and IPv4 "
                + r.size());
      }
      Range6Table table = Range6Table.of(r);
      Path xdb = dir.resolve("ranges6.xdb");
      Ip2RegionXdb.writeIpv6(table, xdb);
      Path mmdb = dir.resolve("ranges6.mmdb");
      MmdbWriter.writeIpv6(table, mmdb);
      Range6Data d = new Range6Data(dir, text, index, xdb, mmdb, table);
      d.check(d.pool("ranges"), CHECKED);
      d.check(d.pool("uniform"), CHECKED);
      return d;
    } catch (IOException | RuntimeException e) {
      BenchFiles.delete(dir);
      throw e;
    }
  }

  /** The benchmark pool {@code ranges} (weighted by ranges) or {@code uniform} (2000::/3). */
  Address6Pool pool(String query) {
    switch (query) {
      case "ranges":
        return Address6Pool.inRanges(table, RANGES_SEED);
      case "uniform":
        return Address6Pool.uniform(UNIFORM_SEED);
      default:
        throw new IllegalArgumentException("query must be 'ranges' or 'uniform', not " + query);
    }
  }

  /**
   * Fails unless Spindex (heap and mapped), a plain search of the ranges, ip2region 3.x and MaxMind
   * agree on the label of the first {@code n} addresses of the pool.
   */
  void check(Address6Pool pool, int n) throws IOException {
    check(pool.hi, pool.lo, n);
  }

  /** As {@link #check(Address6Pool, int)}, for the first {@code n} addresses {@code (hi, lo)}. */
  void check(long[] his, long[] los, int n) throws IOException {
    IpRanges heap = Loader.NIO.load(index).asRanges();
    IpRanges mapped = Loader.MAPPED.load(index).asRanges();
    Object ip2r = Ip2Region3.openContent(xdb);
    try (Reader mm = new Reader(mmdb.toFile(), Reader.FileMode.MEMORY)) {
      for (int i = 0; i < n; i++) {
        long hi = his[i];
        long lo = los[i];
        String expected = table.label(hi, lo);
        String fromHeap = heap.label(hi, lo);
        String fromMapped = mapped.label(hi, lo);
        String fromIp2r = Ip2Region3.search(ip2r, Address6Pool.bytes(hi, lo));
        if (Ip2RegionXdb.GAP.equals(fromIp2r)) {
          fromIp2r = null;
        }
        String fromMm = RangeData.labelOf(mm.get(Address6Pool.inet(hi, lo), Map.class));
        if (!Objects.equals(expected, fromHeap)
            || !Objects.equals(expected, fromMapped)
            || !Objects.equals(expected, fromIp2r)
            || !Objects.equals(expected, fromMm)) {
          throw new IllegalStateException(
              String.format(
                  "address %s: ranges '%s', spindex heap '%s', mapped '%s', ip2region '%s',"
                      + " maxmind '%s'",
                  Ipv6Text.format(hi, lo), expected, fromHeap, fromMapped, fromIp2r, fromMm));
        }
      }
    }
  }

  @Override
  public void close() {
    BenchFiles.delete(dir);
  }
}
