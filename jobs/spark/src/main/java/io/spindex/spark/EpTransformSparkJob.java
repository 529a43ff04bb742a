/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.ep.EpCounts;
import io.spindex.ep.EpHeader;
import io.spindex.ep.EpTransform;
import io.spindex.ep.TransformSpec;
import io.spindex.lookup.LookupCounts;
import io.spindex.lookup.Report;
import io.spindex.options.OptionSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * ep-transform: applies a transform spec (docs/EP.md) to EP files, one {@link EpTransform.Worker}
 * per task, lines as bytes. Output: {@code OUT/part-r-*} (each a complete EP file with its header
 * line) or, with {@code --single-file true}, one {@code OUT/ep.tsv} with one header line; rejects
 * in {@code OUT/_rejects/} ({@code FILE:BYTE-OFFSET, reason, detail, line}); {@code
 * OUT/_summary.json}. Counts are named accumulators ({@link EpCounts#asMap}).
 */
final class EpTransformSparkJob {
  static final String NAME = "ep-transform";

  enum Opt implements OptionKey {
    INPUT(
        "input", null, "EP files: any Hadoop path or glob; every file starts with the same header"),
    OUTPUT("output", null, "output directory (must not exist)"),
    SPEC(
        "spec",
        null,
        "transform spec (HOCON, read on the driver; its side files and indexes"
            + " must be readable at the same paths on the executors)"),
    SINGLE_FILE("single-file", "false", "true: merge the parts into OUT/ep.tsv with one header");

    private final OptionSpec spec;

    Opt(String name, String def, String description) {
      spec = new OptionSpec(name, def, description);
    }

    @Override
    public OptionSpec spec() {
      return spec;
    }
  }

  private EpTransformSparkJob() {}

  /** Specs parsed on an executor, once per JVM (side files and indexes load with them). */
  private static final Map<String, TransformSpec> SPECS = new ConcurrentHashMap<>();

  static TransformSpec spec(String text, String base, String name) throws IOException {
    String key = base + "\n" + text;
    TransformSpec s = SPECS.get(key);
    if (s == null) {
      s = TransformSpec.parse(text, Paths.get(base), name);
      SPECS.putIfAbsent(key, s);
    }
    return s;
  }

  static JobResult run(SparkSession spark, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    io.spindex.options.JobOptions o = JobOptions.parse(NAME, Opt.class, args, sc.getConf());
    boolean single = Boolean.parseBoolean(o.get(Opt.SINGLE_FILE).trim());
    java.nio.file.Path specFile = Paths.get(o.get(Opt.SPEC)).toAbsolutePath();
    String specText;
    try {
      specText = new String(Files.readAllBytes(specFile), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new JobOptions.UsageException("--spec: cannot read " + specFile + ": " + e);
    }
    String base = specFile.getParent().toString();
    String specName = specFile.getFileName().toString();
    TransformSpec spec;
    EpTransform t;
    EpHeader header;
    try {
      spec = TransformSpec.parse(specText, Paths.get(base), specName);
      header =
          EpSparkIo.header(
              sc.hadoopConfiguration(),
              EpSparkIo.files(sc.hadoopConfiguration(), o.get(Opt.INPUT)).get(0).getPath());
      t = spec.compile(header);
    } catch (IllegalArgumentException e) {
      throw new JobOptions.UsageException(e.getMessage());
    }
    String output = o.get(Opt.OUTPUT);
    CountsByKey counts = new CountsByKey();
    sc.sc().register(counts, "spindex ep-transform counts");
    long t0 = System.nanoTime();
    JavaNewHadoopRDD<LongWritable, Text> in =
        (JavaNewHadoopRDD<LongWritable, Text>)
            sc.newAPIHadoopFile(
                o.get(Opt.INPUT),
                TextInputFormat.class,
                LongWritable.class,
                Text.class,
                sc.hadoopConfiguration());
    byte[] outHeader = t.outputHeader().toLine();
    JavaRDD<Tuple2<Route, Text>> routed =
        in.mapPartitionsWithInputSplit(
            new Partition(specText, base, specName, header, single ? null : outHeader, counts),
            true);
    JavaPairRDD.fromJavaRDD(routed)
        .saveAsNewAPIHadoopFile(
            output,
            Route.class,
            Text.class,
            RoutedTextOutputFormat.class,
            Job.getInstance(sc.hadoopConfiguration()).getConfiguration());
    if (single) {
      EpSparkIo.mergeParts(sc.hadoopConfiguration(), output, outHeader, "ep.tsv", "part-");
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    Map<String, Long> c = counts.value();
    long rowsIn = c.getOrDefault("rows in", 0L);
    long rowsOut = c.getOrDefault("rows out", 0L);
    long rejected = c.getOrDefault("rows rejected", 0L);
    boolean balanced = rowsIn == rowsOut + rejected;
    Report r = new Report(NAME);
    r.put("input", o.get(Opt.INPUT)).put("output", output).put("spec", specFile.toString());
    r.put("single file", single).put("seconds", seconds);
    r.put("output columns", t.outputHeader().size());
    for (String label : spec.stepLabels()) {
      c.putIfAbsent("step " + label + " changed", 0L);
      c.putIfAbsent("step " + label + " rejected", 0L);
    }
    new EpCounts(new ArrayList<>()).asMap().keySet().forEach(k -> c.putIfAbsent(k, 0L));
    c.forEach(r::put);
    r.put("balanced", balanced)
        .put("balance", rowsIn + " in = " + rowsOut + " out + " + rejected + " rejected");
    Outputs.writeText(sc.hadoopConfiguration(), output + "/_summary.json", r.toJson());
    return new JobResult(
        r, new LookupCounts(), new ArrayList<>(), new java.util.TreeMap<>(), balanced);
  }

  /** One task: the spec (cached per JVM), a worker, the lines of one split. */
  static final class Partition
      implements Function2<
          InputSplit, Iterator<Tuple2<LongWritable, Text>>, Iterator<Tuple2<Route, Text>>> {
    private static final long serialVersionUID = 1L;

    private final String specText;
    private final String base;
    private final String specName;
    private final EpHeader header;
    private final byte[] partHeader;
    private final CountsByKey counts;

    Partition(
        String specText,
        String base,
        String specName,
        EpHeader header,
        byte[] partHeader,
        CountsByKey counts) {
      this.specText = specText;
      this.base = base;
      this.specName = specName;
      this.header = header;
      this.partHeader = partHeader;
      this.counts = counts;
    }

    @Override
    public Iterator<Tuple2<Route, Text>> call(
        InputSplit split, Iterator<Tuple2<LongWritable, Text>> lines) throws Exception {
      EpTransform.Worker w = spec(specText, base, specName).compile(header).worker();
      return new EpLinesIterator(
          split,
          lines,
          header,
          partHeader,
          w,
          () -> {
            w.counts().asMap().forEach((k, v) -> counts.add(k, v));
          });
    }
  }
}
