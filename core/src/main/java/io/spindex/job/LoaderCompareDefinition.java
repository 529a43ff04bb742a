/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.TextLoader;
import io.spindex.index.IndexHeader;
import io.spindex.index.IndexKind;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.Loader;
import io.spindex.lookup.AnswerDigest;
import io.spindex.lookup.Report;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * loader-compare, defined once and run by every engine: ship one index, and in every JVM that runs
 * one of the job's {@code --tasks} tasks load it with each loader {@code --rounds} times (the order
 * rotates every round, so no loader always goes first); the first task of the run in a JVM does the
 * loads, later ones in that JVM nothing. Every load answers 4096 fixed lookups ({@link
 * AnswerDigest}); the job passes when every load of every loader in every JVM gave the same answers
 * and every loader was loaded {@code rounds} times in every JVM that measured.
 *
 * <p>Outputs, the same files on every engine: {@code OUT/loader-compare.csv} (per loader: JVMs,
 * loads, min / median / max ms, MB/s at the median, the speedup of its median over io's), {@code
 * OUT/loads.csv} (every load), {@code OUT/_summary.json} (the report). Counts by name (Spark
 * accumulators, Hadoop counters): {@code loads (L)}, {@code load us (L)} per loader, {@code JVMs
 * measured}, {@code tasks}. All loads in a JVM read the same file, so after the first they run from
 * the page cache: the table compares decoding strategies, not disks.
 *
 * <p>Longer than most files here on purpose: the options, the timing loop, the pass rule and the
 * three outputs are the job's contract with both engines, read and changed together.
 */
@Internal
public final class LoaderCompareDefinition {
  public static final String NAME = "loader-compare";

  /** The baseline loader: build the index from its source text ({@code --source}) in memory. */
  public static final String TEXT = "text";

  public static final JobOption<String> INDEX =
      JobOption.text(
          "index",
          null,
          "index file: a local path, a name shipped with --files/-files, hdfs://...");

  public static final JobOption<String> LOADERS =
      JobOption.of(
          "loaders",
          "io,nio,mapped",
          "comma-separated loaders to compare (text: parse --source)",
          v -> {
            for (String l : v.split(",")) {
              String name = l.trim().toLowerCase(Locale.ROOT);
              if (!name.equals(TEXT)) {
                Loader.forOption(name);
              }
            }
            return v;
          });

  public static final JobOption<Long> ROUNDS =
      JobOption.integer("rounds", "5", "loads per loader per JVM", 1, 1000);

  public static final JobOption<String> SOURCE =
      JobOption.of(
          "source",
          "",
          "the text the index was built from; when given, the 'text' loader (parse it) is timed too",
          v -> v);

  public static final JobOption<Long> TASKS =
      JobOption.integer(
          "tasks",
          "0",
          "tasks to spread over the JVMs (0: 4 x the engine's parallelism: Spark's default"
              + " parallelism, MapReduce's mapreduce.job.maps)",
          0,
          100_000);

  public static final List<JobOption<?>> OPTIONS =
      Collections.unmodifiableList(
          Arrays.asList(
              INDEX,
              LineJob.OUTPUT,
              LOADERS,
              ROUNDS,
              SOURCE,
              TASKS,
              LineJob.SHIP,
              Freshness.MAX_AGE,
              Freshness.WARN_AGE));

  /** The table's columns. */
  public static final List<String> COLUMNS =
      Collections.unmodifiableList(
          Arrays.asList(
              "loader", "jvms", "loads", "min ms", "median ms", "max ms", "MB/s", "speedup vs io"));

  /** The columns of {@code OUT/loads.csv}, one row per load. */
  public static final List<String> LOAD_COLUMNS =
      Collections.unmodifiableList(
          Arrays.asList("jvm", "host", "pid", "loader", "round", "ms", "bytes"));

  /** The files the driver writes under {@code OUT}. */
  public static final String TABLE_FILE = "loader-compare.csv";

  public static final String LOADS_FILE = "loads.csv";

  /** Count: JVMs that measured. */
  public static final String JVMS = "JVMs measured";

  private static final ConcurrentMap<String, Boolean> CLAIMED = new ConcurrentHashMap<>();

  private LoaderCompareDefinition() {}

  /** The count of loads of loader {@code l}. */
  public static String loads(String l) {
    return "loads (" + l + ")";
  }

  /** The count of microseconds loads of {@code l} took, summed. */
  public static String loadMicros(String l) {
    return "load us (" + l + ")";
  }

  /** What the driver decided: all a task receives. */
  public static final class Plan implements Serializable {
    private static final long serialVersionUID = 1L;
    public final SideFile index;
    public final SideFile source;
    public final List<String> loaders;
    public final int rounds;
    public final int tasks;
    public final long indexBytes;
    final String runId;

