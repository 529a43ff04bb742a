/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.fetch.FetchOptions;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.KeptVersions;
import io.spindex.index.load.Loader;
import io.spindex.testing.MmdbTestWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spindex update}'s engine against a real HTTP server on loopback ({@link DatabaseServer}):
 * what is downloaded and built when, what is published, what stays when anything fails. Answers are
 * checked by looking addresses up in the published file against the source text the test wrote.
 */
class UpdaterTest {
  @TempDir Path dir;

  private DatabaseServer server;
  private final Map<String, String> env = new HashMap<>();
  private final StringWriter notices = new StringWriter();

  @BeforeEach
  void start() throws IOException {
    server = new DatabaseServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Updater updater() {
    return new Updater(
        env,
        FetchOptions.builder()
            .retries(1)
            .stallTimeout(Duration.ofSeconds(1))
            .retryWait(Duration.ofMillis(10), Duration.ofMillis(20))
            .build(),
        null,
        Duration.ofSeconds(5),
        false,
        new PrintWriter(notices, true));
  }

  private Updater.Database ranges(String source, Path out, int keep) {
    return new Updater.Database(
        List.of(source),
        out.toString(),
        keep,
        false,
        UpdateConf.build(UpdateConf.args("update ranges", "ranges", k -> null)));
  }

  private static byte[] ranges(String... labels) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < labels.length; i++) {
      sb.append("10.0.").append(i).append(".0|10.0.").append(i).append(".255|").append(labels[i]);
      sb.append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The label the published file gives 10.0.{i}.7. */
  private static String labelAt(Path out, int i) throws IOException {
    return Loader.NIO.load(out).asRanges().label(0x0A000007 | (i << 8));
  }

  @Test
  void localSource() throws IOException {
    Path src = dir.resolve("ranges.txt");
    Files.write(src, ranges("AU", "CN"));
    Path out = dir.resolve("geo.spx");
    UpdateResult first = updater().update(ranges(src.toString(), out, 2));
    assertEquals(UpdateResult.Status.UPDATED, first.status(), first.message());
    assertNull(first.oldCrc);
    assertEquals("CN", labelAt(out, 1));

    UpdateResult again = updater().update(ranges(src.toString(), out, 2));
    assertEquals(UpdateResult.Status.UNCHANGED, again.status(), again.message());
    assertEquals(1, KeptVersions.list(out).size());

    Files.write(src, ranges("AU", "KR"));
    UpdateResult changed = updater().update(ranges(src.toString(), out, 2));
    assertEquals(UpdateResult.Status.UPDATED, changed.status(), changed.message());
    assertEquals(first.newCrc, changed.oldCrc);
    assertEquals("KR", labelAt(out, 1));
    Files.write(src, ranges("AU", "JP"));
    updater().update(ranges(src.toString(), out, 2));
    assertEquals("JP", labelAt(out, 1));
    // keep 2: the first version is gone, the last two stay, the published one among them.
    List<Path> kept = KeptVersions.list(out);
    assertEquals(2, kept.size());
    int published = Loader.readHeader(out).headerCrc32c();
    assertEquals(published, (int) KeptVersions.crcOf(kept.get(1).getFileName().toString()));
  }

  @Test
  void rollbackPublishesTheVersionBeforeAndHoldsTheBadOneBack() throws IOException {
    Path src = dir.resolve("ranges.txt");
    Path out = dir.resolve("geo.spx");
    Files.write(src, ranges("AU", "CN"));
    updater().update(ranges(src.toString(), out, 3));
    Files.write(src, ranges("AU", "XX"));
    UpdateResult bad = updater().update(ranges(src.toString(), out, 3));
    assertEquals("XX", labelAt(out, 1));

    UpdateResult back = updater().rollback(out.toString());
    assertEquals(UpdateResult.Status.ROLLED_BACK, back.status(), back.message());
    assertEquals("CN", labelAt(out, 1));
    assertEquals(bad.oldCrc, back.newCrc);

    // The sources still build the version rolled back from: it is not published again.
    UpdateResult held = updater().update(ranges(src.toString(), out, 3));
    assertEquals(UpdateResult.Status.UNCHANGED, held.status());
    assertTrue(held.message().contains("rollback"), held.message());
    assertEquals("CN", labelAt(out, 1));

    // New source content is.
    Files.write(src, ranges("AU", "FIXED"));
    assertEquals(
        UpdateResult.Status.UPDATED, updater().update(ranges(src.toString(), out, 3)).status());
    assertEquals("FIXED", labelAt(out, 1));

    // Back to the first version, then nothing earlier is kept.
    updater().rollback(out.toString());
    UpdateResult first = updater().rollback(out.toString());
    assertEquals(UpdateResult.Status.ROLLED_BACK, first.status(), first.message());
    UpdateResult none = updater().rollback(out.toString());
    assertEquals(UpdateResult.Status.FAILED, none.status());
    assertTrue(none.message().contains("no earlier version"), none.message());
  }

  @Test
  void urlSourceAsksWithItsValidators() throws IOException {
    DatabaseServer.File f = server.file("/geo/ranges.csv");
    f.content = ranges("AU", "CN");
    f.lastModified = "Sun, 19 Oct 2025 03:00:00 GMT";
    Path out = dir.resolve("geo.spx");
    String url = server.url("/geo/ranges.csv").toString();
    UpdateResult first = updater().update(ranges(url, out, 3));
    assertEquals(UpdateResult.Status.UPDATED, first.status(), first.message());
    assertEquals("CN", labelAt(out, 1));
    // The source was built when the server says it last changed, not when it was downloaded.
    assertEquals(
        java.time.Instant.parse("2025-10-19T03:00:00Z").toEpochMilli(),
        Loader.readVersion(out).sourceMillis());

    server.clearLog();
    UpdateResult again = updater().update(ranges(url, out, 3));
    assertEquals(UpdateResult.Status.UNCHANGED, again.status(), again.message());
    // One conditional request, answered 304 without a body.
    assertEquals(List.of("GET /geo/ranges.csv 304"), server.log());

    f.content = ranges("AU", "KR");
    UpdateResult changed = updater().update(ranges(url, out, 3));
    assertEquals(UpdateResult.Status.UPDATED, changed.status(), changed.message());
    assertEquals("KR", labelAt(out, 1));
    assertTrue(changed.json().contains("\"status\":\"updated\""), changed.json());
  }

  @Test
  void urlWithoutValidatorsUsesTheSha256BesideIt() throws IOException {
    DatabaseServer.File f = server.file("/geo/ranges.csv");
    f.content = ranges("AU", "CN");
    f.validators = false;
    f.sha256Beside = true;
    Path out = dir.resolve("geo.spx");
    String url = server.url("/geo/ranges.csv").toString();
    assertEquals(UpdateResult.Status.UPDATED, updater().update(ranges(url, out, 3)).status());
    server.clearLog();
    assertEquals(UpdateResult.Status.UNCHANGED, updater().update(ranges(url, out, 3)).status());
    assertEquals(List.of("GET /geo/ranges.csv.sha256 200"), server.log());
  }

  @Test
  void failuresLeaveThePublishedVersion() throws IOException {
    DatabaseServer.File f = server.file("/geo/ranges.csv");
    f.content = ranges("AU", "CN");
    Path out = dir.resolve("geo.spx");
    String url = server.url("/geo/ranges.csv").toString();
    assertEquals(UpdateResult.Status.UPDATED, updater().update(ranges(url, out, 3)).status());
    IndexHeader before = Loader.readHeader(out);

    f.content = ranges("AU", "NEW");
    f.failWith = 500;
    expectFailed(url, out, before, "HTTP 500");
    f.failWith = 0;

    f.contentType = "text/html; charset=utf-8";
    expectFailed(url, out, before, "HTML");
    f.contentType = "text/plain";

    f.cutAfter = 10;
    expectFailed(url, out, before, url);
    f.cutAfter = -1;

    f.content =
        "<html><body>Service temporarily unavailable</body></html>\n"
            .getBytes(StandardCharsets.UTF_8);
    expectFailed(url, out, before, "no rows");

    f.content = ranges("AU", "NEW");
    UpdateResult ok = updater().update(ranges(url, out, 3));
    assertEquals(UpdateResult.Status.UPDATED, ok.status(), ok.message());
    assertEquals("NEW", labelAt(out, 1));
  }

  private void expectFailed(String url, Path out, IndexHeader before, String says)
      throws IOException {
    UpdateResult r = updater().update(ranges(url, out, 3));
    assertEquals(UpdateResult.Status.FAILED, r.status(), r.message());
    assertEquals(1, r.exitCode());
    assertTrue(r.message().contains(says), r.message());
    assertTrue(r.message().contains("still serves"), r.message());
    assertFalse(r.message().contains("\n"), r.message());
    assertEquals(before.headerCrc32c(), Loader.readHeader(out).headerCrc32c());
  }

  @Test
  void maxMindDownloadForm() throws IOException, InterruptedException {
    env.put(MaxMind.BASE_ENV, server.base().toString());
    DatabaseServer.File edition = server.edition("Test-City");
    edition.content = tarGz(dir, "Test-City", city("AU"));
    Path out = dir.resolve("city.spx");

    UpdateResult noCredentials = updater().update(ranges("maxmind:Test-City", out, 3));
    assertEquals(UpdateResult.Status.FAILED, noCredentials.status());
    assertTrue(noCredentials.message().contains(MaxMind.KEY_ENV), noCredentials.message());

    env.put(MaxMind.ACCOUNT_ENV, server.account);
    env.put(MaxMind.KEY_ENV, "wrong-key");
    UpdateResult refused = updater().update(ranges("maxmind:Test-City", out, 3));
    assertEquals(UpdateResult.Status.FAILED, refused.status());
    assertTrue(refused.message().contains("credentials were refused"), refused.message());
    assertFalse(Files.exists(out));

    env.put(MaxMind.KEY_ENV, server.licenseKey);
    UpdateResult first = updater().update(ranges("maxmind:Test-City", out, 3));
    assertEquals(UpdateResult.Status.UPDATED, first.status(), first.message());
    assertEquals("AU", Loader.NIO.load(out).asRanges().label(0x01020304));
    // The source was built when MaxMind built the database.
    assertEquals(1_700_000_000_000L, Loader.readVersion(out).sourceMillis());

    server.clearLog();
    UpdateResult again = updater().update(ranges("maxmind:Test-City", out, 3));
    assertEquals(UpdateResult.Status.UNCHANGED, again.status(), again.message());
    assertEquals(
        List.of("GET /geoip/databases/Test-City/download?suffix=tar.gz.sha256 200"), server.log());

    edition.content = tarGz(dir, "Test-City", city("NZ"));
    edition.publishedSha256 = "0".repeat(64);
    UpdateResult mismatch = updater().update(ranges("maxmind:Test-City", out, 3));
    assertEquals(UpdateResult.Status.FAILED, mismatch.status());
    assertTrue(mismatch.message().contains("SHA-256 mismatch"), mismatch.message());
    assertEquals("AU", Loader.NIO.load(out).asRanges().label(0x01020304));

    edition.publishedSha256 = null;
    UpdateResult changed = updater().update(ranges("maxmind:Test-City", out, 3));
    assertEquals(UpdateResult.Status.UPDATED, changed.status(), changed.message());
    assertEquals("NZ", Loader.NIO.load(out).asRanges().label(0x01020304));

    // The credentials appear nowhere: not in results, notices, the state or the index.
    for (UpdateResult r : List.of(noCredentials, refused, first, again, mismatch, changed)) {
      assertFalse(r.json().contains(server.licenseKey), r.json());
      assertFalse(r.text().contains(server.licenseKey), r.text());
    }
    assertFalse(notices.toString().contains(server.licenseKey));
    for (Path p :
        Files.walk(KeptVersions.dir(out)).filter(Files::isRegularFile).toArray(Path[]::new)) {
      assertFalse(
          new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1)
              .contains(server.licenseKey),
          p.toString());
    }
  }

