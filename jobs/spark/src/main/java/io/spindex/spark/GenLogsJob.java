/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.gen.AccessLogGenerator;
import io.spindex.job.GenLogsOptions;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.LineJob;
import io.spindex.job.UsageException;
import io.spindex.lookup.Report;
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
 * gen-logs: writes {@code --lines} nginx-style access-log lines ({@link AccessLogGenerator}) in
 * {@code --files} parts, in parallel; the same seed gives the same lines however many parts.
 */
final class GenLogsJob {
  static final String NAME = GenLogsOptions.NAME;

  static final JobOption<Long> LINES = GenLogsOptions.LINES;
  static final JobOption<Long> FILES = GenLogsOptions.FILES;
  static final JobOption<Long> SEED = GenLogsOptions.SEED;
  static final JobOption<Long> REJECT_PER_MILLE = GenLogsOptions.REJECT_PER_MILLE;
  static final JobOption<Long> IPV6_PER_MILLE = GenLogsOptions.IPV6_PER_MILLE;
  static final JobOption<String> COMPRESS = GenLogsOptions.COMPRESS;

  static final List<JobOption<?>> OPTIONS = GenLogsOptions.OPTIONS;

  private GenLogsJob() {}

  static JobResult run(SparkSession spark, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    JobArgs o = SparkLineJobs.parse(sc, NAME, OPTIONS, args);
    long lines = o.get(LINES);
    int files = o.get(FILES).intValue();
    long seed = o.get(SEED);
    int perMille = o.get(REJECT_PER_MILLE).intValue();
    int ipv6PerMille = o.get(IPV6_PER_MILLE).intValue();
    if (perMille + ipv6PerMille > 1000) {
      throw new UsageException(
          NAME + ": --reject-per-mille and --ipv6-per-mille add up to more than 1000");
    }
    List<Integer> parts = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      parts.add(i);
    }
    Job job = Job.getInstance(sc.hadoopConfiguration());
    if (o.get(COMPRESS).equals("gzip")) {
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
                          new AccessLogGenerator(seed, perMille, ipv6PerMille),
                          lines * p / files,
                          lines * (p + 1) / files);
                    }))
        .saveAsNewAPIHadoopFile(
            o.get(LineJob.OUTPUT),
            NullWritable.class,
            Text.class,
            TextOutputFormat.class,
            job.getConfiguration());
    Report r =
        new Report(NAME)
            .put("output", o.get(LineJob.OUTPUT))
            .put("lines", lines)
            .put("files", files)
            .put("seed", seed)
            .put("seconds", (System.nanoTime() - t0) / 1e9);
    return new JobResult(
        r, Collections.emptyMap(), Collections.emptyList(), Collections.emptyMap(), true);
  }

  private static Iterator<Tuple2<NullWritable, Text>> range(
      AccessLogGenerator gen, long from, long to) {
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
