/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.index.Loader;
import io.spindex.lookup.IpLocator;
import io.spindex.lookup.LookupCounts;
import io.spindex.lookup.LookupMode;
import io.spindex.lookup.RejectReason;
import io.spindex.lookup.Report;
import io.spindex.options.JobOptions;
import io.spindex.options.OptionKey;
import io.spindex.options.OptionSpec;
import io.spindex.options.UsageException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;

/**
 * ip-lookup on MapReduce: the same modes, options, rejects and counts as the Spark job (see
 * docs/SPARK.md), as a map-only job for annotate and filter and with a combiner and reducer for
 * count. Output: {@code OUT/part-m-*} (annotate, filter) or {@code OUT/part-r-*} (count: {@code
 * label<TAB>lines}, sorted by label), {@code OUT/_rejects/part-m-*} ({@code
 * reason<TAB>source:offset<TAB>line}), {@code OUT/_summary.json}.
 */
public final class IpLookupTool extends SpindexTool<IpLookupTool.Opt> {
  static final String NAME = "ip-lookup";

  static final String CONF_INDEX_NAME = "spindex.ip-lookup.index-name";
  static final String CONF_LOADER = "spindex.ip-lookup.loader";
  static final String CONF_MODE = "spindex.ip-lookup.mode";
  static final String CONF_IP = "spindex.ip-lookup.ip";
  static final String CONF_DELIMITER = "spindex.ip-lookup.delimiter";
  static final String CONF_KEEP_HITS = "spindex.ip-lookup.keep-hits";

  enum Opt implements OptionKey {
    INPUT("input", null, "input text files: any Hadoop path or glob, compressed or not"),
    OUTPUT("output", null, "output directory (must not exist)"),
    INDEX("index", null, "index file: a name shipped with -files, a local path or hdfs://..."),
    MODE("mode", "annotate", "annotate | filter | count"),
    IP("ip", "first", "where the address is: 'first' (first IPv4 on the line) or a field index"),
    DELIMITER("delimiter", "tab", "field delimiter for --ip N: tab, space, comma, pipe or a char"),
    KEEP("keep", "hits", "filter mode: keep 'hits' (address in the index) or 'misses'"),
    LOADER("loader", "mapped", "io | nio | mmap | mapped | mapped-unchecked"),
    SPLIT_MB("split-mb", "0", "max input split size in MiB (0: the file system's block size)"),
    COMPRESS("compress", "none", "output compression: none | gzip"),
    REDUCERS("reducers", "1", "count mode: reduce tasks");

    private final OptionSpec spec;

    Opt(String name, String def, String description) {
      spec = new OptionSpec(name, def, description);
    }

    @Override
    public OptionSpec spec() {
      return spec;
    }
  }

  /** The finished job (for tests: task completion events and attempt diagnostics). */
  Job job;

  /**
   * The map task's class: {@link IpLookupMapper}, or in tests a wrapper around it that injects a
   * fault into one attempt.
   */
  Class<? extends Mapper<LongWritable, Text, Writable, Writable>> mapperClass =
      IpLookupMapper.class;

  public IpLookupTool() {
    super(NAME, Opt.class);
  }

