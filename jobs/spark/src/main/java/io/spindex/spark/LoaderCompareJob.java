/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.hadoop.HadoopIo;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.job.LoaderCompareDefinition;
import io.spindex.lookup.Report;
import io.spindex.spark.side.HadoopConf;
import io.spindex.spark.side.SparkDriver;
import io.spindex.spark.side.SparkTaskSide;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.LongAccumulator;

/**
 * loader-compare on Spark ({@link LoaderCompareDefinition}): {@code --tasks} tasks over the
 * executors; the first on each executor JVM times every loader; the samples come back to the
 * driver, and their counts also go to named accumulators ({@code spindex loader-compare loads (L)},
 * {@code load us (L)}, {@code JVMs measured}).
 */
final class LoaderCompareJob {
  static final String NAME = LoaderCompareDefinition.NAME;

  private LoaderCompareJob() {}

  static JobResult run(SparkSession spark, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    JobArgs a = SparkLineJobs.parse(sc, NAME, LoaderCompareDefinition.OPTIONS, args);
    Configuration hc = sc.hadoopConfiguration();
    String output = a.get(LineJob.OUTPUT);
    HadoopIo.requireNoOutput(hc, output);
    SparkDriver driver = new SparkDriver(sc);
    LoaderCompareDefinition.Plan plan =
        LoaderCompareDefinition.plan(
            a, driver, sc.defaultParallelism(), sc.sc().applicationId() + "/" + System.nanoTime());
    driver.shipPending();
    Map<String, LongAccumulator> acc = new LinkedHashMap<>();
    for (String l : plan.loaders) {
      for (String name :
          new String[] {LoaderCompareDefinition.loads(l), LoaderCompareDefinition.loadMicros(l)}) {
        acc.put(name, sc.sc().longAccumulator("spindex " + NAME + " " + name));
      }
    }
    acc.put(
        LoaderCompareDefinition.JVMS,
        sc.sc().longAccumulator("spindex " + NAME + " " + LoaderCompareDefinition.JVMS));
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < plan.tasks; i++) {
      ids.add(i);
    }
    HadoopConf conf = new HadoopConf(hc);
    List<LoaderCompareDefinition.Sample> samples =
        sc.parallelize(ids, plan.tasks)
            .mapPartitions(
                it -> {
                  SparkEnv env = SparkEnv.get();
                  List<LoaderCompareDefinition.Sample> s =
                      LoaderCompareDefinition.measure(
                          plan,
                          new SparkTaskSide("", conf),
                          "executor " + (env == null ? "?" : env.executorId()));
                  LoaderCompareDefinition.counts(s).forEach((k, v) -> acc.get(k).add(v));
                  return s.iterator();
                })
            .collect();
    List<List<Object>> table = LoaderCompareDefinition.table(plan, samples);
    Report r = new Report(NAME);
    boolean ok = LoaderCompareDefinition.summarize(plan, a, samples, table, r);
    HadoopIo.writeText(
        hc,
        new Path(output, LoaderCompareDefinition.TABLE_FILE),
        LoaderCompareDefinition.tableCsv(table));
    HadoopIo.writeText(
        hc,
        new Path(output, LoaderCompareDefinition.LOADS_FILE),
        LoaderCompareDefinition.loadsCsv(samples));
    HadoopIo.writeSummary(hc, output, r);
    Map<String, Long> totals = new TreeMap<>();
    acc.forEach((k, v) -> totals.put(k, v.value()));
    totals.put(LineJob.TASKS, (long) plan.tasks);
    return new JobResult(r, totals, new ArrayList<>(), new TreeMap<>(), ok);
  }
}
