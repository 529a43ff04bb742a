/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench.spark;

import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.LineJob;
import io.spindex.job.UsageException;
import io.spindex.lookup.Report;
import java.util.List;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * identity: copies lines unchanged, the baseline of the ip-lookup throughput benchmark. {@code
 * --via strings} is Spark's own {@code textFile} then {@code saveAsTextFile} (decodes every line to
 * a String); {@code --via bytes} reads and writes Hadoop {@code Text} end to end, as ip-lookup
 * does. Not a product job: a benchmark of {@link SparkBench}.
 */
final class IdentityJob {
  static final String NAME = "identity";

  static final JobOption<String> VIA =
      JobOption.choice(
          "via",
          "strings",
          "strings (textFile/saveAsTextFile) | bytes (Text end to end)",
          "strings",
          "bytes");

  static final List<JobOption<?>> OPTIONS =
      java.util.Arrays.asList(LineJob.INPUT, LineJob.OUTPUT, VIA, LineJob.SPLIT_MB);

  private IdentityJob() {}

  static Report run(JavaSparkContext sc, String[] args) throws Exception {
    JobArgs o = SparkBench.parse(NAME, OPTIONS, args);
    String via = o.get(VIA);
    long t0 = System.nanoTime();
    if (via.equals("strings")) {
      sc.textFile(o.get(LineJob.INPUT)).saveAsTextFile(o.get(LineJob.OUTPUT));
    } else if (via.equals("bytes")) {
      org.apache.hadoop.conf.Configuration conf =
          new org.apache.hadoop.conf.Configuration(sc.hadoopConfiguration());
      double splitMb = o.get(LineJob.SPLIT_MB);
      if (splitMb > 0) {
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", (long) (splitMb * (1 << 20)));
      }
      sc.newAPIHadoopFile(
              o.get(LineJob.INPUT), TextInputFormat.class, LongWritable.class, Text.class, conf)
          .mapToPair(kv -> new Tuple2<>(NullWritable.get(), kv._2()))
          .saveAsNewAPIHadoopFile(
              o.get(LineJob.OUTPUT), NullWritable.class, Text.class, TextOutputFormat.class, conf);
    } else {
      throw new UsageException("--via must be strings or bytes, not '" + via + "'");
    }
    return new Report(NAME)
        .put("input", o.get(LineJob.INPUT))
        .put("via", via)
        .put("seconds", (System.nanoTime() - t0) / 1e9);
  }
}
