/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * Count mode, second step: sums the per-task counts ({@code OUT/partial-counts/}) per label and
 * writes {@code OUT/part-00000}: {@code label<TAB>lines}, most lines first, ties by label. At most
 * one row per label of the index reaches the driver. The partial counts are deleted afterwards.
 */
final class CountMerge {
  private CountMerge() {}

  /** Returns the rows written, as {label, lines}. */
  static List<Object[]> merge(JavaSparkContext sc, String output) throws IOException {
    Path partials = new Path(output, Route.PARTIAL_COUNTS.dir);
    FileSystem fs = partials.getFileSystem(sc.hadoopConfiguration());
    List<Tuple2<String, Long>> sums = new ArrayList<>();
    if (fs.exists(partials)) {
      sums =
          sc.textFile(partials.toString())
              .mapToPair(
                  line -> {
                    int tab = line.lastIndexOf('\t');
                    return new Tuple2<>(
                        line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
                  })
              .reduceByKey(Long::sum)
              .collect();
    }
    List<Object[]> rows = new ArrayList<>();
    for (Tuple2<String, Long> t : sums) {
      rows.add(new Object[] {t._1(), t._2()});
    }
    rows.sort(
        (a, b) -> {
          int c = Long.compare((Long) b[1], (Long) a[1]);
          return c != 0 ? c : ((String) a[0]).compareTo((String) b[0]);
        });
    try (OutputStream out = fs.create(new Path(output, "part-00000"), false)) {
      for (Object[] r : rows) {
        out.write((r[0] + "\t" + r[1] + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    fs.delete(partials, true);
    return rows;
  }
}
