/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.index.Loader;
import io.spindex.job.UsageException;
import io.spindex.lookup.Report;
import io.spindex.options.JobOptions;
import io.spindex.options.OptionKey;
import io.spindex.options.OptionSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * loader-compare on MapReduce: {@code --tasks} map tasks each load the index (shipped through the
 * distributed cache) with every loader {@code --rounds} times. Output: {@code OUT/part-m-*} (one
 * line per load: task, host, pid, loader, round, ms, bytes) and {@code OUT/_summary.json}; the
 * driver prints per loader the loads, mean ms and MB/s from the counters, and the speedup over io.
 * All loads in a task read the same file, so after the first they run from the page cache: the
 * table compares decoding strategies, not disks.
 */
public final class LoaderCompareTool extends SpindexTool<LoaderCompareTool.Opt> {
  static final String NAME = "loader-compare";
  static final String CONF_INDEX_NAME = "spindex.loader-compare.index-name";
  static final String CONF_LOADERS = "spindex.loader-compare.loaders";
  static final String CONF_ROUNDS = "spindex.loader-compare.rounds";

  enum Opt implements OptionKey {
    INDEX("index", null, "index file: a name shipped with -files, a local path or hdfs://..."),
    OUTPUT("output", null, "output directory (must not exist)"),
    LOADERS("loaders", "io,nio,mmap,mapped", "comma-separated loaders to compare"),
    ROUNDS("rounds", "5", "loads per loader per task"),
    TASKS("tasks", "2", "map tasks");

    private final OptionSpec spec;

    Opt(String name, String def, String description) {
      spec = new OptionSpec(name, def, description);
    }

    @Override
    public OptionSpec spec() {
      return spec;
    }
  }

  static final List<String> COLUMNS =
      Arrays.asList("loader", "loads", "total ms", "mean ms", "MB/s", "speedup vs io");

  List<List<Object>> table;

  public LoaderCompareTool() {
    super(NAME, Opt.class);
  }

  @Override
  int run(JobOptions o, Configuration conf) throws Exception {
    List<String> loaders = new ArrayList<>();
    for (String l : o.get(Opt.LOADERS).split(",")) {
      String name = l.trim().toLowerCase(Locale.ROOT);
      try {
        Loader.forOption(name);
      } catch (IllegalArgumentException e) {
        throw new UsageException(NAME + ": " + e.getMessage());
      }
      if (!loaders.contains(name)) {
        loaders.add(name);
      }
    }
    int rounds = Math.max(1, o.getInt(Opt.ROUNDS));
    int tasks = Math.max(1, o.getInt(Opt.TASKS));
    CacheIndex index = CacheIndex.resolve(o.get(Opt.INDEX), conf);
    conf.set(CONF_INDEX_NAME, index.name);
    conf.setStrings(CONF_LOADERS, loaders.toArray(new String[0]));
    conf.setInt(CONF_ROUNDS, rounds);
    conf.setInt(TaskSplits.CONF_TASKS, tasks);

    Job job = Job.getInstance(conf, "spindex " + NAME);
    job.setJarByClass(LoaderCompareTool.class);
    index.addTo(job);
    job.setInputFormatClass(TaskSplits.class);
    job.setMapperClass(LoaderCompareMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(Text.class);
    Path output = new Path(o.get(Opt.OUTPUT));
    FileOutputFormat.setOutputPath(job, output);
    if (!job.waitForCompletion(true)) {
      System.err.println(NAME + ": job " + job.getJobID() + " failed: " + job.getStatus());
      return 1;
    }
    counters = job.getCounters();
    long bytes = index.header.fileLength();
    table = table(counters, loaders, bytes);
    long mismatches = counters.findCounter(SpindexCounter.ANSWER_MISMATCHES).getValue();
    Report r = new Report(NAME);
    r.put("job", job.getJobID().toString()).put("index", o.get(Opt.INDEX));
    r.put("index shipped as", index.toString()).put("index bytes", bytes);
    r.put("rounds", rounds).put("tasks", tasks);
    r.put("map tasks", counters.findCounter(SpindexCounter.TASKS).getValue());
    r.put("identical answers", mismatches == 0);
    r.table("loads", COLUMNS, table);
    System.out.print(r.toText());
    io.spindex.hadoop.HadoopIo.writeSummary(conf, output.toString(), r);
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