  @Test
  void theExampleConfigurationReads() throws IOException {
    Path example = Path.of("..", "conf", "spindex-update.example.conf");
    UpdateConf c = UpdateConf.read(example);
    assertEquals(List.of("asn", "blocklist", "city"), List.copyOf(c.databases.keySet()));
    assertEquals(Duration.ofMinutes(5), c.lockWait);
  }

  /** A one-network database: 1.2.3.0/24 with {@code {country: COUNTRY}}. */
  private Path city(String country) throws IOException {
    Path p = dir.resolve("city-" + country + ".mmdb");
    MmdbTestWriter.ipv4()
        .databaseType("Test-City")
        .buildEpoch(1_700_000_000L)
        .insert("1.2.3.0/24", Map.of("country", country))
        .write(p);
    return p;
  }

  /** MaxMind's archive form, made by the system's tar: EDITION_DATE/EDITION.mmdb. */
  static byte[] tarGz(Path dir, String edition, Path mmdb)
      throws IOException, InterruptedException {
    Path work = Files.createTempDirectory(dir, "tar");
    Path inner = Files.createDirectories(work.resolve(edition + "_20261127"));
    Files.write(inner.resolve("LICENSE.txt"), "test data\n".getBytes(StandardCharsets.UTF_8));
    Files.copy(mmdb, inner.resolve(edition + ".mmdb"));
    Path archive = work.resolve("db.tar.gz");
    Process p =
        new ProcessBuilder(
                "tar",
                "czf",
                archive.toString(),
                "-C",
                work.toString(),
                inner.getFileName().toString())
            .inheritIO()
            .start();
    assertEquals(0, p.waitFor());
    return Files.readAllBytes(archive);
  }
}
