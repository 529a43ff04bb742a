/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.ep.ByteSink;
import io.spindex.ep.EpCounts;
import io.spindex.ep.EpHeader;
import io.spindex.ep.EpSplitLines;
import io.spindex.ep.EpTransform;
import io.spindex.ep.TransformSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;

/**
 * ep-transform's map task: compiles the spec (text from the job configuration) against the header
 * the driver read, writes the output header as the first line of its part, then runs one {@link
 * EpTransform.Worker} over the split's lines. A file's header line (offset 0) is checked against
 * the driver's, not transformed. Rejects go to {@code OUT/_rejects/part-m-*}; counts are added to
 * the counters once, in {@link #cleanup}.
 */
public final class EpTransformMapper extends Mapper<LongWritable, Text, NullWritable, Text> {
  static final String REJECTS = "rejects";
  static final String REJECTS_BASE = "_rejects/part";

  private EpHeader header;
  private EpTransform.Worker worker;
  private String source;
  private MultipleOutputs<NullWritable, Text> mos;
  private final ByteSink out = new ByteSink(1 << 16);
  private final Text text = new Text();

  @Override
  protected void setup(Context context) throws IOException, InterruptedException {
    Configuration conf = context.getConfiguration();
    String specText = conf.get(EpTransformTool.CONF_SPEC_TEXT);
    String base = conf.get(EpTransformTool.CONF_SPEC_BASE);
    String name = conf.get(EpTransformTool.CONF_SPEC_NAME);
    String headerLine = conf.get(EpTransformTool.CONF_HEADER);
    byte[] h = headerLine.getBytes(StandardCharsets.UTF_8);
    header = EpHeader.parse(h, 0, h.length, "the driver's header");
    TransformSpec spec = TransformSpec.parse(specText, Paths.get(base), name);
    EpTransform t = spec.compile(header);
    worker = t.worker();
    InputSplit split = context.getInputSplit();
    source =
        split instanceof FileSplit ? ((FileSplit) split).getPath().toString() : split.toString();
    mos = new MultipleOutputs<>(context);
    context.getCounter(SpindexCounter.TASKS).increment(1);
    // Every part is a complete EP file: its header line first, even when no row follows.
    byte[] outHeader = t.outputHeader().toLine();
    text.set(outHeader, 0, outHeader.length - 1);
    context.write(NullWritable.get(), text);
  }

  @Override
  protected void map(LongWritable offset, Text line, Context context)
      throws IOException, InterruptedException {
    byte[] b = line.getBytes();
    int len = line.getLength();
    if (offset.get() == 0) {
      EpSplitLines.checkHeader(b, len, source, header);
      return;
    }
    out.clear();
    if (worker.apply(b, 0, len, out)) {
      text.set(out.array(), 0, out.length() - 1); // the output format adds the LF
      context.write(NullWritable.get(), text);
    } else {
      byte[] r =
          EpSplitLines.rejectRecord(
              source, offset.get(), worker.rejectReason(), worker.rejectDetail(), b, len);
      text.set(r, 0, r.length);
      mos.write(REJECTS, NullWritable.get(), text, REJECTS_BASE);
    }
  }

  @Override
  protected void cleanup(Context context) throws IOException, InterruptedException {
    try {
      addCounts(context, worker.counts());
    } finally {
      mos.close();
    }
  }

  /** Adds a worker's counts: totals to the Spindex enum counters, the rest by name. */
  static void addCounts(Context context, EpCounts c) {
    context.getCounter(SpindexCounter.RECORDS_IN).increment(c.in());
    context.getCounter(SpindexCounter.RECORDS_OUT).increment(c.out());
    context.getCounter(SpindexCounter.REJECTED).increment(c.rejected());
    for (Map.Entry<String, Long> e : c.asMap().entrySet()) {
      if (!TOTALS.contains(e.getKey()) && e.getValue() != 0) {
        context.getCounter(SpindexCounter.EP_GROUP, e.getKey()).increment(e.getValue());
      }
    }
  }

  /** The {@link EpCounts#asMap} keys that are enum counters. */
  static final java.util.List<String> TOTALS =
      Arrays.asList("rows in", "rows out", "rows rejected");
}
