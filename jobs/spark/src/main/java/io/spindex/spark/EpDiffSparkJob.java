/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.ep.ByteSink;
import io.spindex.ep.DiffCounts;
import io.spindex.ep.EpDiff;
import io.spindex.ep.EpHeader;
import io.spindex.ep.SeenRows;
import io.spindex.ep.TransformSpec;
import io.spindex.index.IndexHeader;
import io.spindex.index.IndexHolder;
import io.spindex.index.IndexKind;
import io.spindex.index.Loader;
import io.spindex.index.ProductIndex;
import io.spindex.lookup.LookupCounts;
import io.spindex.lookup.Report;
import io.spindex.options.OptionSpec;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * ep-diff: today's full EP files against yesterday's product index, into a summary EP. Stage 1:
 * each task diffs its split with an {@link EpDiff.Worker} (I and U rows, rejects) and adds the
 * index rows it saw to a {@link SeenRowsAccumulator}; no id travels to the driver. Stage 2: the
 * merged bitmap goes to tasks over ranges of index rows, which write the D rows from the index's id
 * text. Output: {@code OUT/part-r-*} (I, U) and {@code OUT/part-d-*} (D), each a complete EP file
 * with its header, or with {@code --single-file true} one {@code OUT/summary.tsv}; {@code
 * OUT/_rejects/}; {@code OUT/_summary.json}.
 */
final class EpDiffSparkJob {
  static final String NAME = "ep-diff";

  enum Opt implements OptionKey {
    INPUT("input", null, "today's full EP files: any Hadoop path or glob, one header each"),
    YESTERDAY("yesterday", null, "yesterday's product index (spindex build products)"),
    OUTPUT("output", null, "output directory (must not exist)"),
    UPDATE_TIME("update-time", "now", "update_time of every row, yyyy-MM-dd HH:mm:ss, or now"),
    LOADER("loader", "mmap", "io | nio | mmap | mapped | mapped-unchecked"),
    INDEX_SHIP("index-ship", "auto", "auto | files | stage | local (see docs/SPARK.md)"),
    MAX_LINE_BYTES("max-line-bytes", "65536", "longest accepted line in bytes"),
    DELETE_TASKS("delete-tasks", "0", "tasks that write D rows (0: as many as input partitions)"),
    SINGLE_FILE("single-file", "false", "true: merge the parts into OUT/summary.tsv");

    private final OptionSpec spec;

    Opt(String name, String def, String description) {
      spec = new OptionSpec(name, def, description);
    }

    @Override
    public OptionSpec spec() {
      return spec;
    }
  }

  private EpDiffSparkJob() {}

  static JobResult run(SparkSession spark, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    io.spindex.options.JobOptions o = JobOptions.parse(NAME, Opt.class, args, sc.getConf());
    boolean single = Boolean.parseBoolean(o.get(Opt.SINGLE_FILE).trim());
    String time = o.get(Opt.UPDATE_TIME).trim();
    if (time.equals("now")) {
      time = LocalDateTime.now().format(EpDiff.UPDATE_TIME);
    }
    String loader = o.get(Opt.LOADER).trim();
    Loader.forOption(loader);
    int maxLine = o.getInt(Opt.MAX_LINE_BYTES);
    IndexRef ref = IndexRef.resolve(sc, o.get(Opt.YESTERDAY), o.get(Opt.INDEX_SHIP));
    IndexHeader ih = ref.headerOnDriver(o.get(Opt.YESTERDAY));
    if (ih == null) {
      throw new JobOptions.UsageException(
          "--yesterday: the driver must be able to read the index header: " + o.get(Opt.YESTERDAY));
    }
    if (ih.kind() != IndexKind.PRODUCTS) {
      throw new JobOptions.UsageException(
          o.get(Opt.YESTERDAY) + ": a " + ih.kind() + " index, not a product index");
    }
    int rows = (int) ih.rowCount();
    EpHeader header =
        EpSparkIo.header(
            sc.hadoopConfiguration(),
            EpSparkIo.files(sc.hadoopConfiguration(), o.get(Opt.INPUT)).get(0).getPath());
    String output = o.get(Opt.OUTPUT);
    HadoopConf conf = new HadoopConf(sc.hadoopConfiguration());
    CountsByKey counts = new CountsByKey();
    sc.sc().register(counts, "spindex ep-diff counts");
    SeenRowsAccumulator seen = new SeenRowsAccumulator(rows);
    sc.sc().register(seen, "spindex ep-diff seen rows");
    long t0 = System.nanoTime();
    JavaNewHadoopRDD<LongWritable, Text> in =
        (JavaNewHadoopRDD<LongWritable, Text>)
            sc.newAPIHadoopFile(
                o.get(Opt.INPUT),
                TextInputFormat.class,
                LongWritable.class,
                Text.class,
                sc.hadoopConfiguration());
    // The summary header, known on the driver from the input header alone.
    byte[] outHeader = summaryHeader(header);
    JavaRDD<Tuple2<Route, Text>> routed =
        in.mapPartitionsWithInputSplit(
            new Partition(
                ref, conf, loader, header, time, maxLine, single ? null : outHeader, counts, seen),
            true);
    JavaPairRDD.fromJavaRDD(routed)
        .saveAsNewAPIHadoopFile(
            output,
            Route.class,
            Text.class,
            RoutedTextOutputFormat.class,
            Job.getInstance(sc.hadoopConfiguration()).getConfiguration());
    SeenRows merged = seen.value();
    int tasks = o.getInt(Opt.DELETE_TASKS);
    if (tasks <= 0) {
      tasks = Math.max(1, in.getNumPartitions());
    }
    List<Integer> parts = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      parts.add(i);
    }
    String deletes = output + "/_deletes.tmp";
    int n = tasks;
    String t = time;
    byte[] partHeader = single ? null : outHeader;
    sc.parallelize(parts, tasks)
        .mapPartitions(
            it -> {
              int p = it.next();
              ProductIndex idx =
                  IndexHolder.acquire(ref.localPath(conf), Loader.forOption(loader))
                      .index()
                      .asProducts();
              EpDiff diff = new EpDiff(header, idx, t, maxLine);
              ByteSink out = new ByteSink(1 << 16);
              if (partHeader != null) {
                out.write(partHeader, 0, partHeader.length);
              }
              long d =
                  diff.writeDeletes(
                      merged, (int) ((long) rows * p / n), (int) ((long) rows * (p + 1) / n), out);
              counts.add("deleted (D)", d);
              return lines(out).iterator();
            })
        .mapToPair(l -> new Tuple2<>(NullWritable.get(), l))
        .saveAsNewAPIHadoopFile(
            deletes,
            NullWritable.class,
            Text.class,
            TextOutputFormat.class,
            Job.getInstance(sc.hadoopConfiguration()).getConfiguration());
    FileSystem fs = new Path(output).getFileSystem(sc.hadoopConfiguration());
    for (org.apache.hadoop.fs.FileStatus s :
        fs.listStatus(new Path(deletes), p -> p.getName().startsWith("part-"))) {
      fs.rename(s.getPath(), new Path(output, s.getPath().getName().replace("part-r-", "part-d-")));
    }
    fs.delete(new Path(deletes), true);
    if (single) {
      EpSparkIo.mergeParts(
          sc.hadoopConfiguration(), output, outHeader, "summary.tsv", "part-r-", "part-d-");
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    Map<String, Long> c = counts.value();
    for (String k : new DiffCounts().asMap().keySet()) {
      c.putIfAbsent(k, 0L);
    }
    long in0 = c.get("rows in");
    long sum =
        c.get("inserted (I)") + c.get("updated (U)") + c.get("unchanged") + c.get("rows rejected");
    boolean balanced = in0 == sum;
    Report r = new Report(NAME);
    r.put("input", o.get(Opt.INPUT)).put("yesterday", o.get(Opt.YESTERDAY));
    r.put("index shipped as", ref.toString()).put("yesterday's products", rows);
    r.put("output", output).put("update time", time).put("single file", single);
    r.put("seconds", seconds);
    c.remove("rows out");
    c.forEach(r::put);
    r.put("rows out", c.get("inserted (I)") + c.get("updated (U)") + c.get("deleted (D)"));
    r.put("seen rows (bitmap)", merged.cardinality());
    r.put("balanced", balanced);
    r.put("balance", in0 + " in = I + U + unchanged + " + c.get("rows rejected") + " rejected");
    Outputs.writeText(sc.hadoopConfiguration(), output + "/_summary.json", r.toJson());
    return new JobResult(
        r, new LookupCounts(), new ArrayList<>(), new java.util.TreeMap<>(), balanced);
  }

