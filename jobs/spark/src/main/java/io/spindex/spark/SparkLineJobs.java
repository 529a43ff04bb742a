/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.hadoop.HadoopIo;
import io.spindex.hadoop.LineChunk;
import io.spindex.hadoop.LineChunkInputFormat;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.job.LineTask;
import io.spindex.lookup.Report;
import io.spindex.spark.side.HadoopConf;
import io.spindex.spark.side.JvmEvent;
import io.spindex.spark.side.Ledger;
import io.spindex.spark.side.SparkDriver;
import io.spindex.spark.side.SparkTaskSide;
import io.spindex.spark.side.SpindexConf;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.util.CollectionAccumulator;
import scala.Tuple2;

/**
 * Runs a {@link LineJob} on Spark: the job's own plan on the driver, its record loop in every task
 * over the split's lines, its summary after. Spark's part: reading splits ({@link
 * LineChunkInputFormat}: chunks of whole lines, bytes end to end), routing records to the outputs,
 * adding up counts in one named accumulator ({@code spindex <job> counts}, with the per-JVM load
 * events of {@link Ledger}), summing count mode's per-key counts with {@code reduceByKey}.
 */
final class SparkLineJobs {
  static final String HINT =
      "Defaults can also be set as spark.spindex.<option> in the Spark conf; --index takes a path"
          + " or a name set as spark.spindex.index.NAME=PATH.";

  private SparkLineJobs() {}

  /** Parses {@code args} for {@code job}, defaults from the Spark configuration. */
  static JobArgs parse(JavaSparkContext sc, LineJob<?> job, String[] args) {
    return parse(sc, job.name(), job.options(), args);
  }

  /** Parses {@code args} against {@code options}, defaults from the Spark configuration. */
  static JobArgs parse(
      JavaSparkContext sc,
      String job,
      java.util.List<io.spindex.job.JobOption<?>> options,
      String[] args) {
    return parse(sc.getConf(), job, options, args);
  }

  /**
   * Parses {@code args} against {@code options} with the Spark settings of {@code conf} ({@link
   * SpindexConf#SETTINGS}): an unknown {@code spark.spindex.} key is a usage error, {@code
   * spark.spindex.<option>} a default, and {@code --index NAME} the path {@code
   * spark.spindex.index.NAME} names.
   */
  static JobArgs parse(
      SparkConf conf,
      String job,
      java.util.List<io.spindex.job.JobOption<?>> options,
      String[] args) {
    java.util.List<String> keys = new ArrayList<>();
    for (Tuple2<String, String> kv : conf.getAll()) {
      keys.add(kv._1());
    }
    return SpindexConf.SETTINGS.parse(job, options, args, k -> conf.get(k, null), keys, HINT);
  }

  /** What a run of a line job leaves for the driver and for the tests. */
  static final class Run<P extends LineJob.Plan> {
    final JavaSparkContext sc;
    final JobArgs args;
    final P plan;
    final Metrics metrics;
    final long started = System.nanoTime();
    int splitTasks;

    Run(JavaSparkContext sc, JobArgs args, P plan, Metrics metrics) {
      this.sc = sc;
      this.args = args;
      this.plan = plan;
      this.metrics = metrics;
    }
  }

  /** The named accumulators every line job adds to. */
  static final class Metrics implements Serializable {
    private static final long serialVersionUID = 1L;

    final CountsByKey counts = new CountsByKey();
    final CountsByKey tasksByExecutor = new CountsByKey();
    final CollectionAccumulator<JvmEvent> events;

    Metrics(JavaSparkContext sc, String job) {
      sc.sc().register(counts, "spindex " + job + " counts");
      sc.sc().register(tasksByExecutor, "spindex tasks by executor");
      events = sc.sc().collectionAccumulator("spindex index loads by JVM");
    }