    /** The version of the index the loads read ({@link IndexHeader#versionText}). */
    final String version;

    Plan(
        SideFile index,
        SideFile source,
        List<String> loaders,
        int rounds,
        int tasks,
        IndexHeader header,
        String runId) {
      this.index = index;
      this.version = header.versionText();
      this.indexBytes = header.fileLength();
      this.source = source;
      this.loaders = Collections.unmodifiableList(new ArrayList<>(loaders));
      this.rounds = rounds;
      this.tasks = tasks;
      this.runId = runId;
    }
  }

  /**
   * Driver side: ships the index (and the source), reads and checks the index header.
   *
   * @param parallelism the engine's parallelism, for {@code --tasks 0}
   * @param runId unique to this run (the per-JVM claim is keyed by it)
   */
  public static Plan plan(JobArgs a, Driver driver, int parallelism, String runId)
      throws IOException {
    List<String> loaders = new ArrayList<>();
    for (String l : a.get(LOADERS).split(",")) {
      String name = l.trim().toLowerCase(Locale.ROOT);
      if (name.equals(TEXT) && a.get(SOURCE).isEmpty()) {
        throw new UsageException(
            NAME + ": --loaders: 'text' parses the index's source: give --source");
      }
      if (!loaders.contains(name) && !name.equals(TEXT)) {
        loaders.add(name);
      }
    }
    if (loaders.isEmpty()) {
      throw new UsageException(
          NAME + ": --loaders: expected at least one index loader (io, nio, ...)");
    }
    SideFile shipped = driver.ship(a.get(INDEX), a.get(LineJob.SHIP));
    IndexHeader header = driver.indexHeader(shipped);
    SideFile index = shipped.pinned(header);
    Freshness.check(a, a.get(INDEX), header, driver);
    SideFile source = null;
    if (!a.get(SOURCE).isEmpty()) {
      if (header.kind() != IndexKind.IPV4_SET && header.kind() != IndexKind.IPV4_RANGES) {
        throw new UsageException(
            NAME + ": --source: the text loader builds IP set and range indexes only");
      }
      source = driver.ship(a.get(SOURCE), a.get(LineJob.SHIP));
      loaders.add(0, TEXT);
    }
    int tasks = a.get(TASKS).intValue();
    if (tasks == 0) {
      tasks = 4 * Math.max(1, parallelism);
    }
    return new Plan(index, source, loaders, a.get(ROUNDS).intValue(), tasks, header, runId);
  }

  /** One timed load. */
  public static final class Sample implements Serializable {
    private static final long serialVersionUID = 1L;
    public final String jvm;
    public final String host;
    public final long pid;
    public final String loader;
    public final int round;
    public final long nanos;
    public final long bytes;
    public final long answers;

    Sample(
        String jvm,
        String host,
        long pid,
        String loader,
        int round,
        long nanos,
        long bytes,
        long answers) {
      this.jvm = jvm;
      this.host = host;
      this.pid = pid;
      this.loader = loader;
      this.round = round;
      this.nanos = nanos;
      this.bytes = bytes;
      this.answers = answers;
    }

    /** The sample as a tab-separated line, as {@link #parse} reads it. */
    public String toLine() {
      return String.join(
          "\t",
          jvm,
          host,
          Long.toString(pid),
          loader,
          Integer.toString(round),
          Long.toString(nanos),
          Long.toString(bytes),
          Long.toString(answers));
    }

    /** A line of {@link #toLine}. */
    public static Sample parse(String line) {
      String[] f = line.split("\t", -1);
      return new Sample(
          f[0],
          f[1],
          Long.parseLong(f[2]),
          f[3],
          Integer.parseInt(f[4]),
          Long.parseLong(f[5]),
          Long.parseLong(f[6]),
          Long.parseLong(f[7]));
    }
  }

