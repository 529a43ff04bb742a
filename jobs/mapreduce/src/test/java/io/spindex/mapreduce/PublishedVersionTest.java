/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.KeptVersions;
import io.spindex.index.load.Loader;
import io.spindex.lookup.IpLookupFixture;
import io.spindex.lookup.TestIndexes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MapReduce job keeps the version of its index it started on while {@code spindex update}
 * publishes another: every map task answers from the first version, also a task that starts after
 * the publication in a JVM that never held the index (played here by forgetting every held index
 * before each task: the LocalJobRunner runs them all in this JVM). The versions are published as
 * the updater does it: each kept in {@code OUT.spx.versions/}, then renamed over {@code OUT.spx}.
 */
class PublishedVersionTest {
  @TempDir static Path dir;
  static IpLookupFixture fx;

  @BeforeAll
  static void setUp() throws Exception {
    fx = new IpLookupFixture(dir, 6000);
  }

  @AfterEach
  void clear() {
    IndexHolder.clear();
    PublishingMapper.beforeTask = null;
  }

  /** Publishes {@code built} at {@code live} as spindex update does, at time {@code when}. */
  static void publish(Path live, Path built, Instant when) throws IOException {
    Path kept = Files.createDirectories(KeptVersions.dir(live));
    int crc = Loader.readHeader(built).headerCrc32c();
    Path version = kept.resolve(KeptVersions.fileName(when, crc));
    Files.copy(built, version, StandardCopyOption.REPLACE_EXISTING);
    Path tmp = live.resolveSibling("." + live.getFileName() + ".tmp");
    Files.copy(version, tmp, StandardCopyOption.REPLACE_EXISTING);
    Files.move(tmp, live, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The line jobs' mapper, with something run before each task. */
  public static final class PublishingMapper extends LineJobMapper {
    static volatile Runnable beforeTask;

    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      Runnable r = beforeTask;
      if (r != null) {
        r.run();
      }
      super.setup(context);
    }
  }

  @Test
  void everyTaskAnswersFromTheVersionTheJobStartedOn() throws Exception {
    Path live = Files.createDirectories(dir.resolve("live")).resolve("geo.spx");
    publish(live, fx.ranges, Instant.parse("2026-11-01T00:00:00Z"));
    Path next = dir.resolve("next.spx");
    TestIndexes.writeRanges(next, new long[][] {{0, 0xFFFF_FFFFL}}, new String[] {"NEW"});
    int[] tasks = {0};
    PublishingMapper.beforeTask =
        () -> {
          try {
            if (tasks[0]++ == 0) {
              publish(live, next, Instant.parse("2026-11-02T00:00:00Z")); // during the job
            }
            IndexHolder.clear(); // each task in a JVM of its own
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        };
    Path out = dir.resolve("out");
    IpLookupTool tool = new IpLookupTool();
    tool.mapperClass = PublishingMapper.class;
    int exit =
        ToolRunner.run(
            MrTests.local(),
            tool,
            new String[] {
              "--input", fx.inputDir.toString(),
              "--output", out.toString(),
              "--index", live.toString(),
              "--index-ship", "local",
              "--split-mb", "0.25"
            });
    assertEquals(0, exit);
    assertTrue(tasks[0] >= 4, "map tasks " + tasks[0]);
    List<String> got = MrTests.readParts(out);
    Collections.sort(got);
    List<List<String>> want =
        fx.annotateReference(f -> "file:" + fx.inputDir.resolve(f).toAbsolutePath());
    assertEquals(want.get(0), got, "every line answered from the version the job started on");
    // One version answered, counted by every task that read it.
    List<Counter> versions = new ArrayList<>();
    tool.counters.getGroup(LineJobTool.VERSIONS_GROUP).forEach(versions::add);
    assertEquals(1, versions.size(), versions.toString());
    assertEquals(tasks[0], versions.get(0).getValue());
    assertEquals(
        String.format("%08x", Loader.readHeader(fx.ranges).headerCrc32c()),
        versions.get(0).getName().split(" ")[1]);
    assertEquals("NEW", Loader.NIO.load(live).asRanges().label(0x0A000001), "published meanwhile");
  }
}
