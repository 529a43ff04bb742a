/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import static io.spindex.fetch.FetchTestSupport.content;
import static io.spindex.fetch.FetchTestSupport.sha256;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.cli.SpindexProcess;
import io.spindex.cli.SpindexProcess.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code spindex fetch} as a process: exit codes, messages, summary, memory bound. */
class FetchCliProcessTest {
  @TempDir Path dir;
  TestServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void downloadsAndPrintsASummary() throws Exception {
    byte[] data = content((3 << 20) + 77, 11);
    server = TestServer.http(data);
    String url = server.uri("/f").toString();
    Run r =
        SpindexProcess.run(
            dir, "fetch", url, "-o", "f.bin", "--parallel", "3", "--sha256", sha256(data));
    assertEquals(0, r.exit, r.toString());
    assertEquals("", r.err);
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    String[] lines = r.out.split("\n");
    assertEquals("fetched " + url + " -> f.bin", lines[0]);
    assertEquals(String.format("%-22s %15s", "bytes", String.format("%,d", data.length)), lines[1]);
    // Up to 3: a worker that finishes its piece before the last one starts takes that piece too.
    assertTrue(r.out.matches("(?s).*\\nconnections +[123]\\n.*"), r.out);
    assertTrue(r.out.contains(String.format("%-22s %15s%n", "ranges", "yes")), r.out);
    assertTrue(r.out.contains(sha256(data) + " (verified)"), r.out);
  }

  @Test
  void notFoundExitsOneWithTheStatusAndUrl() throws Exception {
    server = TestServer.http(content(10, 1));
    String url = server.uri("/missing").toString();
    Run r = SpindexProcess.run(dir, "fetch", url, "-o", "f.bin");
    assertEquals(1, r.exit, r.toString());
    assertEquals("spindex: HTTP 404 Not Found: " + url + "\n", r.err);
    assertEquals("", r.out);
    assertFalse(Files.exists(dir.resolve("f.bin.part")));
  }

  @Test
  void checksumMismatchExitsOne() throws Exception {
    byte[] data = content(100_000, 12);
    server = TestServer.http(data);
    String url = server.uri("/f").toString();
    String wrong = sha256(new byte[1]);
    Run r = SpindexProcess.run(dir, "fetch", url, "-o", "f.bin", "--sha256", wrong);
    assertEquals(1, r.exit, r.toString());
    assertEquals(
        "spindex: "
            + dir.toRealPath().resolve("f.bin")
            + ": SHA-256 mismatch: expected "
            + wrong
            + ", downloaded "
            + sha256(data)
            + " (download deleted): "
            + url
            + "\n",
        r.err);
    assertFalse(Files.exists(dir.resolve("f.bin")));
  }

  @Test
  void serverErrorsAreRetriedThenReported() throws Exception {
    server = TestServer.http(content(10, 1));
    server.failures.set(100);
    String url = server.uri("/f").toString();
    Run r = SpindexProcess.run(dir, "fetch", url, "--retries", "1", "--retry-wait", "1");
    assertEquals(1, r.exit, r.toString());
    String[] err = r.err.split("\n");
    assertEquals(2, err.length, r.err);
    assertTrue(
        err[0].matches(
            "spindex: HTTP 500 Internal Server Error: \\Q" + url + "\\E; retry 1 of 1 in \\d+ ms"),
        err[0]);
    assertEquals(
        "spindex: HTTP 500 Internal Server Error: " + url + " (gave up after 2 attempts)", err[1]);
    assertEquals(2, server.requests());
  }

  @Test
  void interruptedThenResumed() throws Exception {
    byte[] data = content(4 << 20, 13);
    server = TestServer.http(data);
    server.cutAfterBytes = 500_000;
    server.cuts.set(1000);
    String url = server.uri("/f").toString();
    Run first = SpindexProcess.run(dir, "fetch", url, "-o", "f.bin", "--retries", "0");
    assertEquals(1, first.exit, first.toString());
    assertTrue(first.err.endsWith("; f.bin.part kept: run again to resume\n"), first.err);
    assertTrue(Files.exists(dir.resolve("f.bin.part.state")));
    server.cuts.set(0);
    Run second = SpindexProcess.run(dir, "fetch", url, "-o", "f.bin");
    assertEquals(0, second.exit, second.toString());
    assertTrue(second.err.startsWith("spindex: resuming: "), second.err);
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertFalse(Files.exists(dir.resolve("f.bin.part.state")));
  }

  @Test
  void usageErrorsExitTwo() throws Exception {
    Run ftp = SpindexProcess.run(dir, "fetch", "ftp://127.0.0.1/f");
    assertEquals(2, ftp.exit, ftp.toString());
    assertEquals("spindex: not an http or https URL: 'ftp://127.0.0.1/f'\n", ftp.err);
    Run parallel = SpindexProcess.run(dir, "fetch", "http://127.0.0.1:1/f", "--parallel", "0");
    assertEquals(2, parallel.exit, parallel.toString());
    assertEquals("spindex: --parallel must be 1..64, not 0\n", parallel.err);
  }

  @Test
  void unwritableTargetExitsOneBeforeDownloading() throws Exception {
    server = TestServer.http(content(10, 1));
    Files.write(dir.resolve("plain"), new byte[1]);
    Run r = SpindexProcess.run(dir, "fetch", server.uri("/f").toString(), "-o", "plain/f.bin");
    assertEquals(1, r.exit, r.toString());
    assertEquals("spindex: " + dir.toRealPath().resolve("plain") + ": not a directory\n", r.err);
    assertEquals(0, server.requests());
  }

  /** 96 MiB through a JVM with a 24 MiB heap: memory does not grow with the file. */
  @Test
  void memoryIsBoundedWhateverTheSize() throws Exception {
    byte[] data = content(96 << 20, 14);
    server = TestServer.http(data);
    Run r =
        SpindexProcess.start(
                dir,
                List.of("-Xmx24m"),
                "fetch",
                server.uri("/f").toString(),
                "-o",
                "big.bin",
                "--parallel",
                "8")
            .await();
    assertEquals(0, r.exit, r.toString());
    assertEquals(sha256(data), sha256(dir.resolve("big.bin")));
  }
}
