/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.gen.RangeGenerator;
import io.spindex.index.load.Loader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Writes a City-shaped MaxMind database of generated real-shaped ranges (as the City benchmarks
 * use: nested records, GeoLite2 City's fields), for scripts/bench-update: {@code java -cp
 * benchmarks.jar io.spindex.bench.CityMmdb RANGES OUT.mmdb [SEED]}. Prints the {@code --field}
 * options that build the seven fields; a different seed gives a changed database of the same shape.
 */
public final class CityMmdb {
  private CityMmdb() {}

  public static void main(String[] args) throws Exception {
    int ranges = Integer.parseInt(args[0]);
    Path out = Paths.get(args[1]).toAbsolutePath();
    long seed = args.length > 2 ? Long.parseLong(args[2]) : BenchFiles.SEED;
    Path dir = Files.createTempDirectory(out.getParent(), "city-");
    try {
      Path text = BenchFiles.rangeText(dir, ranges, RangeGenerator.Shape.REAL);
      Path index = BenchFiles.rangeIndex(text, dir.resolve("ranges.spx"));
      RangeTable table = RangeTable.of(Loader.NIO.load(index).asRanges());
      CityRecords r = CityRecords.assign(table, seed);
      MmdbWriter.writeRecords(r.table, r.records, "Spindex-Bench-City", out);
    } finally {
      BenchFiles.delete(dir);
    }
    StringBuilder fields = new StringBuilder();
    for (String f : CityRecords.FIELDS) {
      fields.append(fields.length() == 0 ? "" : " ").append("--field ").append(f);
    }
    System.out.println(fields);
  }
}