  /**
   * Task side: the first task of the run in this JVM loads the index with every loader, {@code
   * rounds} times; later tasks in the JVM return nothing.
   *
   * @param jvm names this JVM in the outputs (Spark's executor id, the MapReduce task attempt)
   */
  public static List<Sample> measure(Plan p, TaskSide side, String jvm) throws IOException {
    if (CLAIMED.putIfAbsent(p.runId, Boolean.TRUE) != null) {
      return Collections.emptyList();
    }
    Path file = side.local(p.index);
    long bytes = Files.size(file);
    Path text = p.source == null ? null : side.local(p.source);
    boolean ranges = Loader.readHeader(file).kind() == IndexKind.IPV4_RANGES;
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "?";
    }
    long pid = ProcessHandle.current().pid();
    List<Sample> out = new ArrayList<>();
    List<String> loaders = p.loaders;
    for (int r = 0; r < p.rounds; r++) {
      for (int i = 0; i < loaders.size(); i++) {
        String name = loaders.get((i + r) % loaders.size());
        IndexLoader loader =
            !name.equals(TEXT)
                ? Loader.forOption(name)
                : ranges ? TextLoader.ranges(new IpRangeBuilder()) : TextLoader.ips();
        long t0 = System.nanoTime();
        SpindexIndex index = loader.load(name.equals(TEXT) ? text : file);
        long nanos = System.nanoTime() - t0;
        out.add(new Sample(jvm, host, pid, name, r, nanos, bytes, AnswerDigest.of(index)));
      }
    }
    return out;
  }

  /** The counts of {@code samples} by name, as engines add them up. */
  public static Map<String, Long> counts(List<Sample> samples) {
    Map<String, Long> m = new LinkedHashMap<>();
    Set<String> jvms = new HashSet<>();
    for (Sample s : samples) {
      m.merge(loads(s.loader), 1L, Long::sum);
      m.merge(loadMicros(s.loader), s.nanos / 1000, Long::sum);
      jvms.add(s.jvm);
    }
    m.put(JVMS, (long) jvms.size());
    return m;
  }

  /** Per loader: JVMs, loads, min / median / max ms, MB/s at the median, speedup over io's. */
  public static List<List<Object>> table(Plan p, List<Sample> samples) {
    Map<String, List<Double>> ms = new LinkedHashMap<>();
    Map<String, Set<String>> jvms = new LinkedHashMap<>();
    for (Sample s : samples) {
      ms.computeIfAbsent(s.loader, k -> new ArrayList<>()).add(s.nanos / 1e6);
      jvms.computeIfAbsent(s.loader, k -> new HashSet<>()).add(s.jvm);
    }
    double ioMedian = ms.containsKey("io") ? median(ms.get("io")) : Double.NaN;
    List<List<Object>> rows = new ArrayList<>();
    for (String l : p.loaders) {
      List<Double> v = ms.getOrDefault(l, Collections.emptyList());
      v.sort(null);
      double med = median(v);
      rows.add(
          Arrays.<Object>asList(
              l,
              jvms.getOrDefault(l, Collections.emptySet()).size(),
              v.size(),
              v.isEmpty() ? Double.NaN : v.get(0),
              med,
              v.isEmpty() ? Double.NaN : v.get(v.size() - 1),
              med > 0 ? p.indexBytes / 1e6 / (med / 1e3) : Double.NaN,
              ioMedian / med));
    }
    return rows;
  }

  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> v = new ArrayList<>(values);
    v.sort(null);
    int n = v.size();
    return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
  }

  /**
   * The report and the pass rule: every load gave the same answers, at least one JVM measured, and
   * every loader was loaded {@code rounds} times in each.
   *
   * @return whether the run passes
   */
  public static boolean summarize(
      Plan p, JobArgs a, List<Sample> samples, List<List<Object>> table, Report r) {
    Set<Long> answers = new HashSet<>();
    Set<String> jvms = new HashSet<>();
    for (Sample s : samples) {
      answers.add(s.answers);
      jvms.add(s.jvm);
    }
    boolean complete = !jvms.isEmpty();
    for (List<Object> row : table) {
      complete &= ((Integer) row.get(2)) == p.rounds * jvms.size();
    }
    r.put("index", a.get(INDEX)).put("index shipped as", p.index.toString());
    r.put("index version", p.version);
    r.put("index bytes", p.indexBytes).put("rounds", p.rounds).put("tasks", p.tasks);
    r.put("jvms measured", jvms.size());
    r.put("every loader loaded rounds x jvms times", complete);
    r.put("identical answers", answers.size() == 1);
    r.table("loads", COLUMNS, table);
    return complete && answers.size() == 1;
  }

  /** {@code OUT/loader-compare.csv}. */
  public static String tableCsv(List<List<Object>> table) {
    return csv(COLUMNS, table);
  }

  /** {@code OUT/loads.csv}: every load, in the order given. */
  public static String loadsCsv(List<Sample> samples) {
    List<List<Object>> rows = new ArrayList<>();
    for (Sample s : samples) {
      rows.add(
          Arrays.<Object>asList(s.jvm, s.host, s.pid, s.loader, s.round, s.nanos / 1e6, s.bytes));
    }
    return csv(LOAD_COLUMNS, rows);
  }

  static String csv(List<String> columns, List<List<Object>> rows) {
    StringBuilder sb = new StringBuilder(String.join(",", columns)).append('\n');
    for (List<Object> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        Object v = row.get(i);
        sb.append(i == 0 ? "" : ",");
        sb.append(
            v instanceof Double
                ? String.format(Locale.ROOT, "%.3f", (Double) v)
                : String.valueOf(v));
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
