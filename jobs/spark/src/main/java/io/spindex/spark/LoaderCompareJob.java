/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.hadoop.HadoopIo;
import io.spindex.index.Loader;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.LineJob;
import io.spindex.job.SideFile;
import io.spindex.lookup.Report;
import io.spindex.spark.side.SparkDriver;
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.LongAccumulator;

/**
 * loader-compare: ships one index and, on every executor JVM, loads it with each loader strategy
 * {@code --rounds} times (the order rotates every round so no loader always goes first). The driver
 * writes {@code OUT/loader-compare.csv} and {@code .json} (loader, executors, loads, min/median/max
 * ms, MB/s at the median, speedup vs io) and {@code OUT/loads.csv} (every load). All loads on a JVM
 * read the same file, so after the first they run from the page cache: the table compares decoding
 * strategies, not disks.
 */
final class LoaderCompareJob {
  static final String NAME = "loader-compare";

  static final JobOption<String> INDEX =
      JobOption.text(
          "index", null, "index file: local path, name shipped with --files, or hdfs://...");
  static final JobOption<String> OUTPUT =
      JobOption.text("output", null, "output directory for the tables (must not exist)");
  static final JobOption<String> LOADERS =
      JobOption.text("loaders", "io,nio,mmap,mapped", "comma-separated loaders to compare");
  static final JobOption<Long> ROUNDS =
      JobOption.integer("rounds", "5", "loads per loader per executor", 1, 1000);
  static final JobOption<String> SOURCE =
      JobOption.of(
          "source",
          "",
          "the text the index was built from; when given, the 'text' loader (parse it) is timed too",
          v -> v);
  static final JobOption<Long> TASKS =
      JobOption.integer(
          "tasks",
          "0",
          "tasks to spread over the executors (0: 4 x default parallelism)",
          0,
          100_000);

  static final List<JobOption<?>> OPTIONS =
      java.util.Arrays.asList(INDEX, OUTPUT, LOADERS, ROUNDS, SOURCE, TASKS, LineJob.SHIP);

  private LoaderCompareJob() {}

  static JobResult run(SparkSession spark, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    JobArgs o = SparkLineJobs.parse(sc, NAME, OPTIONS, args);
    List<String> loaders = new ArrayList<>();
    for (String l : o.get(LOADERS).split(",")) {
      String name = l.trim().toLowerCase(Locale.ROOT);
      if (name.equals(LoadTimings.TEXT)) {
        continue; // timed when --source is given
      }
      Loader.forOption(name);
      loaders.add(name);
    }
    int rounds = o.get(ROUNDS).intValue();
    int tasks = o.get(TASKS).intValue();
    if (tasks <= 0) {
      tasks = 4 * sc.defaultParallelism();
    }
    Path out = new Path(o.get(OUTPUT));
    HadoopIo.requireNoOutput(sc.hadoopConfiguration(), o.get(OUTPUT));
    SparkDriver driver = new SparkDriver(sc);
    SideFile ref = driver.ship(o.get(INDEX), o.get(LineJob.SHIP));
    SideFile source = null;
    if (!o.get(SOURCE).isEmpty()) {
      source = driver.ship(o.get(SOURCE), o.get(LineJob.SHIP));
      loaders.add(0, LoadTimings.TEXT);
    }
    driver.shipPending();
    Map<String, LongAccumulator> msByLoader = new LinkedHashMap<>();
    for (String l : loaders) {
      msByLoader.put(l, sc.sc().longAccumulator("spindex " + "load ms (" + l + ")"));
    }
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      ids.add(i);
    }
    String runId = sc.sc().applicationId() + "/" + System.nanoTime();
    LoadTimings timings =
        new LoadTimings(
            runId, ref, source, new HadoopConf(sc.hadoopConfiguration()), loaders, rounds);
    List<LoadTimings.Sample> samples =
        sc.parallelize(ids, tasks)
            .mapPartitions(
                it -> {
                  List<LoadTimings.Sample> s = timings.measureOncePerJvm();
                  for (LoadTimings.Sample x : s) {
                    msByLoader.get(x.loader).add(Math.round(x.nanos / 1e6));
                  }
                  return s.iterator();
                })
            .collect();
    if (samples.isEmpty()) {
      throw new FileNotFoundException("no executor measured anything (index " + ref + ")");
    }

