/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.hadoop.LineChunk;
import io.spindex.index.load.IndexHolder;
import io.spindex.job.LineJob;
import io.spindex.lookup.IpLookupFixture;
import io.spindex.lookup.LookupCounts;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ip-lookup on a real MiniDFSCluster + MiniMRYarnCluster: input and index on HDFS, the index
 * localized by the NodeManager from the distributed cache, every map task in its own JVM. Checks
 * exactly one index load per task JVM and the same output as the LocalJobRunner and the fixture's
 * reference; then failed map attempts (an exception, a halted JVM) change neither output nor
 * counters.
 */
class IpLookupClusterTest {
  private static final String OPENS = "--add-opens=java.base/java.lang=ALL-UNNAMED";

  @TempDir static Path dir;
  static IpLookupFixture fx;
  static MiniDFSCluster dfs;
  static MiniMRYarnCluster yarn;
  static FileSystem fs;
  static IpLookupTool undisturbed;
  static final org.apache.hadoop.fs.Path IN = new org.apache.hadoop.fs.Path("/data/in");
  static final org.apache.hadoop.fs.Path INDEX = new org.apache.hadoop.fs.Path("/data/ranges.spx");

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
    MiniHadoop.nodeManagerChecks(conf);
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
    // No speculative attempts: the only extra attempts are the injected failures' retries.
    conf.setBoolean("mapreduce.map.speculative", false);
    conf.setBoolean("mapreduce.reduce.speculative", false);
    yarn = new MiniMRYarnCluster("spindex-mr", 1);
    yarn.init(conf);
    yarn.start();
    MiniHadoop.awaitNodeManagers(yarn.getResourceManager(), 1);
    fs = dfs.getFileSystem();
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(fx.inputDir.toUri()), IN);
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(fx.ranges.toUri()), INDEX);
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

  /** One ip-lookup run on YARN over the fixture's input, output under {@code /data/NAME}. */
  private static IpLookupTool runOnYarn(
      String name, Class<? extends Mapper<LongWritable, LineChunk, Writable, Writable>> mapper)
      throws Exception {
    Configuration conf = new Configuration(yarn.getConfig());
    conf.setInt("mapreduce.client.completion.pollinterval", 100);
    IpLookupTool tool = new IpLookupTool();
    tool.mapperClass = mapper;
    int exit =
        ToolRunner.run(
            conf,
            tool,
            new String[] {
              "--input",
              fs.makeQualified(IN).toString(),
              "--output",
              "/data/" + name,
              "--index",
              fs.makeQualified(INDEX).toString(),
              "--split-mb",
              "0.25" // five map tasks: two splits of each plain file (about 0.45 MB), the .gz whole
            });
    assertEquals(0, exit);
    return tool;
  }

  /** The undisturbed run on YARN, shared by the tests (run by the first that needs it). */
  private static IpLookupTool undisturbed() throws Exception {
    if (undisturbed == null) {
      undisturbed = runOnYarn("out", LineJobMapper.class);
    }
    return undisturbed;
  }

  @Test
  void indexFromTheDistributedCacheLoadsOncePerTaskJvmAndMatchesTheLocalRunner() throws Exception {
    IpLookupTool onYarn = undisturbed();
    Counters c = onYarn.counters;
    long maps = MrTests.value(c, JobCounter.TOTAL_LAUNCHED_MAPS);
    assertTrue(maps >= 4, "map tasks " + maps);
    // Every map task runs in a JVM of its own: each one loads the index, exactly once.
    LookupCounts t = assertTasksLoadsAndLines(c, maps);
    // An index on HDFS is staged: the distributed cache localises it once per node.
    String json = onYarn.report.toJson();
    assertTrue(
        json.contains(MrTests.json("index shipped as", "stage:" + fs.makeQualified(INDEX))), json);

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
    assertEquals(reference().get(0), got);
    List<String> wantRejects = withoutDirs(MrTests.readParts(localOut.resolve("_rejects")));
    List<String> gotRejects =
        withoutDirs(MrTests.readParts(fs, new org.apache.hadoop.fs.Path("/data/out/_rejects")));
    assertEquals(wantRejects, gotRejects);
    assertEquals(reference().get(1), gotRejects);
    assertEquals(t.rejected(), gotRejects.size());
    assertEquals(MrTests.lookupCounts(local.counters).toString(), t.toString());
  }

  /**
   * Two map attempts fail: one throws, one halts its JVM, both after loading the index and writing
   * output. Hadoop runs a second attempt of each task in a new JVM; the job succeeds with the
   * undisturbed run's output, rejects and Spindex counters, because only each task's successful
   * attempt is committed and counted.
   */
  @Test
  void failedMapAttemptsAreRetriedAndLeaveWhatAnUndisturbedRunLeaves() throws Exception {
    IpLookupTool calm = undisturbed();
    IpLookupTool faulty = runOnYarn("out-faulty", FaultyIpLookupMapper.class);
    long maps = MrTests.value(calm.counters, JobCounter.TOTAL_LAUNCHED_MAPS);

    // The faults happened: exactly the two first attempts failed, and every task succeeded once.
    List<String> failed = new ArrayList<>();
    Map<Integer, Integer> succeeded = new TreeMap<>();
    for (TaskCompletionEvent e : faulty.job.getTaskCompletionEvents(0, 10_000)) {
      TaskAttemptID a = e.getTaskAttemptId();
      if (e.getStatus() == TaskCompletionEvent.Status.FAILED) {
        failed.add("m" + a.getTaskID().getId() + "/" + a.getId());
      } else if (e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
        assertNull(succeeded.put(a.getTaskID().getId(), a.getId()), "task succeeded twice: " + a);
      }
    }
    Collections.sort(failed);
    assertEquals(List.of("m0/0", "m1/0"), failed);
    assertEquals(maps, succeeded.size(), "succeeded tasks " + succeeded);
    assertEquals(1, succeeded.get(0));
    assertEquals(1, succeeded.get(1));
    String thrown = diagnostics(faulty.job, 0);
    assertTrue(thrown.contains(FaultyIpLookupMapper.THROWN), thrown);
    String halted = diagnostics(faulty.job, 1);
    assertTrue(halted.contains("exit code " + FaultyIpLookupMapper.HALT_STATUS), halted);
    Counters c = faulty.counters;
    assertEquals(2, MrTests.value(c, JobCounter.NUM_FAILED_MAPS));
    assertEquals(maps + 2, MrTests.value(c, JobCounter.TOTAL_LAUNCHED_MAPS));

    // Counters of failed attempts are dropped: the two extra loads and task starts do not count.
    LookupCounts t = assertTasksLoadsAndLines(c, maps);
    assertEquals(MrTests.lookupCounts(calm.counters).toString(), t.toString());
    assertEquals(
        MrTests.jobCounts(MrTests.totals(calm.counters)), MrTests.jobCounts(MrTests.totals(c)));

    // Only the successful attempts' files were committed: one part per task, nothing left over.
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path("/data/out-faulty");
    List<String> names = new ArrayList<>();
    for (FileStatus st : fs.listStatus(out)) {
      names.add(st.getPath().getName());
    }
    assertFalse(names.contains("_temporary"), names.toString());
    assertEquals(
        maps, names.stream().filter(n -> n.startsWith("part-m-")).count(), names.toString());
    List<String> got = sorted(MrTests.readParts(fs, out));
    assertEquals(reference().get(0), got);
    assertEquals(sorted(MrTests.readParts(fs, new org.apache.hadoop.fs.Path("/data/out"))), got);
    assertEquals(t.linesOut(), got.size());
    List<String> gotRejects =
        withoutDirs(MrTests.readParts(fs, new org.apache.hadoop.fs.Path(out, "_rejects")));
    assertEquals(reference().get(1), gotRejects);
    assertEquals(t.rejected(), gotRejects.size());
  }

  /** The diagnostics of the first attempt of map task {@code task}. */
  /**
   * ep-transform on YARN with its spec's value map and membership index in a directory of the
   * submitting side: the tool ships both through the distributed cache, each container compiles the
   * spec against its localised copies, and the merged output equals the command's, byte for byte.
   */
  @Test
  void epTransformShipsTheSpecsSideFilesToTheContainers() throws Exception {
    Path here = dir.resolve("spec-here");
    java.nio.file.Files.createDirectories(here);
    for (String f :
        new String[] {
          "ep-transform.example.conf", "ep-category-map.example.tsv", "ep-blocked.example.tsv"
        }) {
      java.nio.file.Files.copy(EpTransformToolTest.SPEC.resolveSibling(f), here.resolve(f));
    }
    Path spec = here.resolve("ep-transform.example.conf");
    Path feed = dir.resolve("feed.tsv");
    try (java.io.OutputStream o = java.nio.file.Files.newOutputStream(feed)) {
      new io.spindex.gen.EpGenerator(3000, 11, 0.03).writeTo(o);
    }
    Path cli = dir.resolve("cli.tsv");
    io.spindex.cli.local.LocalEpJobs.transform(feed, cli, dir.resolve("cli.rej"), spec, 1);
    fs.copyFromLocalFile(
        new org.apache.hadoop.fs.Path(feed.toUri()), new org.apache.hadoop.fs.Path("/data/ep/in"));

    Configuration conf = new Configuration(yarn.getConfig());
    conf.setInt("mapreduce.client.completion.pollinterval", 100);
    EpTransformTool tool = new EpTransformTool();
    int exit =
        ToolRunner.run(
            conf,
            tool,
            new String[] {
              "--input", fs.makeQualified(new org.apache.hadoop.fs.Path("/data/ep/in")).toString(),
              "--output", "/data/ep/out",
              "--spec", spec.toString(),
              "--split-mb", "0.8", // three map tasks over the 2.2 MB feed
              "--single-file", "true"
            });
    assertEquals(0, exit);
    byte[] got;
    try (java.io.InputStream in = fs.open(new org.apache.hadoop.fs.Path("/data/ep/out/ep.tsv"))) {
      got = in.readAllBytes();
    }
    assertTrue(
        java.util.Arrays.equals(java.nio.file.Files.readAllBytes(cli), got),
        "ep.tsv equals the command's output");
    assertTrue(
        tool.report
            .toJson()
            .contains(
                "\"side files shipped as\": \"files:ep-category-map.example.tsv"
                    + " files:ep-blocked.example.tsv\""),
        tool.report.toJson());
    assertTrue(MrTests.count(tool.counters, LineJob.TASKS) >= 2, "several map tasks");
  }

  private static String diagnostics(Job job, int task) throws Exception {
    TaskAttemptID a = new TaskAttemptID(new TaskID(job.getJobID(), TaskType.MAP, task), 0);
    return String.join("\n", job.getTaskDiagnostics(a));
  }

  /**
   * Output lines and rejects (source reduced to the file name) computed from the fixture's TreeMap
   * reference, independently of the job, both sorted.
   */
  private static List<List<String>> reference() {
    return fx.annotateReference(f -> f);
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
      String[] f = r.split("\t", 2); // source, the rest of the record
      out.add(f[0].substring(f[0].lastIndexOf('/') + 1) + "\t" + f[1]);
    }
    return sorted(out);
  }

  /**
   * One task count, one index load and one index's bytes per map task; lines balanced and all read.
   */
  private LookupCounts assertTasksLoadsAndLines(Counters c, long maps) throws Exception {
    assertEquals(maps, MrTests.count(c, LineJob.TASKS));
    assertEquals(maps, MrTests.count(c, LineJob.INDEX_LOADS));
    assertEquals(maps * fs.getFileStatus(INDEX).getLen(), MrTests.count(c, LineJob.INDEX_BYTES));
    LookupCounts t = MrTests.lookupCounts(c);
    assertTrue(t.balanced(), t.toString());
    assertEquals(fx.lines.size(), t.linesIn());
    return t;
  }
}
