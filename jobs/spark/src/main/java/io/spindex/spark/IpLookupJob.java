/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.index.IndexHeader;
import io.spindex.lookup.IpLocator;
import io.spindex.lookup.LookupCounts;
import io.spindex.lookup.LookupMode;
import io.spindex.lookup.RejectReason;
import io.spindex.lookup.Report;
import io.spindex.options.OptionSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * ip-lookup: annotates, filters or counts text lines by the IPv4 address in them, against an index
 * loaded once per executor JVM. Output layout: {@code OUT/part-r-*} (annotate, filter) or {@code
 * OUT/part-00000} (count: {@code label<TAB>lines}, most lines first), {@code OUT/_rejects/}
 * (reason, source:offset, line), {@code OUT/_summary.json}.
 */
final class IpLookupJob {
  static final String NAME = "ip-lookup";

  enum Opt implements OptionKey {
    INPUT("input", null, "input text files: any Hadoop path or glob, compressed or not"),
    OUTPUT("output", null, "output directory (must not exist)"),
    INDEX("index", null, "index file: local path, name shipped with --files, or hdfs://..."),
    MODE("mode", "annotate", "annotate | filter | count"),
    IP("ip", "first", "where the address is: 'first' (first IPv4 on the line) or a field index"),
    DELIMITER("delimiter", "tab", "field delimiter for --ip N: tab, space, comma, pipe or a char"),
    KEEP("keep", "hits", "filter mode: keep 'hits' (address in the index) or 'misses'"),
    LOADER(
        "loader",
        "mapped",
        "io | nio | mmap | mapped | mapped-unchecked (mapped: ready soonest, see docs/SPARK.md)"),
    INDEX_SHIP("index-ship", "auto", "auto | files | stage | local (see docs/SPARK.md)"),
    SPLIT_MB("split-mb", "0", "max input split size in MiB (0: the file system's block size)"),
    COMPRESS("compress", "none", "output compression: none | gzip");

    private final OptionSpec spec;

    Opt(String name, String def, String description) {
      spec = new OptionSpec(name, def, description);
    }

    @Override
    public OptionSpec spec() {
      return spec;
    }
  }

  private IpLookupJob() {}

  static JobResult run(SparkSession spark, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    io.spindex.options.JobOptions o = JobOptions.parse(NAME, Opt.class, args, sc.getConf());
    LookupMode mode = LookupMode.byName(o.get(Opt.MODE));
    IpLocator locator = IpLocator.parse(o.get(Opt.IP), o.get(Opt.DELIMITER));
    String keep = o.get(Opt.KEEP).trim().toLowerCase(Locale.ROOT);
    if (!keep.equals("hits") && !keep.equals("misses")) {
      throw new JobOptions.UsageException("--keep must be hits or misses, not '" + keep + "'");
    }
    String loader = o.get(Opt.LOADER).trim().toLowerCase(Locale.ROOT);
    LookupPartition.loaderNamed(loader);
    String output = o.get(Opt.OUTPUT);

    IndexRef ref = IndexRef.resolve(sc, o.get(Opt.INDEX), o.get(Opt.INDEX_SHIP));
    IndexHeader header = ref.headerOnDriver(o.get(Opt.INDEX));

    Configuration conf = new Configuration(sc.hadoopConfiguration());
    double splitMb = o.getDouble(Opt.SPLIT_MB);
    if (splitMb > 0) {
      conf.setLong("mapreduce.input.fileinputformat.split.maxsize", (long) (splitMb * (1 << 20)));
    }
    Job out = Job.getInstance(conf);
    String compress = o.get(Opt.COMPRESS).trim().toLowerCase(Locale.ROOT);
    if (compress.equals("gzip")) {
      FileOutputFormat.setCompressOutput(out, true);
      FileOutputFormat.setOutputCompressorClass(out, GzipCodec.class);
    } else if (!compress.equals("none")) {
      throw new JobOptions.UsageException(
          "--compress must be none or gzip, not '" + compress + "'");
    }

    LookupMetrics metrics = new LookupMetrics(sc, loader);
    long t0 = System.nanoTime();
    JavaNewHadoopRDD<LongWritable, Text> in =
        (JavaNewHadoopRDD<LongWritable, Text>)
            sc.newAPIHadoopFile(
                o.get(Opt.INPUT), TextInputFormat.class, LongWritable.class, Text.class, conf);
    JavaRDD<Tuple2<Route, Text>> routed =
        in.mapPartitionsWithInputSplit(
            new LookupPartition(
                ref,
                new HadoopConf(sc.hadoopConfiguration()),
                loader,
                locator,
                mode,
                keep.equals("hits"),
                metrics),
            true);
    JavaPairRDD.fromJavaRDD(routed)
        .saveAsNewAPIHadoopFile(
            output, Route.class, Text.class, RoutedTextOutputFormat.class, out.getConfiguration());
    List<Object[]> counts = null;
    if (mode == LookupMode.COUNT) {
      counts = CountMerge.merge(sc, output);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;

    LookupCounts c = metrics.totals();
    List<JvmEvent> events = new ArrayList<>(metrics.events.value());
    Map<String, Long> tasks = metrics.tasksByExecutor.value();
    boolean balanced = c.balanced();
    Report r = new Report(NAME);
    r.put("input", o.get(Opt.INPUT)).put("output", output);
    r.put("index", o.get(Opt.INDEX)).put("index shipped as", ref.toString());
    if (header != null) {
      r.put("index kind", header.kind().toString()).put("index rows", header.rowCount());
    }
    r.put("loader", loader).put("mode", mode.optionName()).put("ip", locator.toString());
    if (mode == LookupMode.FILTER) {
      r.put("keep", keep);
    }
    r.put("seconds", seconds);
    r.put("lines in", c.linesIn()).put("lines out", c.linesOut());
    if (mode == LookupMode.FILTER) {
      r.put("lines filtered out", c.filtered());
    }
    if (mode == LookupMode.COUNT) {
      r.put("lines counted", c.counted()).put("labels", counts.size());
    }
    r.put("lines rejected", c.rejected());
    r.put("balanced", balanced).put("balance", c.balanceText(mode));
    r.put("lookups", c.lookups()).put("hits", c.hits()).put("misses", c.misses());
    for (RejectReason reason : RejectReason.values()) {
      r.put("rejects " + reason.label(), c.rejects(reason));
    }
    r.put("index loads", metrics.indexLoads.value());
    r.put("index load ms (" + loader + ", sum)", metrics.loadMs.value());
    r.put("index bytes loaded", metrics.indexBytes.value());
    r.put("index stage ms (sum)", metrics.stageMs.value());
    r.put("tasks", tasks.values().stream().mapToLong(Long::longValue).sum());
    r.table("index loads by JVM", JvmEvents.COLUMNS, JvmEvents.rows(events));
    List<List<Object>> taskRows = new ArrayList<>();
    for (Map.Entry<String, Long> e : tasks.entrySet()) {
      taskRows.add(Arrays.<Object>asList(e.getKey(), e.getValue()));
    }
    r.table("tasks by executor", Arrays.asList("executor", "tasks"), taskRows);
    if (counts != null) {
      List<List<Object>> top = new ArrayList<>();
      for (int i = 0; i < Math.min(10, counts.size()); i++) {
        top.add(Arrays.asList(counts.get(i)));
      }
      r.table("top labels", Arrays.asList("label", "lines"), top);
    }
    Outputs.writeText(sc.hadoopConfiguration(), output + "/_summary.json", r.toJson());
    return new JobResult(r, c, events, tasks, balanced);
  }
}
