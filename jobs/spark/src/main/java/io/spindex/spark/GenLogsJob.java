/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.lookup.AccessLogGen;
import io.spindex.lookup.Report;
import io.spindex.options.OptionSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * gen-logs: writes {@code --lines} nginx-style access-log lines ({@link AccessLogGen}) in {@code
 * --files} parts, in parallel; the same seed gives the same lines however many parts.
 */
final class GenLogsJob {
  static final String NAME = "gen-logs";

  enum Opt implements OptionKey {
    OUTPUT("output", null, "output directory (must not exist)"),
    LINES("lines", "1000000", "number of lines"),
    FILES("files", "4", "number of output files (tasks)"),
    SEED("seed", "42", "random seed"),
    REJECT_PER_MILLE("reject-per-mille", "10", "lines per thousand without an IPv4 address"),
    COMPRESS("compress", "none", "none | gzip");

    private final OptionSpec spec;

    Opt(String name, String def, String description) {
      spec = new OptionSpec(name, def, description);
    }

    @Override
    public OptionSpec spec() {
      return spec;
    }
  }

  private GenLogsJob() {}

  static JobResult run(SparkSession spark, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    io.spindex.options.JobOptions o = JobOptions.parse(NAME, Opt.class, args, sc.getConf());
    long lines = o.getLong(Opt.LINES);
    int files = Math.max(1, o.getInt(Opt.FILES));
    long seed = o.getLong(Opt.SEED);
    int perMille = o.getInt(Opt.REJECT_PER_MILLE);
    new AccessLogGen(seed, perMille); // validates
    List<Integer> parts = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      parts.add(i);
    }
    Job job = Job.getInstance(sc.hadoopConfiguration());
    if (o.get(Opt.COMPRESS).equals("gzip")) {
      FileOutputFormat.setCompressOutput(job, true);
      FileOutputFormat.setOutputCompressorClass(job, GzipCodec.class);
    }
    long t0 = System.nanoTime();
    JavaPairRDD.fromJavaRDD(
            sc.parallelize(parts, files)
                .mapPartitions(
                    it -> {
                      int p = it.next();
                      return range(
                          new AccessLogGen(seed, perMille),
                          lines * p / files,
                          lines * (p + 1) / files);
                    }))
        .saveAsNewAPIHadoopFile(
            o.get(Opt.OUTPUT),
            NullWritable.class,
            Text.class,
            TextOutputFormat.class,
            job.getConfiguration());
    Report r =
        new Report(NAME)
            .put("output", o.get(Opt.OUTPUT))
            .put("lines", lines)
            .put("files", files)
            .put("seed", seed)
            .put("seconds", (System.nanoTime() - t0) / 1e9);
    return new JobResult(
        r, Collections.emptyMap(), Collections.emptyList(), Collections.emptyMap(), true);
  }

  private static Iterator<Tuple2<NullWritable, Text>> range(AccessLogGen gen, long from, long to) {
    Text t = new Text();
    Tuple2<NullWritable, Text> pair = new Tuple2<>(NullWritable.get(), t);
    return new Iterator<Tuple2<NullWritable, Text>>() {
      long n = from;

      @Override
      public boolean hasNext() {
        return n < to;
      }

      @Override
      public Tuple2<NullWritable, Text> next() {
        if (n >= to) {
          throw new NoSuchElementException();
        }
        t.set(gen.line(n++));
        return pair;
      }
    };
  }
}
