/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.load.IndexHolder;
import io.spindex.job.IpLookupDefinition;
import io.spindex.lookup.IpLookupFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MapReduce settings: {@code spindex.<option>} for every option of every job and {@code
 * spindex.versions}, nothing else under {@code spindex.}: an unknown key is exit 2 and one line
 * naming the nearest setting, and what the tools write for their tasks stays out of the users'
 * namespace.
 */
class SettingsTest {
  @TempDir static Path dir;
  static IpLookupFixture fx;

  @BeforeAll
  static void setUp() throws Exception {
    fx = new IpLookupFixture(dir.resolve("logs"), 20);
  }

  @Test
  void theSettingsAreTheJobsOptionsAndVersions() {
    Set<String> want = new TreeSet<>();
    for (Map<String, String> t : ConfMirrorTest.optionTables().values()) {
      want.addAll(t.keySet());
    }
    assertEquals(
        new TreeSet<>(SpindexMapReduce.JOBS.names()),
        new TreeSet<>(ConfMirrorTest.optionTables().keySet()),
        "every job's table");
    want.add("versions");
    assertEquals(want, LineJobTool.SETTINGS.names());
    assertEquals("spindex.versions", LineJobMapper.VERSIONS);
  }

  /** What conf/spindex-mapreduce.xml names under spindex. is a setting, spelled as it is. */
  @Test
  void theExampleFileNamesOnlySettings() throws Exception {
    String text = new String(Files.readAllBytes(ConfMirrorTest.CONF), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("(?<![\\w.])spindex\\.[a-z0-9.-]*[a-z0-9]").matcher(text);
    int keys = 0;
    while (m.find()) {
      assertTrue(LineJobTool.SETTINGS.known(m.group()), m.group());
      keys++;
    }
    assertTrue(keys > 20, "keys: " + keys);
  }

  @Test
  void anUnknownKeyIsExitTwoAndOneLineNamingTheNearest() throws Exception {
    Configuration conf = MrTests.local();
    conf.set("spindex.idnex", fx.ranges.toString());
    Path never = dir.resolve("never");
    String err =
        MrTests.stderr(
            2,
            conf,
            "ip-lookup",
            "--input",
            fx.inputDir.toString(),
            "--index",
            fx.ranges.toString(),
            "--output",
            never.toString());
    assertEquals("ip-lookup: unknown setting spindex.idnex (nearest: spindex.index)", err);
    assertTrue(!Files.exists(never), "nothing written");
    // --help still answers.
    assertEquals("0", MrTests.capture(conf, "ip-lookup", "--help")[0]);
    // A Spark-only setting is no MapReduce setting.
    assertTrue(!LineJobTool.SETTINGS.known("spindex.sql.batch"));
    // Every job, loader-compare too.
    Configuration c = MrTests.local();
    c.set("spindex.roudns", "3");
    assertEquals(
        "loader-compare: unknown setting spindex.roudns (nearest: spindex.rounds)",
        MrTests.stderr(
            2, c, "loader-compare", "--index", fx.ranges.toString(), "--output", never.toString()));
  }

  /**
   * The plan, the definition and loader-compare's task count travel in the job's configuration
   * under mapreduce.job.spindex.: after a run, the only spindex. keys there are the user's (here -D
   * spindex.rounds and spindex.tasks), and the user's spindex.tasks (0: 4 x mapreduce.job.maps) is
   * not the tool's task count.
   */
  @Test
  void whatTheToolsWriteStaysOutOfTheUsersNamespace() throws Exception {
    IndexHolder.clear();
    Configuration conf = MrTests.local();
    conf.set("spindex.rounds", "1");
    conf.set("spindex.tasks", "0");
    conf.setInt("mapreduce.job.maps", 1);
    LoaderCompareTool compare = new LoaderCompareTool();
    int exit =
        ToolRunner.run(
            conf,
            compare,
            new String[] {
              "--index", fx.ranges.toString(), "--output", dir.resolve("compare").toString()
            });
    assertEquals(0, exit);
    Configuration jc = compare.job.getConfiguration();
    assertEquals(Set.of("spindex.rounds", "spindex.tasks"), spindexKeys(jc));
    assertEquals("0", jc.get("spindex.tasks"));
    assertEquals(4, jc.getInt(TaskSplits.CONF_TASKS, -1));
    assertTrue(jc.get(LineJobTool.CONF_PLAN) != null, "the plan, under mapreduce.job.spindex.");

    IpLookupTool lookup = new IpLookupTool();
    exit =
        ToolRunner.run(
            MrTests.local(),
            lookup,
            new String[] {
              "--input", fx.inputDir.toString(),
              "--index", fx.ranges.toString(),
              "--output", dir.resolve("lookup").toString()
            });
    assertEquals(0, exit);
    Job job = lookup.job;
    assertEquals(Set.of(), spindexKeys(job.getConfiguration()));
    assertEquals(
        IpLookupDefinition.class.getName(), job.getConfiguration().get(LineJobTool.CONF_JOB));
    assertTrue(LineJobTool.CONF_JOB.startsWith("mapreduce.job.spindex."), LineJobTool.CONF_JOB);
  }

  private static Set<String> spindexKeys(Configuration c) {
    Set<String> keys = new TreeSet<>();
    for (Map.Entry<String, String> e : c) {
      if (e.getKey().startsWith("spindex.")) {
        keys.add(e.getKey());
      }
    }
    return keys;
  }
}
