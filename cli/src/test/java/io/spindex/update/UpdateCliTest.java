/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.cli.SpindexProcess;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.KeptVersions;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spindex update} as a user runs it, in its own JVM, against a real HTTP server on loopback:
 * exit statuses, {@code --json}, {@code --dry-run}, usage mistakes, a configuration file, two
 * updaters at once, an updater killed mid-download, a disk that fills during the build.
 */
class UpdateCliTest {
  @TempDir Path dir;

  private DatabaseServer server;

  @BeforeEach
  void start() throws IOException {
    server = new DatabaseServer();
  }

  @AfterEach
  void stop() {
    server.close();
    IndexHolder.clear();
  }

  private static byte[] ranges(String label, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append("10.").append(i >> 8 & 255).append('.').append(i & 255).append(".0|10.");
      sb.append(i >> 8 & 255).append('.').append(i & 255).append(".255|").append(label);
      sb.append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String label(Path out) throws IOException {
    return Loader.NIO.load(out).asRanges().label(0x0A000007);
  }

  @Test
  void updatesOnlyWhenTheSourceChanged() throws Exception {
    DatabaseServer.File f = server.file("/geo.csv");
    f.content = ranges("AU", 10);
    String url = server.url("/geo.csv").toString();
    Path out = dir.resolve("geo.spx");

    SpindexProcess.Run first =
        SpindexProcess.run(dir, "update", "ranges", url, "-o", "geo.spx", "--json");
    assertEquals(0, first.exit, first.toString());
    assertTrue(first.out.startsWith("{\"database\":"), first.out);
    assertTrue(first.out.contains("\"status\":\"updated\""), first.out);
    assertEquals("AU", label(out));

    SpindexProcess.Run again = SpindexProcess.run(dir, "update", "ranges", url, "-o", "geo.spx");
    assertEquals(0, again.exit, again.toString());
    assertTrue(again.out.contains(": unchanged"), again.out);

    f.content = ranges("NZ", 10);
    SpindexProcess.Run dry =
        SpindexProcess.run(dir, "update", "ranges", url, "-o", "geo.spx", "--dry-run", "--json");
    assertEquals(0, dry.exit, dry.toString());
    assertTrue(dry.out.contains("\"status\":\"planned\""), dry.out);
    assertEquals("AU", label(out), "a dry run changes nothing");

    SpindexProcess.Run changed = SpindexProcess.run(dir, "update", "ranges", url, "-o", "geo.spx");
    assertEquals(0, changed.exit, changed.toString());
    assertEquals("NZ", label(out));
    assertEquals(2, KeptVersions.list(out).size());

    SpindexProcess.Run back = SpindexProcess.run(dir, "update", "--rollback", "geo.spx");
    assertEquals(0, back.exit, back.toString());
    assertEquals("AU", label(out));

    f.failWith = 503;
    SpindexProcess.Run failed =
        SpindexProcess.run(dir, "update", "ranges", url, "-o", "geo.spx", "--retries", "0");
    assertEquals(1, failed.exit, failed.toString());
    assertTrue(failed.out.contains("HTTP 503"), failed.out);
    assertEquals("AU", label(out));
  }

  @Test
  void usageMistakesExitTwoInOneLine() throws Exception {
    for (String[] args :
        new String[][] {
          {"update"},
          {"update", "ranges", "x.csv"},
          {"update", "ranges", "x.csv", "-o", "x.spx", "--label-feilds", "a,b"},
          {"update", "ranges", "maxmind:", "-o", "x.spx"},
          {"update", "--rollback", "x.spx", "--conf", "c.conf"},
        }) {
      SpindexProcess.Run r = SpindexProcess.run(dir, args);
      assertEquals(2, r.exit, String.join(" ", args) + "\n" + r);
      assertFalse(r.err.contains("\tat "), r.toString());
    }
    SpindexProcess.Run nearest =
        SpindexProcess.run(dir, "update", "ranges", "x.csv", "-o", "x.spx", "--label-feilds", "a");
    assertTrue(nearest.err.contains("--label-fields"), nearest.toString()); // the nearest option
  }

  @Test
  void aConfigurationFileDeclaresTheDatabases() throws Exception {
    server.file("/a.csv").content = ranges("A", 4);
    server.file("/b.txt").content = "10.0.0.7\n10.0.0.8\n".getBytes(StandardCharsets.UTF_8);
    Path conf = dir.resolve("update.conf");
    Files.write(
        conf,
        ("spindex.update {\n"
                + "  keep = 2\n"
                + "  databases {\n"
                + "    geo { kind = ranges, sources = [\""
                + server.url("/a.csv")
                + "\"], output = geo.spx, build { on-overlap = last } }\n"
                + "    block { kind = ips, sources = [\""
                + server.url("/b.txt")
                + "\"], output = block.spx }\n"
                + "  }\n"
                + "}\n")
            .getBytes(StandardCharsets.UTF_8));
    SpindexProcess.Run r = SpindexProcess.run(dir, "update", "--conf", "update.conf", "--json");
    assertEquals(0, r.exit, r.toString());
    assertEquals(2, r.out.trim().split("\n").length, r.out);
    assertEquals("A", label(dir.resolve("geo.spx")));
    assertTrue(Loader.NIO.load(dir.resolve("block.spx")).asSet().contains(0x0A000008));

    SpindexProcess.Run one = SpindexProcess.run(dir, "update", "--conf", "update.conf", "block");
    assertEquals(0, one.exit, one.toString());
    assertTrue(one.out.contains("block.spx: unchanged") && !one.out.contains("geo.spx"), one.out);

    Files.write(
        conf,
        ("spindex.update {\n  databases {\n    geo {\n      kind = ranges\n      sources = [x]\n"
                + "      ouptut = geo.spx\n    }\n  }\n}\n")
            .getBytes(StandardCharsets.UTF_8));
    SpindexProcess.Run bad = SpindexProcess.run(dir, "update", "--conf", "update.conf");
    assertEquals(1, bad.exit, bad.toString());
    assertTrue(
        bad.err.contains("update.conf:6: unknown key 'ouptut'")
            && bad.err.contains("nearest known key: 'output'"),
        bad.toString());
    assertEquals(1, bad.err.trim().split("\n").length, bad.err);
  }

  @Test
  void aSecondUpdaterWaitsOrSaysWhoHoldsTheLock() throws Exception {
    DatabaseServer.File f = server.file("/big.csv");
    f.content = ranges("BIG", 20_000);
    f.slowMillis = 200; // about 3 s for the body
    String url = server.url("/big.csv").toString();
    SpindexProcess first =
        SpindexProcess.start(dir, Map.of(), "update", "ranges", url, "-o", "geo.spx");
    Path lock = KeptVersions.dir(dir.resolve("geo.spx")).resolve("lock");
    for (int i = 0; i < 200 && !(Files.exists(lock) && Files.size(lock) > 0); i++) {
      Thread.sleep(50);
    }
    SpindexProcess.Run busy =
        SpindexProcess.run(dir, "update", "ranges", url, "-o", "geo.spx", "--lock-wait", "0");
    assertEquals(1, busy.exit, busy.toString());
    assertTrue(busy.out.contains("still locked by pid " + first.pid()), busy.toString());

    SpindexProcess.Run waits = SpindexProcess.run(dir, "update", "ranges", url, "-o", "geo.spx");
    assertEquals(0, first.await().exit);
    assertEquals(0, waits.exit, waits.toString());
    assertTrue(
        waits.err.contains("waiting for the updater that holds it (pid " + first.pid()), waits.err);
    assertTrue(waits.out.contains(": unchanged"), waits.out);
  }

  @Test
  void aKilledUpdaterLeavesThePublishedVersionAndNoLock() throws Exception {
    DatabaseServer.File f = server.file("/big.csv");
    f.content = ranges("OLD", 10);
    String url = server.url("/big.csv").toString();
    assertEquals(0, SpindexProcess.run(dir, "update", "ranges", url, "-o", "geo.spx").exit);
    f.content = ranges("NEW", 20_000);
    f.slowMillis = 300;
    SpindexProcess killed =
        SpindexProcess.start(dir, Map.of(), "update", "ranges", url, "-o", "geo.spx");
    Path sources = KeptVersions.dir(dir.resolve("geo.spx")).resolve("sources");
    for (int i = 0; i < 200 && !hasPart(sources); i++) {
      Thread.sleep(50);
    }
    killed.kill();
    assertEquals("OLD", label(dir.resolve("geo.spx")));
    f.slowMillis = 0;
    SpindexProcess.Run next =
        SpindexProcess.run(dir, "update", "ranges", url, "-o", "geo.spx", "--lock-wait", "0");
    assertEquals(0, next.exit, next.toString());
    assertEquals("NEW", label(dir.resolve("geo.spx")));
  }

  private static boolean hasPart(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (java.util.stream.Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(p -> p.getFileName().toString().endsWith(".part"));
    }
  }

  /**
   * A disk that fills while the new version is built (a 1 MiB tmpfs, mounted where the test may: as
   * root on Linux): the update fails naming the full disk, the published version still serves.
   */
  @Test
  void aDiskThatFillsDuringTheBuildLeavesThePublishedVersion() throws Exception {
    Path disk = Files.createDirectories(dir.resolve("small-disk"));
    Process mount =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.toString())
            .redirectErrorStream(true)
            .start();
    Assumptions.assumeTrue(mount.waitFor() == 0, "cannot mount a tmpfs here (not root?)");
    try {
      DatabaseServer.File f = server.file("/geo.csv");
      f.content = ranges("SMALL", 4);
      String url = server.url("/geo.csv").toString();
      Path out = disk.resolve("geo.spx");
      assertEquals(0, SpindexProcess.run(dir, "update", "ranges", url, "-o", out.toString()).exit);
      f.content = ranges("HUGE", 20_000); // 0.6 MB of text fits, the index built from it not
      SpindexProcess.Run full =
          SpindexProcess.run(dir, "update", "ranges", url, "-o", out.toString(), "--retries", "0");
      assertEquals(1, full.exit, full.toString());
      assertTrue(full.out.contains("still serves"), full.out);
      assertTrue(full.out.contains("No space left on device"), full.out);
      assertEquals("SMALL", label(out));
    } finally {
      new ProcessBuilder("umount", "-l", disk.toString()).start().waitFor();
    }
  }

