/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import com.maxmind.db.CHMCache;
import com.maxmind.db.DatabaseRecord;
import com.maxmind.db.InvalidNetworkException;
import com.maxmind.db.Networks;
import com.maxmind.db.Reader;
import io.spindex.builder.BuildReport;
import io.spindex.builder.IpRangeBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Building a range index from a City-sized MaxMind database ({@link CityData}: real-shaped ranges,
 * City-shaped records shared by about nine networks each, pointers, 28-bit records), wall time of
 * one complete build per operation (single shot): {@code spindex build ranges city.mmdb --field
 * ...} of the seven {@link CityRecords#FIELDS} ({@code IpRangeBuilder.mmdbFields}), against what
 * MaxMind's reader alone takes to hand over the same data: {@code networks(Map.class)} over the
 * same file (its default: {@code MEMORY_MAPPED}, no cache, as the build opens it), the seven values
 * pulled out of each network's record (and, for reference, the same with the reader's {@code
 * CHMCache}). Run with {@code -prof io.spindex.bench.DataSizeProfiler} for the sizes ({@code
 * data.mmdb}, {@code data.index}) and counts.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx8g"})
public class MmdbBuildBenchmark {
  @Param("2600000")
  public int ranges;

  private CityData data;
  private Path out;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    data = CityData.open(ranges, false);
    out = BenchFiles.scratch("city-build").resolve("city.spx");
    DataSizeProfiler.put("mmdb", data.stats.mmdbBytes / 1e6, "MB");
    DataSizeProfiler.put("networks", data.stats.networks, "networks");
    DataSizeProfiler.put("records", data.stats.records, "records");
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(out.getParent());
    data.close();
  }

  @Benchmark
  public BuildReport spindex() throws IOException {
    BuildReport r =
        new IpRangeBuilder()
            .mmdbFields(CityRecords.FIELDS, false)
            .build(Collections.singletonList(data.mmdb), out);
    DataSizeProfiler.put("index", Files.size(out) / 1e6, "MB");
    return r;
  }

  /** MaxMind's reader alone: every network and the seven values of its record. */
  @Benchmark
  public long maxmindNetworks() throws IOException, InvalidNetworkException {
    try (Reader reader = new Reader(data.mmdb.toFile())) {
      return networks(reader);
    }
  }

  /**
   * The same with the reader's {@code CHMCache} (default capacity): not the goal's baseline (the
   * build opens its reader without a cache), but what a cache saves on City-shaped records, most of
   * whose values are pointers to values shared between records (keys, countries, names).
   */
  @Benchmark
  public long maxmindNetworksCached() throws IOException, InvalidNetworkException {
    try (Reader reader = new Reader(data.mmdb.toFile(), new CHMCache())) {
      return networks(reader);
    }
  }

  @SuppressWarnings("rawtypes") // the reader decodes into the raw Map.class
  private static long networks(Reader reader) throws IOException, InvalidNetworkException {
    long sum = 0;
    Object[] values = new Object[CityRecords.FIELDS.size()];
    for (Networks<Map> it = reader.networks(Map.class); it.hasNext(); ) {
      DatabaseRecord<Map> r = it.next();
      sum += CityRecords.fields(r.getData(), values) + r.getNetwork().getPrefixLength();
    }
    return sum;
  }
}
