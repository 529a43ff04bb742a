/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.IndexHolder;
import io.spindex.lookup.IpLookupFixture;
import io.spindex.lookup.LookupCounts;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ip-lookup on a real MiniDFSCluster + MiniMRYarnCluster: input and index on HDFS, the index
 * localized by the NodeManager from the distributed cache, every map task in its own JVM. Checks
 * exactly one index load per task JVM and the same output as the LocalJobRunner.
 */
class IpLookupClusterTest {
  private static final String OPENS = "--add-opens=java.base/java.lang=ALL-UNNAMED";

  @TempDir static Path dir;
  static IpLookupFixture fx;
  static MiniDFSCluster dfs;
  static MiniMRYarnCluster yarn;

  @BeforeAll
  static void start() throws Exception {
    fx = new IpLookupFixture(dir, 2500);
    String base = new File("").getAbsoluteFile().toString(); // target/, see the pom
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base + "/minidfs");
    dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    // The AM and task JVMs need java.lang opened on Java 17, as the test JVM does (PLATFORM.md).
    conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx256m " + OPENS);
    conf.set("mapreduce.map.java.opts", "-Xmx200m " + OPENS);
    conf.set("mapreduce.reduce.java.opts", "-Xmx200m " + OPENS);
    conf.setInt("yarn.app.mapreduce.am.resource.mb", 512);
    conf.setInt("mapreduce.map.memory.mb", 384);
    conf.setInt("mapreduce.reduce.memory.mb", 384);
    conf.setInt("yarn.scheduler.minimum-allocation-mb", 128);
    conf.setInt("yarn.nodemanager.resource.memory-mb", 2560);
    conf.setBoolean("yarn.nodemanager.pmem-check-enabled", false);
    conf.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
    // Fast shutdown: no log retention, short kill delays.
    conf.setInt("yarn.nodemanager.log.retain-seconds", 1);
    conf.setLong("yarn.nodemanager.sleep-delay-before-sigkill.ms", 100);
    conf.setLong("yarn.nodemanager.process-kill-wait.ms", 100);
    for (String k :
        new String[] {
          "yarn.resourcemanager.bind-host",
          "yarn.nodemanager.bind-host",
          "yarn.timeline-service.bind-host",
          "mapreduce.jobhistory.bind-host"
        }) {
      conf.set(k, "127.0.0.1");
    }
    // One attempt per task, so that "one load per task JVM" is exact.
    conf.setBoolean("mapreduce.map.speculative", false);
    conf.setBoolean("mapreduce.reduce.speculative", false);
    yarn = new MiniMRYarnCluster("spindex-mr", 1);
    yarn.init(conf);
    yarn.start();
  }

  @AfterAll
  static void stop() {
    if (yarn != null) {
      yarn.stop();
    }
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  @Test
  void indexFromTheDistributedCacheLoadsOncePerTaskJvmAndMatchesTheLocalRunner() throws Exception {
    Configuration conf = new Configuration(yarn.getConfig());
    conf.setInt("mapreduce.client.completion.pollinterval", 100);
    FileSystem fs = dfs.getFileSystem();
    org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/data/in");
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(fx.inputDir.toUri()), in);
    org.apache.hadoop.fs.Path index = new org.apache.hadoop.fs.Path("/data/ranges.spx");
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(fx.ranges.toUri()), index);

    IpLookupTool onYarn = new IpLookupTool();
    int exit =
        ToolRunner.run(
            conf,
            onYarn,
            new String[] {
              "--input",
              fs.makeQualified(in).toString(),
              "--output",
              "/data/out",
              "--index",
              fs.makeQualified(index).toString(),
              "--split-mb",
              "0.1"
            });
    assertEquals(0, exit);
    Counters c = onYarn.counters;
    long maps = IpLookupTool.launchedMaps(c);
    assertTrue(maps >= 4, "map tasks " + maps);
    assertEquals(maps, IpLookupTool.value(c, SpindexCounter.TASKS));
    // Every map task runs in a JVM of its own: each one loads the index, exactly once.
    assertEquals(maps, IpLookupTool.value(c, SpindexCounter.INDEX_LOADS));
    assertEquals(
        maps * fs.getFileStatus(index).getLen(), IpLookupTool.value(c, SpindexCounter.INDEX_BYTES));
    LookupCounts t = IpLookupTool.totals(c);
    assertTrue(t.balanced(), t.toString());
    assertEquals(fx.lines.size(), t.linesIn());

    IndexHolder.clear();
    Path localOut = dir.resolve("local");
    IpLookupTool local = new IpLookupTool();
    assertEquals(
        0,
        ToolRunner.run(
            MrTests.local(),
            local,
            new String[] {
              "--input", fx.inputDir.toString(),
              "--output", localOut.toString(),
              "--index", fx.ranges.toString()
            }));
    List<String> want = sorted(MrTests.readParts(localOut));
    List<String> got = sorted(MrTests.readParts(fs, new org.apache.hadoop.fs.Path("/data/out")));
    assertEquals(want.size(), t.linesOut());
    assertEquals(want, got);
    List<String> wantRejects = withoutDirs(MrTests.readParts(localOut.resolve("_rejects")));
    List<String> gotRejects =
        withoutDirs(MrTests.readParts(fs, new org.apache.hadoop.fs.Path("/data/out/_rejects")));
    assertEquals(wantRejects, gotRejects);
    assertEquals(t.rejected(), gotRejects.size());
    assertEquals(IpLookupTool.totals(local.counters).toString(), t.toString());
  }

  private static List<String> sorted(List<String> lines) {
    List<String> s = new ArrayList<>(lines);
    Collections.sort(s);
    return s;
  }

  /** Rejects with the source reduced to its file name: the two runs read different file systems. */
  private static List<String> withoutDirs(List<String> rejects) {
    List<String> out = new ArrayList<>();
    for (String r : rejects) {
      String[] f = r.split("\t", 3);
      out.add(f[0] + "\t" + f[1].substring(f[1].lastIndexOf('/') + 1) + "\t" + f[2]);
    }
    return sorted(out);
  }
}
