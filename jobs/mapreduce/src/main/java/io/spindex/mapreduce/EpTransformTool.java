/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.ep.EpHeader;
import io.spindex.ep.EpSplitLines;
import io.spindex.ep.EpTransform;
import io.spindex.ep.TransformSpec;
import io.spindex.lookup.Report;
import io.spindex.options.JobOptions;
import io.spindex.options.OptionKey;
import io.spindex.options.OptionSpec;
import io.spindex.options.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * ep-transform on MapReduce (map-only): the Spark job's spec and semantics (docs/EP.md). The driver
 * reads the spec (a local file; its text travels in the job configuration) and the first input
 * file's header, and compiles the spec against it so that spec errors fail before submission.
 * Output: {@code OUT/part-m-*}, each a complete EP file with exactly one header line; {@code
 * OUT/_rejects/part-m-*} ({@code FILE:BYTE-OFFSET<TAB>reason<TAB>detail<TAB>line}); {@code
 * OUT/_summary.json}. Exit 0 when {@code in = out + rejected}.
 */
public final class EpTransformTool extends SpindexTool<EpTransformTool.Opt> {
  static final String NAME = "ep-transform";

  static final String CONF_SPEC_TEXT = "spindex.ep-transform.spec-text";
  static final String CONF_SPEC_NAME = "spindex.ep-transform.spec-name";
  static final String CONF_HEADER = "spindex.ep-transform.header";

  /**
   * Directory the tasks resolve the spec's side files against; default: the spec's directory on the
   * client. Set it to {@code .} when the side files are shipped with {@code -files}.
   */
  static final String CONF_SPEC_BASE = "spindex.ep-transform.spec-base";

  enum Opt implements OptionKey {
    INPUT(
        "input", null, "EP files: any Hadoop path or glob; every file starts with the same header"),
    OUTPUT("output", null, "output directory (must not exist)"),
    SPEC(
        "spec",
        null,
        "transform spec (HOCON, read on the client; its side files must be readable on the task"
            + " nodes at the same paths, or shipped with -files and -D "
            + CONF_SPEC_BASE
            + "=.)"),
    SPLIT_MB("split-mb", "0", "max input split size in MiB (0: the file system's block size)");

    private final OptionSpec spec;

    Opt(String name, String def, String description) {
      spec = new OptionSpec(name, def, description);
    }

    @Override
    public OptionSpec spec() {
      return spec;
    }
  }

  public EpTransformTool() {
    super(NAME, Opt.class);
  }

