/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.build.Assembled;
import io.spindex.build.IpRangeBuilder;
import io.spindex.build.RangePart;
import io.spindex.hadoop.HadoopIo;
import io.spindex.hadoop.LineChunk;
import io.spindex.job.JobArgs;
import io.spindex.job.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;

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
    Map<String, Integer> fileIndex = new HashMap<>();
    List<RangePart.FileStart> starts = new ArrayList<>();
    byte delimiter = (byte) r.o.get(BuildIndexJob.DELIMITER).charValue();
    CompressionCodecFactory codecs = new CompressionCodecFactory(r.conf);
    for (FileStatus f : r.files) {
      String name = f.getPath().toString();
      fileIndex.put(name, sources.size());
      sources.add(name);
      if (codecs.getCodec(f.getPath()) != null) {
        starts.add(RangePart.FileStart.NONE); // read whole by one split
      } else {
        try (InputStream head = HadoopIo.open(r.conf, f.getPath())) {
          starts.add(RangePart.FileStart.read(head, name, delimiter));
        }
      }
    }
    JavaRDD<RangePart> parts =
        in.mapPartitionsWithInputSplit(
                (split, chunks) -> {
                  String name = HadoopIo.splitName(split);
                  Integer file = fileIndex.get(name);
                  if (file == null) {
                    throw new IllegalStateException("a split of no input file: " + name);
                  }
                  long at = ((FileSplit) split).getStart();
                  RangePart.Parser p =
                      new RangePart.Parser(file, name, delimiter, starts.get(file), at);
                  while (chunks.hasNext()) {
                    LineChunk c = chunks.next()._2();
                    p.lines(c.bytes(), 0, c.length(), c.offset());
                  }
                  return Collections.singletonList(p.finish()).iterator();
                },
                true)
            .persist(StorageLevel.MEMORY_AND_DISK());
    try {
      // Splits come in file and offset order; the parts are appended in that order.
      List<RangePart> ordered = parts.map(RangePart::withoutRejectRecords).collect();
      r.phase("parse ms");
      Map<String, Long> rejectCounts = new TreeMap<>();
      long rejected = 0;
      String firstReject = null;
      for (RangePart p : ordered) {
        p.rejectCounts.forEach((k, v) -> rejectCounts.merge(k, v, Long::sum));
        rejected += p.rejected();
        firstReject = firstReject == null ? p.firstReject : firstReject;
      }
      r.strict(rejected, firstReject, RangePart.EXPECTED);
      if (rejected > 0) {
        r.writeRejects(parts.map(RangePart::rejectRecordsWithoutLastLf));
      }
      Assembled index =
          builder.assembleParts(ordered, sources, r.sourceBytes, BuildIndexJob.get(r.digest));
      r.phase("sort ms");
      return r.finish(index, rejectCounts, r.report(ordered.size()));
    } finally {
      parts.unpersist(false);
    }
  }
}
