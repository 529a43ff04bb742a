/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An old index on MapReduce: {@code -D spindex.max-age} (or {@code --max-age}) refuses it on the
 * client before any job is submitted, in one line; {@code --warn-age} warns in one line and runs;
 * the counter group {@value LineJobTool#VERSIONS_GROUP} names the version with its source time.
 */
class FreshnessToolTest {
  @TempDir static Path dir;
  static Path index;
  static Path input;

  /** Built a day after its source, which is far older than 30 days. */
  static final Instant SOURCE = Instant.parse("2026-10-19T03:00:00Z");

  static final Instant CREATED = Instant.parse("2026-10-20T00:00:00Z");

  @BeforeAll
  static void setUp() throws Exception {
    Path text =
        Files.write(
            dir.resolve("geo.txt"), "1.0.0.0|1.0.0.255|AU\n".getBytes(StandardCharsets.UTF_8));
    index = dir.resolve("geo.spx");
    new IpRangeBuilder()
        .createdMillis(CREATED.toEpochMilli())
        .sourceMillis(SOURCE.toEpochMilli())
        .build(List.of(text), index);
    input = Files.createDirectories(dir.resolve("logs"));
    Files.write(input.resolve("a.log"), "1.0.0.7 GET /\n9.9.9.9 GET /\n".getBytes());
  }

  @AfterEach
  void clear() {
    IndexHolder.clear();
  }

  /** Runs ip-lookup: the tool, and what it printed on standard error. */
  private static Object[] run(int wantExit, String... args) throws Exception {
    IpLookupTool tool = new IpLookupTool();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream was = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      assertEquals(wantExit, ToolRunner.run(MrTests.local(), tool, args));
    } finally {
      System.setErr(was);
    }
    return new Object[] {tool, err.toString(StandardCharsets.UTF_8)};
  }

  private static String[] lookup(String out, String... more) {
    List<String> a = new ArrayList<>(List.of(more));
    a.addAll(
        List.of(
            "--input",
            input.toString(),
            "--output",
            dir.resolve(out).toString(),
            "--index",
            index.toString()));
    return a.toArray(new String[0]);
  }

  /** The lines of {@code err} that speak of the index's age. */
  private static List<String> ageLines(String err) {
    List<String> out = new ArrayList<>();
    for (String l : err.split("\n")) {
      if (l.contains("the database is")) {
        out.add(l);
      }
    }
    return out;
  }

  @Test
  void maxAgeRefusesTheIndexBeforeAnyJob() throws Exception {
    for (String[] args :
        new String[][] {
          lookup("refused-d", "-D", "spindex.max-age=30d"), lookup("refused", "--max-age", "30d")
        }) {
      Object[] r = run(1, args);
      List<String> lines = ageLines((String) r[1]);
      assertEquals(1, lines.size(), (String) r[1]);
      String l = lines.get(0);
      assertTrue(l.startsWith("spindex ip-lookup: " + index + ": the database is "), l);
      assertTrue(
          l.endsWith(" days old (source built 2026-10-19T03:00:00Z); max-age is 30 days"), l);
      assertEquals(null, ((IpLookupTool) r[0]).job, "no job was submitted");
    }
    assertFalse(Files.exists(dir.resolve("refused")), "no output directory");
  }

  @Test
  void warnAgeWarnsOnceAndTheCountersNameTheSourceTime() throws Exception {
    Object[] r = run(0, lookup("warned", "--warn-age", "30d"));
    List<String> lines = ageLines((String) r[1]);
    assertEquals(1, lines.size(), (String) r[1]);
    assertTrue(
        lines.get(0).startsWith("spindex ip-lookup: warning: " + index + ": "), lines::toString);
    assertTrue(lines.get(0).endsWith("; warn-age is 30 days"), lines::toString);

    IpLookupTool tool = (IpLookupTool) r[0];
    IndexHeader h = Loader.readHeader(index);
    String want =
        String.format(
            Locale.ROOT,
            "geo.spx %08x %s 20261020T000000Z 20261019T030000Z",
            h.headerCrc32c(),
            h.sourceDigestHex().substring(0, 8));
    List<String> counters = new ArrayList<>();
    for (Counter c : tool.counters.getGroup(LineJobTool.VERSIONS_GROUP)) {
      counters.add(c.getName() + "=" + c.getValue());
    }
    long tasks = MrTests.count(tool.counters, io.spindex.job.LineJob.TASKS);
    assertEquals(List.of(want + "=" + tasks), counters);
    assertTrue(
        tool.report.toText().contains("source built 2026-10-19T03:00:00Z)"), tool.report.toText());
  }
}
