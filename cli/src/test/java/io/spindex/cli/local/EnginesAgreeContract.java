/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.ProductIndexBuilder;
import io.spindex.gen.EpGenerator;
import io.spindex.index.load.IndexHolder;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.LineJob;
import io.spindex.job.LoaderCompareDefinition;
import io.spindex.lookup.IpLookupFixture;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every engine owes the job definitions: each job's core definition, run without an engine
 * ({@link LocalLineJobs}: one split per file), and the same job on the engine with small splits
 * give the same records, rejects and counts — the engine adds nothing and drops nothing. Each
 * engine module extends this with how it runs a job.
 */
public abstract class EnginesAgreeContract {
  @TempDir protected static Path dir;
  static IpLookupFixture fx;
  static Path day1;
  static Path day2;
  static Path index;
  static Path spec;

  /**
   * Runs {@code job} with {@code args} on the engine and returns its counts by name; fails the test
   * when the job does not succeed.
   */
  protected abstract Map<String, Long> runOnEngine(LineJob<?> job, String[] args) throws Exception;

  @BeforeAll
  public static void setUp() throws Exception {
    fx = new IpLookupFixture(dir.resolve("logs"), 3000);
    day1 = dir.resolve("in1/day1.tsv");
    day2 = dir.resolve("in2/day2.tsv");
    Files.createDirectories(day1.getParent());
    Files.createDirectories(day2.getParent());
    EpGenerator g = new EpGenerator(3000, 23, 0.03);
    try (OutputStream o = Files.newOutputStream(day1)) {
      g.writeTo(o);
    }
    try (OutputStream o = Files.newOutputStream(day2)) {
      g.writeNextDay(o, 0.05, 0.1, 0.05);
    }
    index = dir.resolve("day1.spx");
    new ProductIndexBuilder().build(List.of(day1), index);
    spec = conf("ep-transform.example.conf");
  }

  @BeforeEach
  public void freshJvmState() {
    IndexHolder.clear();
  }

  @Test
  public void ipLookupAnnotate() throws Exception {
    agree(
        new IpLookupDefinition(),
        "annotate",
        "--input",
        fx.inputDir.toString(),
        "--index",
        fx.ranges.toString(),
        "--split-mb",
        "0.1");
  }

  @Test
  public void ipLookupFilterOnAField() throws Exception {
    agree(
        new IpLookupDefinition(),
        "filter",
        "--input",
        fx.inputDir.toString(),
        "--index",
        fx.set.toString(),
        "--mode",
        "filter",
        "--keep",
        "misses",
        "--ip",
        "0",
        "--delimiter",
        "space");
  }

  @Test
  public void ipLookupCount() throws Exception {
    agree(
        new IpLookupDefinition(),
        "count",
        "--input",
        fx.inputDir.toString(),
        "--index",
        fx.ranges.toString(),
        "--mode",
        "count",
        "--split-mb",
        "0.1");
  }

  @Test
  public void epTransformWithSideFiles() throws Exception {
    agree(
        new EpTransformDefinition(),
        "transform",
        "--input",
        day1.toString(),
        "--spec",
        spec.toString(),
        "--split-mb",
        "0.25");
  }

  @Test
  public void epDiff() throws Exception {
    agree(
        new EpDiffDefinition(),
        "diff",
        "--input",
        day2.toString(),
        "--yesterday",
        index.toString(),
        "--update-time",
        "2024-05-01 12:00:00",
        "--split-mb",
        "0.25",
        "--delete-tasks",
        "3");
  }

  /**
   * Runs loader-compare with {@code args} on the engine and returns its counts by name; fails the
   * test when the job does not succeed.
   */
  protected abstract Map<String, Long> runLoaderCompare(String[] args) throws Exception;

