/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.ep.SeenRows;
import io.spindex.ep.feed.EpHeader;
import io.spindex.index.IndexHeader;
import io.spindex.index.IndexHolder;
import io.spindex.index.Loader;
import io.spindex.lookup.Report;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
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
    public final Report report;
    public boolean reconciles;

    Result(String job) {
      report = new Report(job);
    }
  }

  /** Runs {@code job} with {@code args} (the same arguments the engines take). */
  public static <P extends LineJob.Plan> Result run(LineJob<P> job, String... args)
      throws IOException {
    JobArgs a = job.parse(args, k -> null, "");
    P plan = job.plan(a, new LocalDriver());
    Result r = new Result(job.name());
    Map<String, Long> byKey = new HashMap<>();
    RecordSink sink =
        new RecordSink() {
          @Override
          public void write(Route route, byte[] b, int off, int len) {
            String s = new String(b, off, len, StandardCharsets.UTF_8);
            (route == Route.OUTPUT ? r.output : r.rejects).add(s);
          }

          @Override
          public void count(byte[] key, long n) {
            byKey.merge(new String(key, StandardCharsets.UTF_8), n, Long::sum);
          }
        };
    SeenRows seen = null;
    for (Path file : inputFiles(a.get(LineJob.INPUT))) {
      LineTask task = job.task(plan, new LocalSide("file:" + file.toAbsolutePath()));
      task.begin(sink);
      byte[] b = read(file);
      int from = 0;
      while (from < b.length) {
        int lf = from;
        while (lf < b.length && b[lf] != '\n') {
          lf++;
        }
        int to = lf > from && b[lf - 1] == '\r' ? lf - 1 : lf;
        task.line(b, from, to, from, sink);
        from = lf + 1;
      }
      task.finish(sink);
      task.counts().forEach((k, v) -> r.totals.merge(k, v, Long::sum));
      r.totals.merge(LineJob.TASKS, 1L, Long::sum);
      if (plan instanceof EpDiffDefinition.Plan) {
        SeenRows s = EpDiffDefinition.seen(task);
        seen = seen == null ? s : seen.or(s);
      }
    }
    if (plan instanceof EpDiffDefinition.Plan) {
      EpDiffDefinition.Plan p = (EpDiffDefinition.Plan) plan;
      long d =
          EpDiffDefinition.writeDeletes(
              p,
              new LocalSide("delete stage"),
              seen == null ? new SeenRows(p.rows()) : seen,
              0,
              1,
              sink);
      r.totals.put(EpDiffDefinition.DELETED, d);
    }
    List<Object[]> rows = new ArrayList<>();
    byKey.forEach((k, v) -> rows.add(new Object[] {k, v}));
    rows.sort(
        (x, y) -> {
          int c = Long.compare((Long) y[1], (Long) x[1]);
          return c != 0 ? c : ((String) x[0]).compareTo((String) y[0]);
        });
    for (Object[] row : rows) {
      r.counts.add(row[0] + "\t" + row[1]);
    }
    r.reconciles =
        job.summarize(
            plan, a, r.totals, plan.countsByKey() ? rows : Collections.emptyList(), r.report);
    return r;
  }

  /** A file or the non-hidden files of a directory, in name order. */
  static List<Path> inputFiles(String input) throws IOException {
    Path p = Paths.get(input.startsWith("file:") ? input.substring(5) : input);
    if (!Files.isDirectory(p)) {
      return Collections.singletonList(p);
    }
    List<Path> files = new ArrayList<>();
    try (Stream<Path> s = Files.list(p)) {
      s.filter(f -> !f.getFileName().toString().startsWith("_"))
          .filter(f -> !f.getFileName().toString().startsWith("."))
          .sorted()
          .forEach(files::add);
    }
    return files;
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
        LoaderCompareDefinition.plan(a, new LocalDriver(), 1, "local/" + System.nanoTime());
    List<LoaderCompareDefinition.Sample> samples =
        LoaderCompareDefinition.measure(plan, new LocalSide(""), "local");
    List<List<Object>> table = LoaderCompareDefinition.table(plan, samples);
    io.spindex.lookup.Report r = new io.spindex.lookup.Report(LoaderCompareDefinition.NAME);
    boolean ok = LoaderCompareDefinition.summarize(plan, a, samples, table, r);
    return new LoaderCompareRun(samples, table, r, LoaderCompareDefinition.counts(samples), ok);
  }

  /** Side data opened in place. */
  private static final class LocalDriver implements Driver {
    @Override
    public SideFile ship(String path, String how) {
      Path p = Paths.get(path).toAbsolutePath();
      return new SideFile(path, SideFile.Ship.LOCAL, p.toString(), -1, -1);
    }

    @Override
    public IndexHeader indexHeader(SideFile f) throws IOException {
      return Loader.readHeader(Paths.get(f.location()));
    }

    @Override
    public EpHeader firstEpHeader(String input) throws IOException {
      byte[] b = read(inputFiles(input).get(0));
      int lf = 0;
      while (lf < b.length && b[lf] != '\n') {
        lf++;
      }
      int to = lf > 0 && b[lf - 1] == '\r' ? lf - 1 : lf;
      return EpHeader.parse(b, 0, to, input + ":1");
    }
  }

  private static final class LocalSide implements TaskSide {
    private final String source;

    LocalSide(String source) {
      this.source = source;
    }

    @Override
    public String source() {
      return source;
    }

    @Override
    public Path local(SideFile f) {
      return Paths.get(f.location());
    }

    @Override
    public void loaded(IndexHolder.Acquired acquired, String loader) {}
  }
}
