/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench.spark;

import io.spindex.index.IndexKind;
import io.spindex.index.IpRanges;
import io.spindex.index.IpSet;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.SideFile;
import io.spindex.job.UsageException;
import io.spindex.lookup.Report;
import io.spindex.spark.side.HadoopConf;
import io.spindex.spark.side.SparkDriver;
import io.spindex.spark.side.SparkTaskSide;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * readiness: how long until an executor can answer its first lookup, for the per-JVM holder (any
 * loader, the file shipped like ip-lookup ships it) and for a broadcast variable of the same arrays
 * (the usual alternative). Measures per executor: in-task time from task start to the first answer,
 * and time from the job starting to use the index (before the driver loads or broadcasts anything)
 * to that answer, plus the driver's heap growth. A benchmark of {@link SparkBench}, behind {@code
 * scripts/bench-spark}; run each variant in a fresh application (fresh executor JVMs).
 */
final class ReadinessJob {
  static final String NAME = "readiness";

  static final JobOption<String> INDEX =
      JobOption.text("index", null, "index file (a local path on the driver)");
  static final JobOption<String> VIA =
      JobOption.choice(
          "via",
          "holder",
          "holder (IndexHolder + --loader) | broadcast (driver loads, broadcasts)",
          "holder",
          "broadcast");
  static final JobOption<String> LOADER =
      JobOption.choice(
          "loader",
          "nio",
          "holder: io | nio | mapped | mapped-unchecked",
          "io",
          "nio",
          "mapped",
          "mapped-unchecked");
  static final JobOption<Long> TASKS =
      JobOption.integer(
          "tasks",
          "0",
          "tasks (0: 2 x default parallelism); the first per executor counts",
          0,
          100_000);
  static final JobOption<String> OUTPUT =
      JobOption.of("output", "", "optional: write the report as JSON to this local file", v -> v);

  static final List<JobOption<?>> OPTIONS =
      java.util.Arrays.asList(INDEX, VIA, LOADER, TASKS, OUTPUT);

  /** One task's view. */
  static final class Sample implements Serializable {
    private static final long serialVersionUID = 1L;
    final String executor = SparkEnv.get().executorId();
    final long startMillis;
    final long inTaskNanos;
    final long answerMillis;
    final long answer;

    Sample(long startMillis, long inTaskNanos, long answer) {
      this.startMillis = startMillis;
      this.inTaskNanos = inTaskNanos;
      this.answerMillis = System.currentTimeMillis();
      this.answer = answer;
    }

    /** A task's way to its first answer. */
    interface FirstAnswer {
      long get() throws Exception;
    }

    /** Times one task's way to its first answer, from the task's start. */
    static Sample time(FirstAnswer firstAnswer) throws Exception {
      long s = System.currentTimeMillis();
      long n0 = System.nanoTime();
      long a = firstAnswer.get();
      return new Sample(s, System.nanoTime() - n0, a);
    }
  }

  private ReadinessJob() {}