    /** In a task: the per-JVM events pending in this JVM, into the counts and the event list. */
    void takeJvmEvents() {
      for (JvmEvent e : Ledger.takeForTask(TaskContext.get())) {
        events.add(e);
        if (e.what.equals(JvmEvent.LOAD)) {
          counts.add(LineJob.INDEX_LOADS, 1);
          counts.add(LineJob.INDEX_LOAD_MS, Math.round(e.millis()));
          counts.add(LineJob.INDEX_BYTES, e.bytes);
        } else {
          counts.add(LineJob.STAGE_MS, Math.round(e.millis()));
        }
      }
    }

    /** In a task, once its split is done: its counts. */
    void taskDone(Map<String, Long> taskCounts) {
      taskCounts.forEach(counts::add);
      counts.add(LineJob.TASKS, 1);
      SparkEnv env = SparkEnv.get();
      tasksByExecutor.add(env == null ? "?" : env.executorId(), 1);
    }
  }

  /** Plans {@code job} on the driver; a usage or input error here leaves nothing behind. */
  static <P extends LineJob.Plan> Run<P> plan(JavaSparkContext sc, LineJob<P> job, String[] args)
      throws IOException {
    return plan(sc, job, parse(sc, job, args));
  }

  /** Plans {@code job} with arguments already parsed ({@link #parse}). */
  static <P extends LineJob.Plan> Run<P> plan(JavaSparkContext sc, LineJob<P> job, JobArgs a)
      throws IOException {
    HadoopIo.requireNoOutput(sc.hadoopConfiguration(), a.get(LineJob.OUTPUT));
    HadoopIo.inputFiles(sc.hadoopConfiguration(), a.get(LineJob.INPUT));
    SparkDriver driver = new SparkDriver(sc);
    P plan = job.plan(a, driver);
    driver.shipPending();
    return new Run<>(sc, a, plan, new Metrics(sc, job.name()));
  }

  /**
   * The split stage: every split through the job's record loop, the records saved under {@code
   * OUT}. {@code done} runs in each task after its split (ep-diff takes the task's seen rows).
   */
  static <P extends LineJob.Plan> void runSplits(LineJob<P> job, Run<P> run, TaskDone done)
      throws IOException {
    JavaSparkContext sc = run.sc;
    Configuration conf = new Configuration(sc.hadoopConfiguration());
    double splitMb = run.args.get(LineJob.SPLIT_MB);
    if (splitMb > 0) {
      conf.setLong(FileInputFormat.SPLIT_MAXSIZE, (long) (splitMb * (1 << 20)));
    }
    Job out = Job.getInstance(conf);
    if (run.plan.gzip()) {
      FileOutputFormat.setCompressOutput(out, true);
      FileOutputFormat.setOutputCompressorClass(out, GzipCodec.class);
    }
    @SuppressWarnings("unchecked")
    JavaNewHadoopRDD<LongWritable, LineChunk> in =
        (JavaNewHadoopRDD<LongWritable, LineChunk>)
            sc.newAPIHadoopFile(
                run.args.get(LineJob.INPUT),
                LineChunkInputFormat.class,
                LongWritable.class,
                LineChunk.class,
                conf);
    run.splitTasks = in.getNumPartitions();
    try {
      JavaPairRDD.fromJavaRDD(
              in.mapPartitionsWithInputSplit(
                  new Split<>(
                      job, run.plan, new HadoopConf(sc.hadoopConfiguration()), run.metrics, done),
                  true))
          .saveAsNewAPIHadoopFile(
              run.args.get(LineJob.OUTPUT),
              String.class,
              SplitRecords.Record.class,
              RoutedTextOutputFormat.class,
              out.getConfiguration());
    } catch (Throwable e) { // SparkException too, which Scala throws undeclared
      HadoopIo.removeFailedOutput(sc.hadoopConfiguration(), run.args.get(LineJob.OUTPUT));
      throw e;
    }
  }

  /** Runs in a task after its split is done. */
  interface TaskDone extends Serializable {
    void done(LineTask task);
  }