  @Override
  int run(JobOptions o, Configuration conf) throws Exception {
    LookupMode mode;
    IpLocator locator;
    try {
      mode = LookupMode.byName(o.get(Opt.MODE));
      locator = IpLocator.parse(o.get(Opt.IP), o.get(Opt.DELIMITER));
      Loader.forOption(o.lower(Opt.LOADER));
    } catch (IllegalArgumentException e) {
      throw new UsageException(NAME + ": " + e.getMessage());
    }
    String keep = o.lower(Opt.KEEP);
    if (!keep.equals("hits") && !keep.equals("misses")) {
      throw new UsageException("--keep must be hits or misses, not '" + keep + "'");
    }
    CacheIndex index = CacheIndex.resolve(o.get(Opt.INDEX), conf);
    conf.set(CONF_INDEX_NAME, index.name);
    conf.set(CONF_LOADER, o.lower(Opt.LOADER));
    conf.set(CONF_MODE, mode.optionName());
    conf.set(CONF_IP, o.get(Opt.IP));
    conf.set(CONF_DELIMITER, o.get(Opt.DELIMITER));
    conf.setBoolean(CONF_KEEP_HITS, keep.equals("hits"));
    double splitMb = o.getDouble(Opt.SPLIT_MB);
    if (splitMb > 0) {
      conf.setLong(FileInputFormat.SPLIT_MAXSIZE, (long) (splitMb * (1 << 20)));
    }

    Job job = Job.getInstance(conf, "spindex " + NAME + " (" + mode.optionName() + ")");
    job.setJarByClass(IpLookupTool.class);
    index.addTo(job);
    job.setInputFormatClass(TextInputFormat.class);
    FileInputFormat.addInputPaths(job, o.get(Opt.INPUT));
    Path output = new Path(o.get(Opt.OUTPUT));
    FileOutputFormat.setOutputPath(job, output);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setMapperClass(mapperClass);
    MultipleOutputs.addNamedOutput(
        job, IpLookupMapper.REJECTS, TextOutputFormat.class, NullWritable.class, Text.class);
    if (mode == LookupMode.COUNT) {
      job.setMapOutputKeyClass(Text.class);
      job.setMapOutputValueClass(LongWritable.class);
      job.setCombinerClass(LongSumReducer.class);
      job.setReducerClass(LongSumReducer.class);
      job.setNumReduceTasks(Math.max(1, o.getInt(Opt.REDUCERS)));
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(LongWritable.class);
    } else {
      job.setNumReduceTasks(0);
      job.setOutputKeyClass(NullWritable.class);
      job.setOutputValueClass(Text.class);
    }
    String compress = o.lower(Opt.COMPRESS);
    if (compress.equals("gzip")) {
      FileOutputFormat.setCompressOutput(job, true);
      FileOutputFormat.setOutputCompressorClass(job, GzipCodec.class);
    } else if (!compress.equals("none")) {
      throw new UsageException("--compress must be none or gzip, not '" + compress + "'");
    }

    long t0 = System.nanoTime();
    boolean ok = job.waitForCompletion(true);
    double seconds = (System.nanoTime() - t0) / 1e9;
    counters = job.getCounters();
    this.job = job;
    if (!ok || counters == null) {
      System.err.println(NAME + ": job " + job.getJobID() + " failed: " + job.getStatus());
      return 1;
    }
    LookupCounts c = totals(counters);
    Report r = new Report(NAME);
    r.put("job", job.getJobID().toString()).put("input", o.get(Opt.INPUT));
    r.put("output", output.toString()).put("index", o.get(Opt.INDEX));
    r.put("index shipped as", index.toString());
    r.put("index kind", index.header.kind().toString());
    r.put("index rows", index.header.rowCount());
    r.put("loader", o.lower(Opt.LOADER))
        .put("mode", mode.optionName())
        .put("ip", locator.toString());
    if (mode == LookupMode.FILTER) {
      r.put("keep", keep);
    }
    r.put("seconds", seconds);
    CounterTable.lookup(r, counters, c, mode, o.lower(Opt.LOADER));
    System.out.print(r.toText());
    writeSummary(conf, output, r);
    report = r;
    return c.balanced() ? 0 : 1;
  }

  /** Job totals rebuilt from the Spindex counters. */
  static LookupCounts totals(Counters counters) {
    long[] rejects = new long[RejectReason.values().length];
    for (RejectReason reason : RejectReason.values()) {
      rejects[reason.ordinal()] = value(counters, SpindexCounter.rejects(reason));
    }
    return LookupCounts.of(
        value(counters, SpindexCounter.RECORDS_IN),
        value(counters, SpindexCounter.RECORDS_OUT),
        value(counters, SpindexCounter.FILTERED_OUT),
        value(counters, SpindexCounter.COUNTED),
        value(counters, SpindexCounter.LOOKUPS),
        value(counters, SpindexCounter.HITS),
        rejects);
  }

  static long value(Counters counters, Enum<?> c) {
    return counters.findCounter(c).getValue();
  }

  static long launchedMaps(Counters counters) {
    return value(counters, JobCounter.TOTAL_LAUNCHED_MAPS);
  }

  static void writeSummary(Configuration conf, Path output, Report r) throws IOException {
    FileSystem fs = output.getFileSystem(conf);
    try (OutputStream out = fs.create(new Path(output, "_summary.json"), true)) {
      out.write(r.toJson().getBytes(StandardCharsets.UTF_8));
    }
  }
}
