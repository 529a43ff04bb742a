/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.ep.SeenRows;
import io.spindex.hadoop.HadoopIo;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.LineJob;
import io.spindex.job.RecordSink;
import io.spindex.job.Route;
import io.spindex.spark.side.HadoopConf;
import io.spindex.spark.side.SparkTaskSide;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * ep-diff's delete stage on Spark: the split stage adds each task's seen rows to a {@link
 * SeenRowsAccumulator} (a bitmap, no ids); the merged bitmap goes to tasks over ranges of index
 * rows, which write the D rows ({@link EpDiffDefinition#writeDeletes}) as {@code OUT/part-d-*}.
 */
final class SparkEpDiff {
  private SparkEpDiff() {}

  static JobResult run(JavaSparkContext sc, String[] args) throws Exception {
    EpDiffDefinition job = new EpDiffDefinition();
    SparkLineJobs.Run<EpDiffDefinition.Plan> run = SparkLineJobs.plan(sc, job, args);
    EpDiffDefinition.Plan plan = run.plan;
    SeenRowsAccumulator seen = new SeenRowsAccumulator(plan.rows());
    sc.sc().register(seen, "spindex ep-diff seen rows");
    SparkLineJobs.runSplits(job, run, t -> seen.add(EpDiffDefinition.seen(t)));

    SeenRows merged = seen.value();
    int tasks = plan.deleteTasks(run.splitTasks);
    List<Integer> parts = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      parts.add(i);
    }
    String output = run.args.get(LineJob.OUTPUT);
    String deletes = output + "/_deletes.tmp";
    HadoopConf conf = new HadoopConf(sc.hadoopConfiguration());
    SparkLineJobs.Metrics metrics = run.metrics;
    sc.parallelize(parts, tasks)
        .mapPartitions(
            it -> {
              int part = it.next();
              List<Text> lines = new ArrayList<>();
              RecordSink sink =
                  new RecordSink() {
                    @Override
                    public void write(Route route, byte[] b, int off, int len) {
                      Text t = new Text();
                      t.set(b, off, len);
                      lines.add(t);
                    }

                    @Override
                    public void count(byte[] key, long n) {
                      throw new UnsupportedOperationException();
                    }
                  };
              long d =
                  EpDiffDefinition.writeDeletes(
                      plan, new SparkTaskSide("delete stage", conf), merged, part, tasks, sink);
              metrics.takeJvmEvents();
              metrics.counts.add(EpDiffDefinition.DELETED, d);
              return lines.iterator();
            })
        .mapToPair(l -> new Tuple2<>(NullWritable.get(), l))
        .saveAsNewAPIHadoopFile(
            deletes,
            NullWritable.class,
            Text.class,
            TextOutputFormat.class,
            Job.getInstance(sc.hadoopConfiguration()).getConfiguration());
    HadoopIo.moveParts(
        sc.hadoopConfiguration(), new Path(deletes), "part-", new Path(output), "part-d-");
    new Path(deletes).getFileSystem(sc.hadoopConfiguration()).delete(new Path(deletes), true);
    return SparkLineJobs.finish(job, run);
  }
}
