/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.fetch.FetchOptions;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spindex update} publishing to a Hadoop path, on a real HDFS (MiniDFSCluster): the version
 * is kept in {@code OUT.spx.versions/} and renamed over {@code OUT.spx}; an unchanged source
 * publishes nothing; the last versions are kept; a rollback publishes the one before. Answers are
 * read back from HDFS and compared with the source text the test wrote.
 */
class HadoopPublicationTest {
  @TempDir static Path dir;
  static MiniDFSCluster dfs;
  static FileSystem fs;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    dfs.waitActive();
    fs = dfs.getFileSystem();
  }

  @AfterAll
  static void stop() {
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  private static Updater updater() {
    return new Updater(
        Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString()),
        FetchOptions.defaults(),
        null,
        Duration.ofSeconds(5),
        false,
        new PrintWriter(new StringWriter(), true));
  }

  private static String label(String hdfsPath) throws IOException {
    Path local = Files.createTempFile(dir, "read-", ".spx");
    fs.copyToLocalFile(
        false,
        new org.apache.hadoop.fs.Path(hdfsPath),
        new org.apache.hadoop.fs.Path(local.toUri()),
        true);
    return Loader.NIO.load(local).asRanges().label(0x0A000107);
  }

  @Test
  void publishesKeepsAndRollsBackOnHdfs() throws IOException {
    String out = fs.getUri() + "/geo/city.spx";
    Path src = dir.resolve("ranges.txt");
    Updater.Database db =
        new Updater.Database(
            List.of(src.toString()),
            out,
            2,
            false,
            UpdateConf.build(UpdateConf.args("update ranges", "ranges", k -> null)));
    for (String label : new String[] {"AU", "NZ", "KR"}) {
      Files.write(src, ("10.0.1.0|10.0.1.255|" + label + "\n").getBytes(StandardCharsets.UTF_8));
      UpdateResult r = updater().update(db);
      assertEquals(UpdateResult.Status.UPDATED, r.status(), r.message());
      assertEquals(label, label(out));
    }
    UpdateResult same = updater().update(db);
    assertEquals(UpdateResult.Status.UNCHANGED, same.status(), same.message());
    List<String> kept = new ArrayList<>();
    for (FileStatus s : fs.listStatus(new org.apache.hadoop.fs.Path("/geo/city.spx.versions"))) {
      kept.add(s.getPath().getName());
    }
    assertEquals(2, kept.size(), kept.toString());

    UpdateResult back = updater().rollback(out);
    assertEquals(UpdateResult.Status.ROLLED_BACK, back.status(), back.message());
    assertEquals("NZ", label(out));
    assertTrue(Files.isDirectory(dir.resolve("cache/spindex/update")), "the work stays local");
  }
}