  @Test
  void theMaxMindCredentialsAppearInNoOutput() throws Exception {
    Path mmdb = dir.resolve("city.mmdb");
    io.spindex.testing.MmdbTestWriter.ipv4()
        .databaseType("Test-City")
        .insert("10.0.0.0/24", Map.of("country", "KR"))
        .write(mmdb);
    server.edition("Test-City").content = UpdaterTest.tarGz(dir, "Test-City", mmdb);
    Map<String, String> env =
        Map.of(
            MaxMind.BASE_ENV, server.base().toString(),
            MaxMind.ACCOUNT_ENV, server.account,
            MaxMind.KEY_ENV, server.licenseKey);
    SpindexProcess.Run r =
        SpindexProcess.start(
                dir, env, "update", "ranges", "maxmind:Test-City", "-o", "city.spx", "--json")
            .await();
    assertEquals(0, r.exit, r.toString());
    assertEquals("KR", Loader.NIO.load(dir.resolve("city.spx")).asRanges().label(0x0A000001));
    Map<String, String> wrong = new java.util.HashMap<>(env);
    wrong.put(MaxMind.KEY_ENV, "not-the-key");
    SpindexProcess.Run refused =
        SpindexProcess.start(dir, wrong, "update", "ranges", "maxmind:Test-City", "-o", "city.spx")
            .await();
    assertEquals(1, refused.exit, refused.toString());
    for (SpindexProcess.Run run : new SpindexProcess.Run[] {r, refused}) {
      assertFalse(run.out.contains(server.licenseKey) || run.err.contains(server.licenseKey));
      assertFalse(run.out.contains("not-the-key") || run.err.contains("not-the-key"));
    }
  }
}