  /**
   * loader-compare: timings differ from run to run, so the engine's run is held to the core's by
   * structure — the same files, the table's rows and columns (loaders, JVMs, loads), every load in
   * loads.csv, the same verdicts in the summary, the same load counts.
   */
  @Test
  public void loaderCompare() throws Exception {
    String[] args = {
      "--index", fx.ranges.toString(), "--loaders", "nio,io,mapped", "--rounds", "2", "--tasks", "3"
    };
    LocalLineJobs.LoaderCompareRun want =
        LocalLineJobs.loaderCompare(with(args, dir.resolve("lc-unused")));
    Path out = dir.resolve("loader-compare");
    Map<String, Long> got = runLoaderCompare(with(args, out));
    assertTrue(want.ok, "the reference run passes");

    List<String> files = new ArrayList<>();
    try (Stream<Path> s = Files.list(out)) {
      s.map(p -> p.getFileName().toString())
          .filter(n -> !n.startsWith("."))
          .sorted()
          .forEach(files::add);
    }
    assertEquals(Arrays.asList("_summary.json", "loader-compare.csv", "loads.csv"), files);

    List<String> table = Files.readAllLines(out.resolve(LoaderCompareDefinition.TABLE_FILE));
    assertEquals(String.join(",", LoaderCompareDefinition.COLUMNS), table.get(0));
    assertEquals(want.table.size() + 1, table.size());
    for (int i = 0; i < want.table.size(); i++) {
      List<String> row = Arrays.asList(table.get(i + 1).split(","));
      assertEquals(LoaderCompareDefinition.COLUMNS.size(), row.size(), table.get(i + 1));
      assertEquals(
          want.table.get(i).subList(0, 3).toString(),
          row.subList(0, 3).toString(),
          "loader, jvms, loads");
    }
    assertEquals("nio", want.table.get(0).get(0), "the order --loaders gives");

    List<String> loads = Files.readAllLines(out.resolve(LoaderCompareDefinition.LOADS_FILE));
    assertEquals(String.join(",", LoaderCompareDefinition.LOAD_COLUMNS), loads.get(0));
    Map<String, Integer> perLoader = new TreeMap<>();
    for (String l : loads.subList(1, loads.size())) {
      perLoader.merge(l.split(",")[3], 1, Integer::sum);
    }
    Map<String, Integer> wantPerLoader = new TreeMap<>();
    for (LoaderCompareDefinition.Sample s : want.samples) {
      wantPerLoader.merge(s.loader, 1, Integer::sum);
    }
    assertEquals(wantPerLoader, perLoader);

    String json =
        new String(Files.readAllBytes(out.resolve("_summary.json")), StandardCharsets.UTF_8);
    for (String key :
        new String[] {
          "rounds",
          "tasks",
          "jvms measured",
          "every loader loaded rounds x jvms times",
          "identical answers"
        }) {
      String line = "\"" + key + "\": ";
      String wantJson = want.report.toJson();
      int at = wantJson.indexOf(line);
      assertTrue(at >= 0, key);
      String value = wantJson.substring(at, wantJson.indexOf('\n', at)).replaceAll(",$", "");
      assertTrue(json.contains(value), value + " in " + json);
    }

    Map<String, Long> loadCounts = new TreeMap<>(got);
    loadCounts.keySet().removeIf(k -> k.startsWith("load us") || k.equals(LineJob.TASKS));
    Map<String, Long> wantCounts = new TreeMap<>(want.counts);
    wantCounts.keySet().removeIf(k -> k.startsWith("load us"));
    assertEquals(wantCounts, loadCounts);
    assertEquals(3L, got.get(LineJob.TASKS));
  }

  /** A file of the project's conf/ directory, found from any module's working directory. */
  protected static Path conf(String name) {
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path f = d.resolve("conf").resolve(name);
      if (Files.isRegularFile(f)) {
        return f;
      }
    }
    throw new IllegalStateException("no conf/" + name + " above " + Paths.get("").toAbsolutePath());
  }

  /** Runs {@code job} with {@code args} on both, writing the engine's output to {@code name}. */
  private void agree(LineJob<?> job, String name, String... args) throws Exception {
    LocalLineJobs.Result want = LocalLineJobs.run(job, with(args, dir.resolve("unused-" + name)));
    Path out = dir.resolve(name);
    Map<String, Long> got = runOnEngine(job, with(args, out));

    assertTrue(want.reconciles, "the reference run reconciles");
    assertTrue(!want.output.isEmpty() || !want.counts.isEmpty(), "the job wrote something");
    // The next-day feed has no planted defects; every other input has rejects of several kinds.
    assertTrue(!want.rejects.isEmpty() || job instanceof EpDiffDefinition, "rejects");
    if (!want.counts.isEmpty()) {
      assertEquals(want.counts, readParts(out), "part-00000, byte for byte");
    } else {
      assertEquals(sorted(rows(want.output)), sorted(rows(readParts(out))));
      assertEquals(1, headers(readParts(out)).size(), "one header, in every part");
    }
    assertEquals(sorted(want.rejects), sorted(readParts(out.resolve("_rejects"))));
    assertEquals(jobCounts(want.totals), jobCounts(got));
  }

  /**
   * Lines of every {@code part-*} file directly in {@code dir} (gzip-aware), in name order; none
   * when there is no such directory.
   */
  public static List<String> readParts(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return lines;
    }
    List<Path> parts = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().forEach(parts::add);
    }
    for (Path p : parts) {
      String text = new String(LocalLineJobs.read(p), StandardCharsets.UTF_8);
      if (!text.isEmpty()) {
        lines.addAll(Arrays.asList(text.split("\n", -1)));
        lines.remove(lines.size() - 1);
      }
    }
    return lines;
  }

  private static String[] with(String[] args, Path output) {
    List<String> a = new ArrayList<>(Arrays.asList(args));
    a.add("--output");
    a.add(output.toString());
    return a.toArray(new String[0]);
  }

  /** The job's own counts: without what the engine adds (tasks, loads), which differ by engine. */
  private static Map<String, Long> jobCounts(Map<String, Long> totals) {
    Map<String, Long> m = new TreeMap<>(totals);
    m.keySet()
        .removeAll(
            Arrays.asList(
                LineJob.TASKS,
                LineJob.INDEX_LOADS,
                LineJob.INDEX_LOAD_MS,
                LineJob.INDEX_BYTES,
                LineJob.STAGE_MS));
    m.values().removeIf(v -> v == 0);
    return m;
  }

  /** EP parts start with the header: the distinct header lines (none for ip-lookup). */
  private static List<String> headers(List<String> lines) {
    List<String> h = new ArrayList<>();
    for (String l : lines) {
      if (l.startsWith("id\t") && !h.contains(l)) {
        h.add(l);
      }
    }
    return h.isEmpty() ? Collections.singletonList("") : h;
  }

  private static List<String> rows(List<String> lines) {
    List<String> r = new ArrayList<>(lines);
    r.removeIf(l -> l.startsWith("id\t"));
    return r;
  }

  private static List<String> sorted(List<String> l) {
    List<String> s = new ArrayList<>(l);
    Collections.sort(s);
    return s;
  }
}
