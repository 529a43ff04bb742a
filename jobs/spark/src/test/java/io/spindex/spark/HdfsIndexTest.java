/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.load.IndexHolder;
import io.spindex.lookup.IpLookupFixture;
import io.spindex.spark.side.JvmEvent;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Index, input and output on a real HDFS (MiniDFSCluster); the index is staged per JVM. */
class HdfsIndexTest {
  @TempDir static Path dir;
  static MiniDFSCluster dfs;
  static FileSystem fs;
  static IpLookupFixture fx;

  @BeforeAll
  static void start() throws Exception {
    fx = new IpLookupFixture(dir, 3000);
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    dfs.waitActive();
    fs = dfs.getFileSystem();
    fs.copyFromLocalFile(
        new org.apache.hadoop.fs.Path(fx.ranges.toString()),
        new org.apache.hadoop.fs.Path("/idx/ranges.spx"));
    fs.copyFromLocalFile(
        new org.apache.hadoop.fs.Path(fx.inputDir.toString()),
        new org.apache.hadoop.fs.Path("/in"));
  }

  @AfterAll
  static void stop() {
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  @Test
  void indexFromHdfsIsStagedOnceAndAnswersLikeTheReference() throws Exception {
    IndexHolder.clear();
    String base = fs.getUri().toString();
    JobResult r =
        SpindexSpark.run(
            SparkTests.session(),
            io.spindex.job.IpLookupDefinition.NAME,
            new String[] {
              "--input", base + "/in",
              "--output", base + "/out",
              "--index", base + "/idx/ranges.spx",
              "--mode", "annotate",
              "--split-mb", "0.1"
            });
    System.out.println(r.report.toText());
    assertTrue(r.ok && r.counts().balanced(), r.counts().toString());
    assertEquals(fx.lines.size(), r.counts().linesIn());
    assertEquals(1, r.jvmEvents.stream().filter(e -> e.what.equals(JvmEvent.STAGE)).count());
    assertEquals(1, r.jvmEvents.stream().filter(e -> e.what.equals(JvmEvent.LOAD)).count());
    assertTrue(r.report.toJson().contains("\"index shipped as\": \"stage:hdfs://"));

    List<String> want = new ArrayList<>();
    for (IpLookupFixture.Line l : fx.lines) {
      long a = IpLookupFixture.address(l.text);
      if (a >= 0) {
        want.add(l.text + "\t" + fx.rangeLabel(a));
      }
    }
    List<String> got = new ArrayList<>();
    for (FileStatus st : fs.listStatus(new org.apache.hadoop.fs.Path("/out"))) {
      if (st.getPath().getName().startsWith("part-")) {
        try (InputStream in = fs.open(st.getPath())) {
          ByteArrayOutputStream b = new ByteArrayOutputStream();
          in.transferTo(b);
          for (String line : new String(b.toByteArray(), StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
              got.add(line);
            }
          }
        }
      }
    }
    Collections.sort(want);
    Collections.sort(got);
    assertEquals(want, got);
    assertTrue(fs.exists(new org.apache.hadoop.fs.Path("/out/_summary.json")));
    assertTrue(fs.exists(new org.apache.hadoop.fs.Path("/out/_rejects")));
  }
}
