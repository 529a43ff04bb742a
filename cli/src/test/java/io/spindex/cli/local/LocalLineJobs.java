/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli.local;

import io.spindex.gen.EpGenerator;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.job.LoaderCompareDefinition;
import io.spindex.job.RecordSink;
import io.spindex.lookup.Report;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * The engine-neutral reference run of a {@link LineJob}: no engine, one split per input file (in
 * name order), lines split as Hadoop's {@code LineRecordReader} splits them (LF or CRLF, offsets in
 * the decompressed bytes), records collected per route through a test {@link RecordSink}. The
 * engine tests compare Spark's and MapReduce's outputs and counts with this run's.
 */
public final class LocalLineJobs {
  private LocalLineJobs() {}

  /** What a reference run made. */
  public static final class Result {
    /** Output records in the order the tasks wrote them, split after split. */
    public final List<String> output = new ArrayList<>();

    public final List<String> rejects = new ArrayList<>();

    /** Count mode: {@code OUT/part-00000}'s lines. */
    public final List<String> counts = new ArrayList<>();

    public final Map<String, Long> totals = new TreeMap<>();
    public Report report;
    public boolean reconciles;

    Result(String job) {
      report = new Report(job);
    }
  }

  /**
   * Runs {@code job} with {@code args} (the same arguments the engines take) through {@link
   * LocalDriver}, one thread, rejects naming files as {@code file:} URIs as the engines do.
   */
  public static <P extends LineJob.Plan> Result run(LineJob<P> job, String... args)
      throws IOException {
    JobArgs a = job.parse(args, k -> null, "");
    Result r = new Result(job.name());
    LocalDriver.Run<P> run =
        LocalDriver.run(
            job,
            a,
            new LocalDriver.Options().source(f -> "file:" + f.toAbsolutePath()),
            new LocalDriver.Records() {
              @Override
              public void output(byte[] b, int from, int to) {
                lines(b, from, to, r.output);
              }

              @Override
              public void rejects(byte[] b, int from, int to) {
                lines(b, from, to, r.rejects);
              }
            });
    r.totals.putAll(run.totals);
    for (Object[] row : run.countRows) {
      r.counts.add(row[0] + "\t" + row[1]);
    }
    r.report = run.report;
    r.reconciles = run.reconciles;
    return r;
  }

  /** Adds the LF-ended records of {@code b[from, to)} to {@code to}. */
  private static void lines(byte[] b, int from, int to, List<String> into) {
    for (int at = from; at < to; ) {
      int lf = at;
      while (b[lf] != '\n') {
        lf++;
      }
      into.add(new String(b, at, lf - at, StandardCharsets.UTF_8));
      at = lf + 1;
    }
  }

  /** A file or the non-hidden files of a directory, in name order. */
  /** The example transform spec in {@code conf/}. */
  static final Path EXAMPLE_SPEC =
      Paths.get("..", "conf", "ep-transform.example.conf").toAbsolutePath().normalize();

  /** Writes a generated EP feed to {@code file} (its directory made); returns {@code file}. */
  static Path epFeed(Path file, int rows, long seed, double defects) throws IOException {
    Files.createDirectories(file.getParent());
    try (OutputStream o = Files.newOutputStream(file)) {
      new EpGenerator(rows, seed, defects).writeTo(o);
    }
    return file;
  }

  static List<Path> inputFiles(String input) throws IOException {
    return LocalDriver.inputFiles(input);
  }

  static byte[] read(Path file) throws IOException {
    if (!file.toString().endsWith(".gz")) {
      return Files.readAllBytes(file);
    }
    try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  /** A loader-compare run without an engine: what the engines' runs are held to. */
  public static final class LoaderCompareRun {
    public final List<LoaderCompareDefinition.Sample> samples;
    public final List<List<Object>> table;
    public final io.spindex.lookup.Report report;
    public final Map<String, Long> counts;
    public final boolean ok;

    LoaderCompareRun(
        List<LoaderCompareDefinition.Sample> samples,
        List<List<Object>> table,
        io.spindex.lookup.Report report,
        Map<String, Long> counts,
        boolean ok) {
      this.samples = samples;
      this.table = table;
      this.report = report;
      this.counts = counts;
      this.ok = ok;
    }
  }

  /** Runs loader-compare's definition in this JVM (one task: every load in one JVM). */
  public static LoaderCompareRun loaderCompare(String... args) throws IOException {
    JobArgs a =
        JobArgs.parse(
            LoaderCompareDefinition.NAME, LoaderCompareDefinition.OPTIONS, args, k -> null, "");
    LoaderCompareDefinition.Plan plan =
        LoaderCompareDefinition.plan(
            a, new LocalDriver.Local(new LocalDriver.Options()), 1, "local/" + System.nanoTime());
    List<LoaderCompareDefinition.Sample> samples =
        LoaderCompareDefinition.measure(
            plan, new LocalDriver.Side("", new java.util.HashMap<>()), "local");
    List<List<Object>> table = LoaderCompareDefinition.table(plan, samples);
    io.spindex.lookup.Report r = new io.spindex.lookup.Report(LoaderCompareDefinition.NAME);
    boolean ok = LoaderCompareDefinition.summarize(plan, a, samples, table, r);
    return new LoaderCompareRun(samples, table, r, LoaderCompareDefinition.counts(samples), ok);
  }
}