  /**
   * After the split stage (and any later stage the job has): sums count mode's counts, merges a
   * single file, and builds, prints and writes the summary.
   */
  static <P extends LineJob.Plan> JobResult finish(LineJob<P> job, Run<P> run) throws IOException {
    JavaSparkContext sc = run.sc;
    Configuration conf = sc.hadoopConfiguration();
    String output = run.args.get(LineJob.OUTPUT);
    List<Object[]> countRows = Collections.emptyList();
    if (run.plan.countsByKey()) {
      countRows = HadoopIo.writeCounts(conf, output, sumCounts(sc, output, run.plan));
    }
    if (run.plan.singleFile() != null) {
      HadoopIo.mergeParts(
          conf,
          output,
          run.plan.singleFileHeader(),
          run.plan.singleFile(),
          run.plan.singleFileParts());
    }
    double seconds = (System.nanoTime() - run.started) / 1e9;
    Map<String, Long> totals = run.metrics.counts.value();
    Report r = new Report(job.name());
    r.put("input", run.args.get(LineJob.INPUT)).put("output", output).put("seconds", seconds);
    boolean ok = job.summarize(run.plan, run.args, totals, countRows, r);
    List<JvmEvent> events = new ArrayList<>(run.metrics.events.value());
    Map<String, Long> tasks = run.metrics.tasksByExecutor.value();
    r.table("index loads by JVM", JvmEvents.COLUMNS, JvmEvents.rows(events));
    List<List<Object>> taskRows = new ArrayList<>();
    tasks.forEach((k, v) -> taskRows.add(java.util.Arrays.<Object>asList(k, v)));
    r.table("tasks by executor", java.util.Arrays.asList("executor", "tasks"), taskRows);
    HadoopIo.writeSummary(conf, output, r);
    return new JobResult(r, totals, events, tasks, ok);
  }

  private static Map<String, Long> sumCounts(JavaSparkContext sc, String output, LineJob.Plan plan)
      throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(output, SplitRecords.COUNTS);
    org.apache.hadoop.fs.FileSystem fs = dir.getFileSystem(sc.hadoopConfiguration());
    Map<String, Long> sums = new java.util.HashMap<>();
    if (fs.exists(dir)) {
      int reducers = plan.countTasks();
      for (Tuple2<String, Long> t :
          sc.textFile(dir + "/part-*")
              .mapToPair(
                  line -> {
                    int tab = line.lastIndexOf('\t');
                    return new Tuple2<>(
                        line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
                  })
              .reduceByKey(Long::sum, reducers)
              .collect()) {
        sums.put(t._1(), t._2());
      }
      fs.delete(dir, true);
    }
    return sums;
  }

  /** One split-stage task: the job's record loop over the split's lines. */
  private static final class Split<P extends LineJob.Plan>
      implements Function2<
          InputSplit,
          Iterator<Tuple2<LongWritable, LineChunk>>,
          Iterator<Tuple2<String, SplitRecords.Record>>> {
    private static final long serialVersionUID = 1L;

    private final LineJob<P> job;
    private final P plan;
    private final HadoopConf conf;
    private final Metrics metrics;
    private final TaskDone done;

    Split(LineJob<P> job, P plan, HadoopConf conf, Metrics metrics, TaskDone done) {
      this.job = job;
      this.plan = plan;
      this.conf = conf;
      this.metrics = metrics;
      this.done = done;
    }

    @Override
    public Iterator<Tuple2<String, SplitRecords.Record>> call(
        InputSplit split, Iterator<Tuple2<LongWritable, LineChunk>> lines) throws IOException {
      LineTask task = job.task(plan, new SparkTaskSide(HadoopIo.splitName(split), conf));
      metrics.takeJvmEvents();
      return new SplitRecords(
          lines,
          task,
          () -> {
            metrics.taskDone(task.counts());
            if (done != null) {
              done.done(task);
            }
          });
    }
  }
}
