/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import com.maxmind.db.Reader;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * A City-sized MaxMind database for the benchmarks of the databases users have: {@code ranges}
 * real-shaped generated ranges ({@link RangeGenerator.Shape#REAL}) with City-shaped records shared
 * the way a City database shares them ({@link CityRecords}), written as a {@code .mmdb} file with
 * pointers and 28-bit records ({@link MmdbWriter#writeRecords}), and the Spindex index built from
 * it with the seven {@link CityRecords#FIELDS} ({@code spindex build ranges city.mmdb --field
 * ...}). 2,600,000 ranges make about 3.3 million networks and 380,000 records in use; the networks
 * grow a little faster than the ranges (a range that is no aligned block is several networks).
 *
 * <p>Made once per size and kept for the next fork of the same JMH run, in {@code
 * spindex-city-RANGES} under {@code spindex.bench.tmp}: {@code scripts/bench} deletes that
 * directory with the group's scratch directory; a run by hand should give {@code
 * -Dspindex.bench.tmp} a directory to delete afterwards.
 */
final class CityData implements AutoCloseable {
  final Path dir;
  final Path mmdb;
  final Path index;
  final Stats stats;

  /** What a written database holds. */
  static final class Stats {
    int ranges;
    int rows;
    long networks;
    int records;
    long mmdbBytes;

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%,d generated ranges, %,d rows of one record, %,d networks, %,d records, %.1f MB",
          ranges,
          rows,
          networks,
          records,
          mmdbBytes / 1e6);
    }
  }

  private CityData(Path dir, Path mmdb, Path index, Stats stats) {
    this.dir = dir;
    this.mmdb = mmdb;
    this.index = index;
    this.stats = stats;
  }

  /**
   * The database of {@code ranges} generated ranges, and the index built from it when {@code
   * withIndex} (checked against MaxMind's reader on 20,000 addresses): made, or found made by an
   * earlier fork.
   */
  static CityData open(int ranges, boolean withIndex) throws IOException {
    String base = System.getProperty("spindex.bench.tmp", System.getProperty("java.io.tmpdir"));
    Path dir = Paths.get(base).resolve("spindex-city-" + ranges);
    Path mmdb = dir.resolve("city.mmdb");
    Path done = dir.resolve("_complete");
    Properties p = new Properties();
    if (Files.exists(done)) {
      try (InputStream in = Files.newInputStream(done)) {
        p.load(in);
      }
    } else {
      BenchFiles.delete(dir);
      Files.createDirectories(dir);
      Path text = BenchFiles.rangeText(dir, ranges, RangeGenerator.Shape.REAL);
      Path textIndex = BenchFiles.rangeIndex(text, dir.resolve("ranges.spx"));
      RangeTable table = RangeTable.of(Loader.NIO.load(textIndex).asRanges());
      Files.delete(text);
      Files.delete(textIndex);
      Stats s = write(table, mmdb);
      p.setProperty("ranges", Integer.toString(s.ranges));
      p.setProperty("rows", Integer.toString(s.rows));
      p.setProperty("networks", Long.toString(s.networks));
      p.setProperty("records", Integer.toString(s.records));
      try (OutputStream o = Files.newOutputStream(dir.resolve("_complete.tmp"))) {
        p.store(o, null);
      }
      Files.move(dir.resolve("_complete.tmp"), done);
    }
    Stats stats = new Stats();
    stats.ranges = Integer.parseInt(p.getProperty("ranges"));
    stats.rows = Integer.parseInt(p.getProperty("rows"));
    stats.networks = Long.parseLong(p.getProperty("networks"));
    stats.records = Integer.parseInt(p.getProperty("records"));
    stats.mmdbBytes = Files.size(mmdb);
    System.err.println("city database: " + stats);
    Path index = dir.resolve("city.spx");
    if (withIndex && !Files.exists(index)) {
      Path tmp = buildIndex(mmdb, dir.resolve("city.spx.tmp"));
      new CityData(dir, mmdb, tmp, stats)
          .check(Loader.NIO.load(tmp).asRanges(), BenchFiles.randomAddresses(20_000, 7));
      Files.move(tmp, index);
    }
    return new CityData(dir, mmdb, withIndex ? index : null, stats);
  }

  /** Writes the City database of the generated ranges {@code generated} to {@code mmdb}. */
  static Stats write(RangeTable generated, Path mmdb) throws IOException {
    CityRecords r = CityRecords.assign(generated, BenchFiles.SEED);
    Stats s = new Stats();
    s.ranges = generated.size();
    s.rows = r.table.size();
    s.records = r.records.size();
    s.networks = MmdbWriter.writeRecords(r.table, r.records, "Spindex-Bench-City", mmdb);
    s.mmdbBytes = Files.size(mmdb);
    return s;
  }

  /** {@code spindex build ranges MMDB --field ...} of the seven fields, to {@code out}. */
  static Path buildIndex(Path mmdb, Path out) throws IOException {
    new IpRangeBuilder()
        .mmdbFields(CityRecords.FIELDS, false)
        .createdMillis(0)
        .build(Collections.singletonList(mmdb), out);
    return out;
  }

  /** Fails unless the index and MaxMind's reader give the same seven values for each address. */
  void check(IpRanges spx, int[] addresses) throws IOException {
    try (Reader mm = new Reader(mmdb.toFile())) {
      Object[] values = new Object[CityRecords.FIELDS.size()];
      for (int a : addresses) {
        int id = spx.labelId(a);
        Map<?, ?> m = mm.get(RangeData.inet(a), Map.class);
        Object[] expected = null;
        if (m != null) {
          CityRecords.fields(m, values);
          expected = CityRecords.normalized(values);
        }
        Object[] got = id == IpRanges.NONE ? null : spx.labelValues(id);
        if (!Arrays.equals(expected, got)) {
          throw new IllegalStateException(
              String.format(
                  "address %08x: spindex %s, maxmind %s",
                  a, Arrays.toString(got), Arrays.toString(expected)));
        }
      }
    }
  }

  /** Keeps the files for the next fork (see the class comment). */
  @Override
  public void close() {}
}
