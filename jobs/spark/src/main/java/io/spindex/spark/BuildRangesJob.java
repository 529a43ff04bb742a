/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.builder.Assembled;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.RangePart;
import io.spindex.hadoop.HadoopIo;
import io.spindex.hadoop.LineChunk;
import io.spindex.job.JobArgs;
import io.spindex.job.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.spark.api.java.JavaNewHadoopRDD;

/** build-index {@code --kind ranges}: the range index of {@code spindex build ranges}, on Spark. */
final class BuildRangesJob {
  private BuildRangesJob() {}

  /** The range builder the options describe; a bad combination is a usage error. */
  static IpRangeBuilder builder(JobArgs o) {
    IpRangeBuilder b =
        new IpRangeBuilder()
            .strict(o.get(BuildIndexJob.STRICT))
            .prefixTable(o.get(BuildIndexJob.PREFIX_TABLE))
            .onOverlap(o.get(BuildIndexJob.ON_OVERLAP));
    List<String> fields = o.get(BuildIndexJob.LABEL_FIELDS);
    if (!fields.isEmpty() && o.get(BuildIndexJob.LABEL_FIELDS_FROM_HEADER)) {
      throw new UsageException(
          BuildIndexJob.NAME
              + ": --label-fields and --label-fields-from-header exclude each other");
    }
    try {
      if (!fields.isEmpty()) {
        b.labelFields(fields, o.get(BuildIndexJob.LABEL_DELIMITER));
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(BuildIndexJob.NAME + ": " + e.getMessage());
    }
    if (o.get(BuildIndexJob.LABEL_FIELDS_FROM_HEADER)) {
      b.labelFieldsFromHeader();
    }
    if (o.get(BuildIndexJob.DELIMITER) != 0) {
      b.delimiter(o.get(BuildIndexJob.DELIMITER));
    }
    Long created = BuildIndexJob.createdMillis();
    if (created != null) {
      b.createdMillis(created);
    }
    return b;
  }

  /** {@code detect} (0), {@code tab}, or one character the range parser can split on. */
  static Character delimiter(String v) {
    if (v.equals("detect")) {
      return 0;
    }
    char c = v.equals("tab") || v.equals("\\t") ? '\t' : v.length() == 1 ? v.charAt(0) : 0;
    if (c == 0) {
      throw new IllegalArgumentException(
          "expected one character, 'tab' or detect, got '" + v + "'");
    }
    new IpRangeBuilder().delimiter(c); // its own check: no quote, dot, slash or line end
    return c;
  }

  /**
   * Ranges: the executors parse their splits with the command's own line sink, each told what its
   * file's first lines settled (delimiter, header); the driver appends the parts in input order,
   * flattens overlaps by the policy and writes the index. Range tables are small next to IP lists
   * (millions of rows, not billions), and the overlap policies and the label dictionary follow
   * input order, so the rows meet on the driver, as in the command.
   */
  static JobResult build(
      BuildIndexJob.Run r, IpRangeBuilder builder, JavaNewHadoopRDD<LongWritable, LineChunk> in)
      throws IOException {
    List<String> sources = new ArrayList<>();
    List<RangePart.FileStart> starts = new ArrayList<>();
    byte delimiter = (byte) r.o.get(BuildIndexJob.DELIMITER).charValue();
    CompressionCodecFactory codecs = new CompressionCodecFactory(r.conf);
    for (FileStatus f : r.files) {
      String name = f.getPath().toString();
      sources.add(name);
      if (codecs.getCodec(f.getPath()) != null) {
        starts.add(RangePart.FileStart.NONE); // read whole by one split
      } else {
        try (InputStream head = HadoopIo.open(r.conf, f.getPath())) {
          starts.add(RangePart.FileStart.read(head, name, delimiter));
        }
      }
    }
    Map<String, Long> rejectCounts = new TreeMap<>();
    List<RangePart> parts =
        r.inOrder(
            in,
            (file, name, start, length) ->
                new RangePart.Parser(file, name, delimiter, starts.get(file), start),
            RangePart.EXPECTED,
            rejectCounts);
    Assembled index =
        builder.assembleParts(parts, sources, r.sourceBytes, BuildIndexJob.get(r.digest));
    r.phase("sort ms");
    return r.finish(index, rejectCounts, r.report(parts.size()));
  }
}
