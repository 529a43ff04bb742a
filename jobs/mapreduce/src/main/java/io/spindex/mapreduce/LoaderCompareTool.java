/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.hadoop.HadoopIo;
import io.spindex.index.IndexHeader;
import io.spindex.index.Loader;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.LineJob;
import io.spindex.job.SideFile;
import io.spindex.job.UsageException;
import io.spindex.lookup.Report;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;

/**
 * loader-compare on MapReduce: {@code --tasks} map tasks each load the index (shipped through the
 * distributed cache) with every loader {@code --rounds} times. Output: {@code OUT/part-m-*} (one
 * line per load: task, host, pid, loader, round, ms, bytes) and {@code OUT/_summary.json}; the
 * driver prints per loader the loads, mean ms and MB/s from the counters, and the speedup over io.
 * All loads in a task read the same file, so after the first they run from the page cache: the
 * table compares decoding strategies, not disks.
 */
public final class LoaderCompareTool extends Configured implements Tool {
  static final String NAME = "loader-compare";
  static final String CONF_INDEX_NAME = "spindex.loader-compare.index-name";
  static final String CONF_LOADERS = "spindex.loader-compare.loaders";
  static final String CONF_ROUNDS = "spindex.loader-compare.rounds";

  static final JobOption<String> INDEX =
      JobOption.text(
          "index", null, "index file: a name shipped with -files, a local path or hdfs://...");
  static final JobOption<String> LOADERS =
      JobOption.of(
          "loaders",
          "io,nio,mmap,mapped",
          "comma-separated loaders to compare",
          v -> {
            for (String l : v.split(",")) {
              Loader.forOption(l.trim().toLowerCase(Locale.ROOT));
            }
            return v;
          });
  static final JobOption<Long> ROUNDS =
      JobOption.integer("rounds", "5", "loads per loader per task", 1, 1000);
  static final JobOption<Long> TASKS = JobOption.integer("tasks", "2", "map tasks", 1, 100_000);

  static final List<JobOption<?>> OPTIONS =
      Arrays.asList(INDEX, LineJob.OUTPUT, LOADERS, ROUNDS, TASKS, LineJob.SHIP);

  /** The finished job's counters and summary (for callers that run the tool in-process). */
  Counters counters;

  Report report;

  static final List<String> COLUMNS =
      Arrays.asList("loader", "loads", "total ms", "mean ms", "MB/s", "speedup vs io");

  List<List<Object>> table;

  @Override
  public int run(String[] args) throws Exception {
    Configuration conf = new Configuration(getConf());
    try {
      JobArgs o =
          JobArgs.parse(
              NAME, OPTIONS, args, k -> conf.get(LineJobTool.CONF_PREFIX + k), LineJobTool.HINT);
      HadoopIo.requireNoOutput(conf, o.get(LineJob.OUTPUT));
      return run(o, conf);
    } catch (UsageException | IOException e) {
      return io.spindex.job.Dispatcher.failed(NAME, e, System.out, System.err);
    }
  }

  private int run(JobArgs o, Configuration conf) throws Exception {
    List<String> loaders = new ArrayList<>();
    for (String l : o.get(LOADERS).split(",")) {
      String name = l.trim().toLowerCase(Locale.ROOT);
      if (!loaders.contains(name)) {
        loaders.add(name);
      }
    }
    int rounds = o.get(ROUNDS).intValue();
    int tasks = o.get(TASKS).intValue();
    LineJobTool.MrDriver driver = new LineJobTool.MrDriver(conf);
    SideFile index = driver.ship(o.get(INDEX), o.get(LineJob.SHIP));
    IndexHeader header = driver.indexHeader(index);
    conf.set(CONF_INDEX_NAME, LineJobMapper.MrTaskSide.localPath(index));
    conf.setStrings(CONF_LOADERS, loaders.toArray(new String[0]));
    conf.setInt(CONF_ROUNDS, rounds);
    conf.setInt(TaskSplits.CONF_TASKS, tasks);

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
    Path output = new Path(o.get(LineJob.OUTPUT));
    FileOutputFormat.setOutputPath(job, output);
    if (!job.waitForCompletion(true)) {
      System.err.println(NAME + ": job " + job.getJobID() + " failed: " + job.getStatus());
      return 1;
    }
    counters = job.getCounters();
    long bytes = header.fileLength();
    table = table(counters, loaders, bytes);
    long mismatches = counters.findCounter(SpindexCounter.ANSWER_MISMATCHES).getValue();
    Report r = new Report(NAME);
    r.put("job", job.getJobID().toString()).put("index", o.get(INDEX));
    r.put("index shipped as", index.toString()).put("index bytes", bytes);
    r.put("rounds", rounds).put("tasks", tasks);
    r.put("map tasks", counters.findCounter(SpindexCounter.TASKS).getValue());
    r.put("identical answers", mismatches == 0);
    r.table("loads", COLUMNS, table);
    System.out.print(r.toText());
    HadoopIo.writeSummary(conf, output.toString(), r);
    report = r;
    return mismatches == 0 ? 0 : 1;
  }

  /** Per loader: loads, total and mean ms, MB/s at the mean, speedup of the mean over io's. */
  static List<List<Object>> table(Counters counters, List<String> loaders, long bytes) {
    double ioMean = Double.NaN;
    List<List<Object>> rows = new ArrayList<>();
    for (String l : loaders) {
      long loads = counters.findCounter(SpindexCounter.loads(l)).getValue();
      double ms = counters.findCounter(SpindexCounter.loadMicros(l)).getValue() / 1e3;
      double mean = loads == 0 ? Double.NaN : ms / loads;
      if (l.equals("io")) {
        ioMean = mean;
      }
      rows.add(
          new ArrayList<>(
              Arrays.<Object>asList(
                  l, loads, ms, mean, mean > 0 ? bytes / 1e6 / (mean / 1e3) : Double.NaN, 0.0)));
    }
    for (List<Object> row : rows) {
      row.set(5, ioMean / (Double) row.get(3));
    }
    return rows;
  }
}
