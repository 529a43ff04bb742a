/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.builder.Assembled;
import io.spindex.builder.ProductPart;
import io.spindex.ep.feed.EpHeader;
import io.spindex.ep.feed.EpSplitLines;
import io.spindex.ep.feed.ProductColumns;
import io.spindex.hadoop.HadoopIo;
import io.spindex.hadoop.LineChunk;
import io.spindex.job.BuildIndexDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.spark.api.java.JavaNewHadoopRDD;

/**
 * build-index {@code --kind products}: the product index of {@code spindex build products}, on
 * Spark. The driver reads each feed's header line (a header without {@code id}, {@code price_pc},
 * {@code shipping} or an {@code --int-field} fails here, before any task); the executors check and
 * parse their splits' rows with the command's own row sink; the rows meet on the driver in input
 * order, where they are sorted by id hash and a repeated id, as in the command, is a {@code
 * duplicate-id} reject of the later row (its record goes to {@code _rejects/part-duplicates}).
 */
final class BuildProductsJob {
  private BuildProductsJob() {}

  static JobResult build(BuildIndexJob.Run r, JavaNewHadoopRDD<LongWritable, LineChunk> in)
      throws IOException {
    List<String> intFields = r.b.o.get(BuildIndexDefinition.INT_FIELD);
    int maxLineBytes = r.b.o.get(BuildIndexDefinition.MAX_LINE_BYTES).intValue();
    List<String> sources = new ArrayList<>();
    List<EpHeader> headers = new ArrayList<>();
    for (FileStatus f : r.b.files) {
      String name = f.getPath().toString();
      try (InputStream head = HadoopIo.open(r.b.conf, f.getPath())) {
        EpHeader h = EpSplitLines.readHeader(head, name);
        new ProductColumns(h, intFields, name); // the fields the index needs are there
        headers.add(h);
      }
      sources.add(name);
    }
    Map<String, Long> rejectCounts = new TreeMap<>();
    List<ProductPart> parts =
        r.inOrder(
            in,
            (file, name, start, length) ->
                new ProductPart.Parser(
                    file, name, headers.get(file), intFields, maxLineBytes, start),
            ProductPart.EXPECTED,
            rejectCounts);
    Assembled index =
        BuildIndexDefinition.productBuilder(r.b.o)
            .assembleParts(parts, headers.get(0), sources, r.b.sourceBytes, r.b.sourceDigest());
    long duplicates = index.counts.get("duplicates");
    if (duplicates > 0) {
      rejectCounts.merge("duplicate-id", duplicates, Long::sum);
      Path file = new Path(r.b.rejects(), "part-duplicates");
      try (OutputStream out = file.getFileSystem(r.b.conf).create(file, true)) {
        out.write(index.rejectRecords);
      }
    }
    r.b.phase("sort ms");
    return r.finish(index, rejectCounts, r.b.report(parts.size()));
  }
}