  static Report run(JavaSparkContext sc, String[] args) throws Exception {
    JobArgs o = SparkBench.parse(NAME, OPTIONS, args);
    String via = o.get(VIA);
    String loader = o.get(LOADER);
    String shown = loader;
    int tasks = o.get(TASKS) > 0 ? o.get(TASKS).intValue() : 2 * sc.defaultParallelism();
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      ids.add(i);
    }
    int probe = 0x0A000001; // 10.0.0.1
    long heap0 = usedHeap();
    long t0 = System.currentTimeMillis();
    List<Sample> samples;
    long heap1;
    if (via.equals("holder")) {
      SparkDriver driver = new SparkDriver(sc);
      SideFile ref = driver.ship(o.get(INDEX), "auto");
      driver.shipPending();
      HadoopConf conf = new HadoopConf(sc.hadoopConfiguration());
      samples =
          sc.parallelize(ids, tasks)
              .map(
                  i ->
                      Sample.time(
                          () -> {
                            SpindexIndex index =
                                IndexHolder.acquire(
                                        new SparkTaskSide("", conf).local(ref),
                                        Loader.forOption(loader))
                                    .index();
                            return index.kind() == IndexKind.IPV4_SET
                                ? (index.asSet().contains(probe) ? 1 : 0)
                                : index.asRanges().labelId(probe);
                          }))
              .collect();
      heap1 = usedHeap();
    } else if (via.equals("broadcast")) {
      shown = "broadcast";
      SpindexIndex index = Loader.NIO.load(Paths.get(o.get(INDEX)));
      Broadcast<int[][]> bc = sc.broadcast(arrays(index));
      index = null;
      samples =
          sc.parallelize(ids, tasks)
              .map(i -> Sample.time(() -> lookup(bc.value(), probe)))
              .collect();
      heap1 = usedHeap();
      bc.destroy();
    } else {
      throw new UsageException("--via must be holder or broadcast, not '" + via + "'");
    }
    Map<String, Sample> first = new TreeMap<>();
    for (Sample s : samples) {
      Sample f = first.get(s.executor);
      if (f == null || s.startMillis < f.startMillis) {
        first.put(s.executor, s);
      }
    }
    List<List<Object>> rows = new ArrayList<>();
    double maxInTask = 0;
    double maxSubmit = 0;
    for (Sample s : first.values()) {
      double inTask = s.inTaskNanos / 1e6;
      double submit = s.answerMillis - t0;
      maxInTask = Math.max(maxInTask, inTask);
      maxSubmit = Math.max(maxSubmit, submit);
      rows.add(Arrays.<Object>asList(s.executor, inTask, submit, s.answer));
    }
    Report r = new Report(NAME);
    r.put("index", o.get(INDEX)).put("via", via).put("loader", loader);
    r.put("index bytes", Paths.get(o.get(INDEX)).toFile().length());
    r.put("executors", first.size()).put("tasks", tasks);
    r.put("in-task ms to first lookup (max over executors)", maxInTask);
    r.put("job-start to first lookup ms (max over executors)", maxSubmit);
    r.put("driver heap growth MB", (heap1 - heap0) / 1e6);
    r.table(
        "first task per executor",
        Arrays.asList("executor", "in-task ms", "job-start to answer ms", "answer"),
        rows);
    if (!o.get(OUTPUT).isEmpty()) {
      Files.write(Paths.get(o.get(OUTPUT)), r.toJson().getBytes(StandardCharsets.UTF_8));
    }
    return r;
  }

  private static long usedHeap() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return rt.totalMemory() - rt.freeMemory();
  }

  /** Sets: {addresses}; ranges: {starts, ends, label ids}; addresses in unsigned order. */
  static int[][] arrays(SpindexIndex index) {
    if (index.kind() == IndexKind.IPV4_SET) {
      IpSet s = index.asSet();
      int[] a = new int[s.size()];
      for (int i = 0; i < a.length; i++) {
        a[i] = s.address(i);
      }
      return new int[][] {a};
    }
    IpRanges r = index.asRanges();
    int[] starts = new int[r.size()];
    int[] ends = new int[r.size()];
    int[] labels = new int[r.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = r.start(i);
      ends[i] = r.end(i);
      labels[i] = r.labelIdOfRow(i);
    }
    return new int[][] {starts, ends, labels};
  }

  /** The broadcast's lookup: membership (1/0) or label id (-1 for none), unsigned order. */
  static long lookup(int[][] a, int address) {
    int[] keys = a[0];
    int lo = 0;
    int hi = keys.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Integer.compareUnsigned(keys[mid], address) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    int r = lo - 1;
    if (a.length == 1) {
      return r >= 0 && keys[r] == address ? 1 : 0;
    }
    return r >= 0 && Integer.compareUnsigned(a[1][r], address) >= 0 ? a[2][r] : -1;
  }
}
