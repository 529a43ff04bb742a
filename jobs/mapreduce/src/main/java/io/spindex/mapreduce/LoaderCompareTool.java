/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.hadoop.HadoopIo;
import io.spindex.job.Dispatcher;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.job.LoaderCompareDefinition;
import io.spindex.job.UsageException;
import io.spindex.lookup.Report;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;

/**
 * loader-compare on MapReduce ({@link LoaderCompareDefinition}): {@code --tasks} map tasks; the
 * first in each task JVM times every loader and writes its samples to {@code OUT/_loads}, which the
 * driver reads, turns into the definition's outputs and deletes. The counts go to the {@code
 * Spindex} counter group by name ({@code loads (L)}, {@code load us (L)}, {@code JVMs measured}).
 */
final class LoaderCompareTool extends Configured implements Tool {
  static final String NAME = LoaderCompareDefinition.NAME;

  /** Where the map tasks write their samples; deleted once the driver has read them. */
  static final String LOADS_DIR = "_loads";

  /** The finished job, its counters and summary (for callers that run the tool in-process). */
  Job job;

  Counters counters;

  Report report;

  List<List<Object>> table;

  @Override
  public int run(String[] args) throws Exception {
    Configuration conf = new Configuration(getConf());
    try {
      JobArgs a = LineJobTool.parse(NAME, LoaderCompareDefinition.OPTIONS, args, conf);
      HadoopIo.requireNoOutput(conf, a.get(LineJob.OUTPUT));
      return run(a, conf);
    } catch (UsageException | IOException e) {
      return Dispatcher.failed(NAME, e, System.out, System.err);
    }
  }

  private int run(JobArgs a, Configuration conf) throws Exception {
    LineJobTool.MrDriver driver = new LineJobTool.MrDriver(conf);
    LoaderCompareDefinition.Plan plan =
        LoaderCompareDefinition.plan(
            a,
            driver,
            conf.getInt("mapreduce.job.maps", 2),
            NAME + "/" + java.util.UUID.randomUUID());
    conf.set(LineJobTool.CONF_PLAN, LineJobTool.serialize(plan));
    conf.setInt(TaskSplits.CONF_TASKS, plan.tasks);

    Job job = Job.getInstance(conf, "spindex " + NAME);
    job.setJarByClass(LoaderCompareTool.class);
    for (java.net.URI u : driver.cacheFiles) {
      job.addCacheFile(u);
    }
    job.setInputFormatClass(TaskSplits.class);
    job.setMapperClass(LoaderCompareMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(Text.class);
    String output = a.get(LineJob.OUTPUT);
    Path loads = new Path(output, LOADS_DIR);
    FileOutputFormat.setOutputPath(job, loads);
    if (!job.waitForCompletion(true)) {
      System.err.println(
          "spindex " + NAME + ": job " + job.getJobID() + " failed: " + job.getStatus());
      return 1;
    }
    this.job = job;
    counters = job.getCounters();
    Configuration jc = job.getConfiguration();
    List<LoaderCompareDefinition.Sample> samples = readSamples(jc, loads);
    loads.getFileSystem(jc).delete(loads, true);
    table = LoaderCompareDefinition.table(plan, samples);
    Report r = new Report(NAME);
    r.put("job", job.getJobID().toString());
    boolean ok = LoaderCompareDefinition.summarize(plan, a, samples, table, r);
    HadoopIo.writeText(
        jc,
        new Path(output, LoaderCompareDefinition.TABLE_FILE),
        LoaderCompareDefinition.tableCsv(table));
    HadoopIo.writeText(
        jc,
        new Path(output, LoaderCompareDefinition.LOADS_FILE),
        LoaderCompareDefinition.loadsCsv(samples));
    HadoopIo.writeSummary(jc, output, r);
    System.out.print(r.toText());
    report = r;
    return ok ? 0 : 1;
  }

  /** Every sample the map tasks wrote, in part order. */
  static List<LoaderCompareDefinition.Sample> readSamples(Configuration conf, Path dir)
      throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    FileStatus[] parts = fs.globStatus(new Path(dir, "part-*"));
    Arrays.sort(parts);
    List<LoaderCompareDefinition.Sample> samples = new ArrayList<>();
    for (FileStatus p : parts) {
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(fs.open(p.getPath()), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          if (!line.isEmpty()) {
            samples.add(LoaderCompareDefinition.Sample.parse(line));
          }
        }
      }
    }
    return samples;
  }
}