  static byte[] summaryHeader(EpHeader today) {
    List<String> names = new ArrayList<>();
    for (String n : today.names()) {
      if (!n.equals("class") && !n.equals("update_time")) {
        names.add(n);
      }
    }
    names.addAll(EpDiff.addedColumns());
    return EpHeader.of(names).toLine();
  }

  /** The LF-terminated lines of {@code out} as Texts (LF dropped). */
  static List<Text> lines(ByteSink out) {
    List<Text> l = new ArrayList<>();
    byte[] b = out.array();
    int f = 0;
    for (int i = 0; i < out.length(); i++) {
      if (b[i] == '\n') {
        Text t = new Text();
        t.set(b, f, i - f);
        l.add(t);
        f = i + 1;
      }
    }
    return l.isEmpty() ? Collections.<Text>emptyList() : l;
  }

  /** One stage-1 task: the index once per JVM, a diff worker, its bitmap into the accumulator. */
  static final class Partition
      implements Function2<
          InputSplit, Iterator<Tuple2<LongWritable, Text>>, Iterator<Tuple2<Route, Text>>> {
    private static final long serialVersionUID = 1L;

    private final IndexRef ref;
    private final HadoopConf conf;
    private final String loader;
    private final EpHeader header;
    private final String time;
    private final int maxLine;
    private final byte[] partHeader;
    private final CountsByKey counts;
    private final SeenRowsAccumulator seen;

    Partition(
        IndexRef ref,
        HadoopConf conf,
        String loader,
        EpHeader header,
        String time,
        int maxLine,
        byte[] partHeader,
        CountsByKey counts,
        SeenRowsAccumulator seen) {
      this.ref = ref;
      this.conf = conf;
      this.loader = loader;
      this.header = header;
      this.time = time;
      this.maxLine = maxLine;
      this.partHeader = partHeader;
      this.counts = counts;
      this.seen = seen;
    }

    @Override
    public Iterator<Tuple2<Route, Text>> call(
        InputSplit split, Iterator<Tuple2<LongWritable, Text>> lines) throws Exception {
      IndexHolder.Acquired a = IndexHolder.acquire(ref.localPath(conf), Loader.forOption(loader));
      if (a.loadedByThisCall()) {
        Ledger.loaded(a, loader);
      }
      EpDiff.Worker w = new EpDiff(header, a.index().asProducts(), time, maxLine).worker();
      return new EpLinesIterator(
          split,
          lines,
          header,
          partHeader,
          w,
          () -> {
            w.counts().asMap().forEach((k, v) -> counts.add(k, v));
            seen.add(w.seen());
          });
    }
  }

  static {
    // The default line cap of the EP commands, for the usage text's sake.
    assert TransformSpec.DEFAULT_MAX_LINE_BYTES == 65536;
  }
}
