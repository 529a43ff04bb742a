/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import com.maxmind.db.Reader;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.lionsoul.ip2region.xdb.Searcher;

/**
 * One set of generated ranges in every format measured: the range text, a Spindex index, an
 * ip2region xdb file and a MaxMind DB file written from the Spindex index. {@link #check} proves
 * that all of them give the same answers before anything is timed.
 */
final class RangeData implements AutoCloseable {
  final Path dir;
  final Path text;
  final Path index;
  final Path xdb;
  final Path mmdb;

  private RangeData(Path dir, Path text, Path index, Path xdb, Path mmdb) {
    this.dir = dir;
    this.text = text;
    this.index = index;
    this.xdb = xdb;
    this.mmdb = mmdb;
  }

  static RangeData create(int count) throws IOException {
    return create(count, RangeGenerator.Shape.UNIFORM);
  }

  static RangeData create(int count, RangeGenerator.Shape shape) throws IOException {
    Path dir = BenchFiles.scratch("ranges");
    Path text = BenchFiles.rangeText(dir, count, shape);
    Path index = BenchFiles.rangeIndex(text, dir.resolve("ranges.spx"));
    RangeTable table = RangeTable.of(Loader.NIO.load(index).asRanges());
    Path xdb = dir.resolve("ranges.xdb");
    Ip2RegionXdb.write(table, xdb);
    Path mmdb = dir.resolve("ranges.mmdb");
    MmdbWriter.write(table, mmdb);
    RangeData d = new RangeData(dir, text, index, xdb, mmdb);
    d.check(BenchFiles.randomAddresses(20_000, 7));
    return d;
  }

  /** Fails unless Spindex, ip2region and MaxMind agree on the label of every address given. */
  void check(int[] addresses) throws IOException {
    IpRanges spx = Loader.NIO.load(index).asRanges();
    Searcher ip2r = Searcher.newWithBuffer(Searcher.loadContentFromFile(xdb.toString()));
    try (Reader mm = new Reader(mmdb.toFile(), Reader.FileMode.MEMORY)) {
      for (int a : addresses) {
        String expected = spx.label(a);
        String fromIp2r = ip2r.search(a & 0xFFFFFFFFL);
        if (Ip2RegionXdb.GAP.equals(fromIp2r)) {
          fromIp2r = null;
        }
        String fromMm = labelOf(mm.get(inet(a), Map.class));
        if (!Objects.equals(expected, fromIp2r) || !Objects.equals(expected, fromMm)) {
          throw new IllegalStateException(
              String.format(
                  "address %08x: spindex '%s', ip2region '%s', maxmind '%s'",
                  a, expected, fromIp2r, fromMm));
        }
      }
    }
  }

  static String labelOf(Map<?, ?> record) {
    return record == null ? null : (String) record.get("label");
  }

  static InetAddress inet(int a) throws IOException {
    return InetAddress.getByAddress(
        new byte[] {(byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8), (byte) a});
  }

  @Override
  public void close() {
    BenchFiles.delete(dir);
  }
}
