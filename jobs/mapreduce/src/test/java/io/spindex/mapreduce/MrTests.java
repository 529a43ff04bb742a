/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.job.LineJob;
import io.spindex.lookup.LookupCounts;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Counters;

/** LocalJobRunner configuration, counter and output readers shared by the tests. */
final class MrTests {
  private MrTests() {}

  /** In-process MapReduce on the local file system, polling fast, staging under target/. */
  static Configuration local() {
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", "local");
    conf.set("fs.defaultFS", "file:///");
    conf.setInt("mapreduce.client.completion.pollinterval", 100);
    // Surefire runs in target/ (see the pom): staging and temp stay in the build directory.
    String target = Path.of("").toAbsolutePath().toString();
    conf.set("mapreduce.jobtracker.staging.root.dir", target + "/mr-staging");
    conf.set("hadoop.tmp.dir", target + "/hadoop-tmp");
    return conf;
  }

  /** Lines of every {@code part-*} file directly in {@code dir} (gzip-aware), in name order. */
  static List<String> readParts(Path dir) throws IOException {
    return io.spindex.cli.local.EnginesAgreeContract.readParts(dir);
  }

  /** Lines of every {@code part-*} file directly under {@code dir} on any Hadoop file system. */
  static List<String> readParts(FileSystem fs, org.apache.hadoop.fs.Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (FileStatus st : fs.listStatus(dir)) {
      if (st.getPath().getName().startsWith("part-")) {
        try (InputStream in = fs.open(st.getPath())) {
          lines.addAll(read(in));
        }
      }
    }
    return lines;
  }

  /** The line job's counts of a finished job ({@value LineJobTool#GROUP} group), by name. */
  static Map<String, Long> totals(Counters c) {
    return LineJobTool.totals(c);
  }

  /** ip-lookup's counts of a finished job. */
  static LookupCounts lookupCounts(Counters c) {
    return LookupCounts.fromMap(LineJobTool.totals(c));
  }

  /** One count of a finished line job by name (0 when no task counted it). */
  static long count(Counters c, String name) {
    return LineJobTool.totals(c).getOrDefault(name, 0L);
  }

  /** A Hadoop task or job counter ({@code TaskCounter}, {@code JobCounter}). */
  static long value(Counters c, Enum<?> counter) {
    return c.findCounter(counter).getValue();
  }

  /**
   * The job's own counts, without those the engine adds (tasks, index loads), which differ by
   * engine, and without zeros (a counter no task incremented does not exist).
   */
  static Map<String, Long> jobCounts(Map<String, Long> totals) {
    Map<String, Long> m = new TreeMap<>(totals);
    m.keySet()
        .removeAll(
            List.of(
                LineJob.TASKS,
                LineJob.INDEX_LOADS,
                LineJob.INDEX_LOAD_MS,
                LineJob.INDEX_BYTES,
                LineJob.STAGE_MS));
    m.values().removeIf(v -> v == 0);
    return m;
  }

  /** How a summary's JSON shows a number or boolean fact: {@code "key": value}. */
  static String json(String key, Object value) {
    return "\"" + key + "\": " + (value instanceof String ? "\"" + value + "\"" : value);
  }

  /**
   * Runs {@code args} through the job jar's dispatcher ({@link SpindexMapReduce#run}), expecting
   * exit code {@code code} and exactly one line on standard error without a stack trace; returns
   * that line.
   */
  static String stderr(int code, Configuration conf, String... args) throws Exception {
    String[] r = capture(conf, args);
    String err = r[2];
    assertEquals(String.valueOf(code), r[0], err);
    String line = err.endsWith("\n") ? err.substring(0, err.length() - 1) : err;
    assertTrue(!line.isBlank() && !line.contains("\n"), "one line: " + err);
    assertFalse(err.contains("Exception") || err.contains("\tat ") || err.contains("at io."), err);
    return line;
  }

  /** Runs {@code args} through the dispatcher: exit code, standard output, standard error. */
  static synchronized String[] capture(Configuration conf, String... args) throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
      code = SpindexMapReduce.run(conf, args);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    String so = o.toString(StandardCharsets.UTF_8);
    String se = e.toString(StandardCharsets.UTF_8);
    out.print(so);
    err.print(se);
    return new String[] {String.valueOf(code), so, se};
  }

  private static List<String> read(InputStream in) throws IOException {
    List<String> lines = new ArrayList<>();
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    for (String line; (line = r.readLine()) != null; ) {
      lines.add(line);
    }
    return lines;
  }

  /** LF-terminated lines, one char per byte (rejects may hold invalid UTF-8 and CRs). */
  static List<String> lines(byte[] b) {
    List<String> l = new ArrayList<>();
    int from = 0;
    for (int i = 0; i < b.length; i++) {
      if (b[i] == '\n') {
        l.add(new String(b, from, i - from, StandardCharsets.ISO_8859_1));
        from = i + 1;
      }
    }
    return l;
  }
}