    int expected = Math.max(1, sc.sc().statusTracker().getExecutorInfos().length - 1);
    Set<String> measured = new HashSet<>();
    Set<Long> answers = new HashSet<>();
    for (LoadTimings.Sample s : samples) {
      measured.add(s.executorId);
      answers.add(s.answerDigest);
    }
    List<List<Object>> table = table(samples, loaders);
    Report r = new Report(NAME);
    r.put("index", o.get(INDEX)).put("index shipped as", ref.toString());
    r.put("index bytes", samples.get(0).bytes).put("rounds", rounds).put("tasks", tasks);
    r.put("executors measured", measured.size()).put("executors seen by the driver", expected);
    r.put("identical answers", answers.size() == 1);
    r.table("loads", TABLE_COLUMNS, table);
    HadoopIo.writeText(
        sc.hadoopConfiguration(),
        new org.apache.hadoop.fs.Path(out + "/loader-compare.csv"),
        csv(TABLE_COLUMNS, table));
    HadoopIo.writeText(
        sc.hadoopConfiguration(),
        new org.apache.hadoop.fs.Path(out + "/loader-compare.json"),
        r.toJson());
    List<List<Object>> raw = new ArrayList<>();
    for (LoadTimings.Sample s : samples) {
      raw.add(
          Arrays.<Object>asList(
              s.executorId, s.host, s.pid, s.loader, s.round, s.nanos / 1e6, s.bytes));
    }
    HadoopIo.writeText(
        sc.hadoopConfiguration(),
        new org.apache.hadoop.fs.Path(out + "/loads.csv"),
        csv(Arrays.asList("executor", "host", "pid", "loader", "round", "ms", "bytes"), raw));
    return new JobResult(
        r,
        Collections.emptyMap(),
        new ArrayList<>(),
        new TreeMap<>(),
        answers.size() == 1 && measured.size() >= expected);
  }

  static final List<String> TABLE_COLUMNS =
      Arrays.asList(
          "loader", "executors", "loads", "min ms", "median ms", "max ms", "MB/s", "speedup vs io");

  static List<List<Object>> table(List<LoadTimings.Sample> samples, List<String> loaders) {
    Map<String, List<Double>> ms = new HashMap<>();
    Map<String, Set<String>> execs = new HashMap<>();
    long bytes = samples.get(0).bytes;
    for (LoadTimings.Sample s : samples) {
      ms.computeIfAbsent(s.loader, k -> new ArrayList<>()).add(s.nanos / 1e6);
      execs.computeIfAbsent(s.loader, k -> new HashSet<>()).add(s.executorId);
    }
    double ioMedian = ms.containsKey("io") ? median(ms.get("io")) : Double.NaN;
    List<List<Object>> rows = new ArrayList<>();
    for (String l : loaders) {
      List<Double> v = ms.get(l);
      if (v == null) {
        continue;
      }
      v.sort(null);
      double med = median(v);
      rows.add(
          Arrays.<Object>asList(
              l,
              execs.get(l).size(),
              v.size(),
              v.get(0),
              med,
              v.get(v.size() - 1),
              med > 0 ? bytes / 1e6 / (med / 1e3) : Double.NaN,
              ioMedian / med));
    }
    return rows;
  }

  static double median(List<Double> values) {
    List<Double> v = new ArrayList<>(values);
    v.sort(null);
    int n = v.size();
    return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
  }

  static String csv(List<String> columns, List<List<Object>> rows) {
    StringBuilder sb = new StringBuilder(String.join(",", columns)).append('\n');
    for (List<Object> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        Object v = row.get(i);
        sb.append(i == 0 ? "" : ",");
        sb.append(
            v instanceof Double
                ? String.format(Locale.ROOT, "%.3f", (Double) v)
                : String.valueOf(v));
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