  @Override
  int run(JobOptions o, Configuration conf) throws Exception {
    java.nio.file.Path specFile = Paths.get(o.get(Opt.SPEC)).toAbsolutePath();
    String specText;
    try {
      specText = new String(Files.readAllBytes(specFile), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UsageException("--spec: cannot read " + specFile + ": " + e);
    }
    String base = specFile.getParent().toString();
    String specName = specFile.getFileName().toString();
    double splitMb = o.getDouble(Opt.SPLIT_MB);
    if (splitMb > 0) {
      conf.setLong(FileInputFormat.SPLIT_MAXSIZE, (long) (splitMb * (1 << 20)));
    }

    Job job = Job.getInstance(conf, "spindex " + NAME + " (" + specName + ")");
    job.setJarByClass(EpTransformTool.class);
    job.setInputFormatClass(TextInputFormat.class);
    FileInputFormat.addInputPaths(job, o.get(Opt.INPUT));
    Path output = new Path(o.get(Opt.OUTPUT));

    TransformSpec spec;
    EpTransform t;
    EpHeader header;
    try {
      spec = TransformSpec.parse(specText, Paths.get(base), specName);
      header = firstHeader(job);
      t = spec.compile(header);
    } catch (IllegalArgumentException e) {
      throw new UsageException(NAME + ": " + e.getMessage());
    }
    Configuration jc = job.getConfiguration();
    jc.set(CONF_SPEC_TEXT, specText);
    jc.set(CONF_SPEC_NAME, specName);
    if (jc.get(CONF_SPEC_BASE) == null) {
      jc.set(CONF_SPEC_BASE, base);
    }
    byte[] h = header.toLine();
    jc.set(CONF_HEADER, new String(h, 0, h.length - 1, StandardCharsets.UTF_8));

    FileOutputFormat.setOutputPath(job, output);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setMapperClass(EpTransformMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(Text.class);
    MultipleOutputs.addNamedOutput(
        job, EpTransformMapper.REJECTS, TextOutputFormat.class, NullWritable.class, Text.class);

    long t0 = System.nanoTime();
    boolean ok = job.waitForCompletion(true);
    double seconds = (System.nanoTime() - t0) / 1e9;
    counters = job.getCounters();
    if (!ok || counters == null) {
      System.err.println(NAME + ": job " + job.getJobID() + " failed: " + job.getStatus());
      return 1;
    }
    Map<String, Long> c = counts(counters, spec.stepLabels());
    long rowsIn = c.get("rows in");
    long rowsOut = c.get("rows out");
    long rejected = c.get("rows rejected");
    boolean balanced = rowsIn == rowsOut + rejected;
    Report r = new Report(NAME);
    r.put("job", job.getJobID().toString()).put("input", o.get(Opt.INPUT));
    r.put("output", output.toString()).put("spec", specFile.toString());
    r.put("seconds", seconds);
    r.put("output columns", t.outputHeader().size());
    r.put("map tasks", IpLookupTool.value(counters, SpindexCounter.TASKS));
    c.forEach(r::put);
    r.put("balanced", balanced)
        .put("balance", rowsIn + " in = " + rowsOut + " out + " + rejected + " rejected");
    System.out.print(r.toText());
    IpLookupTool.writeSummary(jc, output, r);
    report = r;
    return balanced ? 0 : 1;
  }

  /**
   * The job's counts, named as {@link io.spindex.ep.EpCounts#asMap}: the totals from the Spindex
   * enum counters, then the reasons and step counts (zero for steps that did nothing).
   */
  static Map<String, Long> counts(Counters counters, List<String> stepLabels) {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("rows in", IpLookupTool.value(counters, SpindexCounter.RECORDS_IN));
    m.put("rows out", IpLookupTool.value(counters, SpindexCounter.RECORDS_OUT));
    m.put("rows rejected", IpLookupTool.value(counters, SpindexCounter.REJECTED));
    CounterGroup g = counters.getGroup(SpindexCounter.EP_GROUP);
    Map<String, Long> named = new java.util.TreeMap<>();
    for (Counter k : g) {
      named.put(k.getName(), k.getValue());
    }
    named.forEach(
        (k, v) -> {
          if (k.startsWith("rejected ")) {
            m.put(k, v);
          }
        });
    for (String label : stepLabels) {
      m.put("step " + label + " changed", named.getOrDefault("step " + label + " changed", 0L));
      m.put("step " + label + " rejected", named.getOrDefault("step " + label + " rejected", 0L));
    }
    return m;
  }

  /**
   * The header of the first input file by name (the files as the input format lists them), read on
   * the client and decompressed when its codec is known.
   */
  static EpHeader firstHeader(Job job) throws IOException, InterruptedException {
    Path first = null;
    for (InputSplit s : new TextInputFormat().getSplits(job)) {
      Path p = ((FileSplit) s).getPath();
      if (first == null || p.toString().compareTo(first.toString()) < 0) {
        first = p;
      }
    }
    if (first == null) {
      throw new io.spindex.build.InputException(
          FileInputFormat.getInputPaths(job)[0] + ": no input files");
    }
    Configuration conf = job.getConfiguration();
    FileSystem fs = first.getFileSystem(conf);
    CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(first);
    try (InputStream raw = fs.open(first);
        InputStream in = codec == null ? raw : codec.createInputStream(raw)) {
      return EpSplitLines.readHeader(in, first.toString());
    }
  }
}
