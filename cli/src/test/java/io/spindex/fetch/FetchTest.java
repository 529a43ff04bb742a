/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import static io.spindex.fetch.FetchTestSupport.content;
import static io.spindex.fetch.FetchTestSupport.quick;
import static io.spindex.fetch.FetchTestSupport.sha256;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.spindex.fetch.FetchTestSupport.Notes;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Fetcher} against a real HTTP server on 127.0.0.1, one misbehaviour per test. */
class FetchTest {
  /** Not a multiple of anything: ranges end at odd offsets. */
  static final int LENGTH = (5 << 20) + 12345;

  @TempDir Path dir;
  final byte[] data = content(LENGTH, 7);
  final Notes notes = new Notes();
  TestServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private FetchResult fetch(FetchOptions.Builder b, String path) throws IOException {
    return new Fetcher(b.build()).fetch(server.uri(path), dir.resolve("f.bin"));
  }

  private FetchException fails(FetchOptions.Builder b, String path) {
    return assertThrows(FetchException.class, () -> fetch(b, path));
  }

  private void assertNothingLeft() {
    assertFalse(Files.exists(dir.resolve("f.bin")), "no target");
    assertFalse(Files.exists(dir.resolve("f.bin.part")), "no .part");
    assertFalse(Files.exists(dir.resolve("f.bin.part.state")), "no state");
  }

  @Test
  void parallelRangesAreByteIdenticalWithOneRequestPerConnection() throws Exception {
    server = TestServer.http(data);
    FetchResult r = fetch(quick(notes).parallel(4), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(LENGTH, r.bytes());
    assertTrue(r.ranges());
    // Connections used at once depend on timing (a worker that finishes early takes the next
    // piece); the four pieces, one request each, do not.
    assertTrue(r.connections() >= 1 && r.connections() <= 4, "connections " + r.connections());
    assertEquals(4, r.requests());
    assertEquals(0, r.retries());
    assertTrue(r.firstResponseNanos() > 0 && r.firstResponseNanos() <= r.elapsedNanos());
    // Four equal pieces; the first comes from the open-ended probe.
    Set<String> expected = new HashSet<>();
    expected.add("GET /f bytes=0-");
    for (int i = 1; i < 4; i++) {
      long s = (long) LENGTH * i / 4;
      long e = (long) LENGTH * (i + 1) / 4 - 1;
      expected.add("GET /f bytes=" + s + "-" + e);
    }
    assertEquals(expected, new HashSet<>(server.log()));
    assertEquals(LENGTH, notes.total);
    assertFalse(Files.exists(dir.resolve("f.bin.part")));
    assertFalse(Files.exists(dir.resolve("f.bin.part.state")));
  }

  @Test
  void serverWithoutRangesGetsOneStream() throws Exception {
    server = TestServer.http(data);
    server.ranges = false;
    FetchResult r = fetch(quick(notes).parallel(4), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertFalse(r.ranges());
    assertEquals(1, r.connections());
    assertEquals(Arrays.asList("GET /f bytes=0-"), server.log());
  }

  @Test
  void bodyWithoutLengthIsReadToTheEnd() throws Exception {
    server = TestServer.http(data);
    server.ranges = false;
    server.sendLength = false;
    FetchResult r = fetch(quick(notes), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(LENGTH, r.bytes());
    assertEquals(-1, notes.total);
  }

  @Test
  void emptyContent() throws Exception {
    server = TestServer.http(new byte[0]);
    FetchResult r = fetch(quick(notes), "/f");
    assertEquals(0, Files.size(dir.resolve("f.bin")));
    assertEquals(0, r.bytes());
    // Ranges of an empty file are unsatisfiable (416): then one plain GET.
    assertEquals(Arrays.asList("GET /f bytes=0-", "GET /f -"), server.log());
  }

  @Test
  void contentLengthThatLiesIsRetriedThenRefused() throws Exception {
    server = TestServer.http(data);
    server.ranges = false;
    server.claimExtraBytes = 1000;
    FetchException e = fails(quick(notes).retries(2), "/f");
    // The byte count is what arrived before the close: the client drops what it had buffered.
    String m = e.getMessage();
    String expected =
        "connection lost at byte \\d+: "
            + Pattern.quote(server.uri("/f").toString())
            + " \\(EOF reached while reading\\) \\(gave up after 3 attempts\\)";
    assertTrue(m.matches(expected), m);
    assertEquals(3, server.requests());
    assertNothingLeft();
  }

  @Test
  void connectionCutMidRangeIsRetriedFromWhereItStopped() throws Exception {
    server = TestServer.http(data);
    server.cutAfterBytes = 100_000;
    server.cuts.set(1);
    FetchResult r = fetch(quick(notes).parallel(1), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(1, r.retries());
    List<String> log = server.log();
    assertEquals(2, log.size());
    assertEquals("GET /f bytes=0-", log.get(0));
    // The retry asks for the rest: from what arrived before the cut (at most 100,000 bytes).
    Matcher m = Pattern.compile("GET /f bytes=(\\d+)-" + (LENGTH - 1)).matcher(log.get(1));
    assertTrue(m.matches(), log.get(1));
    long resumedAt = Long.parseLong(m.group(1));
    assertTrue(resumedAt > 0 && resumedAt <= 100_000, log.get(1));
    assertTrue(
        notes.any("connection lost at byte " + resumedAt + ": " + server.uri("/f")),
        notes.notices().toString());
  }

  @Test
  void interruptedDownloadResumesInTheNextRun() throws Exception {
    server = TestServer.http(data);
    server.cutAfterBytes = 300_000;
    server.cuts.set(1000);
    FetchException e = failKeepingSomeBytes(quick(notes).parallel(3).retries(0));
    assertTrue(
        e.getMessage()
            .endsWith(" (gave up after 1 attempts); f.bin.part kept: run again to resume"),
        e.getMessage());
    assertFalse(Files.exists(dir.resolve("f.bin")));
    PartState state = PartState.load(dir.resolve("f.bin.part.state"));
    assertEquals(server.uri("/f").toString(), state.url);
    assertEquals(new Validator("\"v1\"", server.lastModified, LENGTH), state.validator);
    long kept = LENGTH - state.missingBytes();
    // How much of a cut body arrives before the error is up to the client's buffering.
    assertTrue(kept > 0 && kept <= 3 * 300_000, "kept " + kept);
    // The kept bytes are the served bytes.
    byte[] part = Files.readAllBytes(dir.resolve("f.bin.part"));
    List<long[]> keptRanges = new ArrayList<>();
    long pos = 0;
    for (long[] m : state.missing) {
      keptRanges.add(new long[] {pos, m[0]});
      pos = m[1];
    }
    keptRanges.add(new long[] {pos, LENGTH});
    long checked = 0;
    for (long[] k : keptRanges) {
      if (k[1] > k[0]) {
        assertTrue(part.length >= k[1], "part holds kept bytes up to " + k[1]);
        assertTrue(
            Arrays.equals(data, (int) k[0], (int) k[1], part, (int) k[0], (int) k[1]),
            "kept bytes " + k[0] + ".." + k[1] + " are the served bytes");
        checked += k[1] - k[0];
      }
    }
    assertEquals(kept, checked);

    server.cuts.set(0);
    int before = server.requests();
    FetchResult r = fetch(quick(notes).parallel(3), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(kept, r.resumedBytes(), notes.notices().toString());
    assertEquals("GET /f bytes=" + state.missing.get(0)[0] + "-", server.log().get(before));
    assertTrue(
        notes.any(String.format("resuming: %,d of %,d bytes already in f.bin.part", kept, LENGTH)),
        notes.notices().toString());
    assertFalse(Files.exists(dir.resolve("f.bin.part.state")));
  }

  @Test
  void failureBeforeTheLastPieceGotAnyBytesStillResumes() throws Exception {
    // The first two of three pieces get 300,000 bytes each and then stall; the request for the
    // last piece waits until those bytes are in f.bin.part and then fails. The last piece's
    // missing range then adjoins the second's, and f.bin.part ends where the second piece's bytes
    // end, before the last piece's start: the next run must still resume all 600,000 bytes.
    server = TestServer.http(data);
    long a = LENGTH / 3;
    long b = (long) LENGTH * 2 / 3;
    int sent = 300_000;
    Path part = dir.resolve("f.bin.part");
    server.cutAfterBytes = sent;
    server.stalls.set(2);
    server.hook =
        (ex, from, to, n) -> {
          if (from != b) {
            return false;
          }
          long deadline = System.nanoTime() + 20_000_000_000L;
          while (!(holds(part, 0, sent) && holds(part, a, sent)) && System.nanoTime() < deadline) {
            TestServer.sleep(5);
          }
          ex.sendResponseHeaders(503, -1);
          return true;
        };
    FetchException e = fails(quick(notes).parallel(3).retries(0), "/f");
    assertEquals(
        "HTTP 503 Service Unavailable: "
            + server.uri("/f")
            + " (gave up after 1 attempts); f.bin.part kept: run again to resume",
        e.getMessage());
    assertEquals(a + sent, Files.size(part));
    PartState state = PartState.load(dir.resolve("f.bin.part.state"));
    assertEquals(Arrays.asList(sent + "-" + a, (a + sent) + "-" + LENGTH), ranges(state.missing));
    assertEquals(a + sent, state.keptEnd());

    server.hook = null;
    int before = server.requests();
    FetchResult r = fetch(quick(notes).parallel(3), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(2 * sent, r.resumedBytes(), notes.notices().toString());
    assertEquals("GET /f bytes=" + sent + "-", server.log().get(before));
    assertTrue(
        notes.any(
            String.format("resuming: %,d of %,d bytes already in f.bin.part", 2 * sent, LENGTH)),
        notes.notices().toString());
    assertFalse(notes.any("shorter"), notes.notices().toString());
    assertFalse(Files.exists(dir.resolve("f.bin.part.state")));
  }

  @Test
  void stateWithAdjacentRangesFromAnEarlierVersionResumes() throws Exception {
    // Earlier versions saved one missing range per piece, adjacent ones included.
    server = TestServer.http(data);
    int a = LENGTH / 3;
    int b = (int) ((long) LENGTH * 2 / 3);
    int kept = 300_000;
    byte[] part = Arrays.copyOf(data, a + kept);
    Arrays.fill(part, kept, a, (byte) 0);
    Files.write(dir.resolve("f.bin.part"), part);
    String state =
        "format=spindex-fetch-state-1\n"
            + "url="
            + server.uri("/f")
            + "\nlength="
            + LENGTH
            + "\netag=\"v1\"\nlastModified="
            + server.lastModified
            + "\nmissing="
            + kept
            + "-"
            + a
            + ","
            + (a + kept)
            + "-"
            + b
            + ","
            + b
            + "-"
            + LENGTH
            + "\n";
    Files.write(dir.resolve("f.bin.part.state"), state.getBytes(StandardCharsets.UTF_8));
    FetchResult r = fetch(quick(notes).parallel(3), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(2 * kept, r.resumedBytes(), notes.notices().toString());
    assertEquals("GET /f bytes=" + kept + "-", server.log().get(0));
    assertFalse(Files.exists(dir.resolve("f.bin.part.state")));
  }

  /** Whether {@code file} holds the served bytes {@code [from, from + n)}. */
  private boolean holds(Path file, long from, int n) throws IOException {
    byte[] got = new byte[n];
    ByteBuffer buf = ByteBuffer.wrap(got);
    try (FileChannel ch = FileChannel.open(file)) {
      while (buf.hasRemaining() && ch.read(buf, from + buf.position()) > 0) {
        // read on
      }
    } catch (NoSuchFileException e) {
      return false;
    }
    return !buf.hasRemaining() && Arrays.equals(data, (int) from, (int) from + n, got, 0, n);
  }

  private static List<String> ranges(List<long[]> missing) {
    List<String> s = new ArrayList<>();
    for (long[] m : missing) {
      s.add(m[0] + "-" + m[1]);
    }
    return s;
  }

  /**
   * Runs a download that the server cuts until the cut left some bytes to resume from: on a busy
   * machine a connection can be cut before its first body bytes reach the file, and a resume of
   * nothing is a fresh start, not what these tests are about.
   */
  private FetchException failKeepingSomeBytes(FetchOptions.Builder options) throws Exception {
    for (int attempt = 1; ; attempt++) {
      FetchException e = fails(options, "/f");
      Path stateFile = dir.resolve("f.bin.part.state");
      if ((Files.exists(stateFile) && PartState.load(stateFile).missingBytes() < LENGTH)
          || attempt == 5) {
        return e;
      }
    }
  }

  @Test
  void changedEtagBetweenRunsStartsOver() throws Exception {
    server = TestServer.http(data);
    server.cutAfterBytes = 300_000;
    server.cuts.set(1000);
    failKeepingSomeBytes(quick(notes).parallel(2).retries(0));
    assertTrue(Files.exists(dir.resolve("f.bin.part.state")));

    byte[] v2 = content(LENGTH, 8);
    server.setContent(v2, "\"v2\"");
    server.cuts.set(0);
    FetchResult r = fetch(quick(notes).parallel(2), "/f");
    assertEquals(sha256(v2), sha256(dir.resolve("f.bin")));
    assertEquals(0, r.resumedBytes(), notes.notices().toString());
    assertEquals(1, r.restarts(), notes.notices().toString());
    assertTrue(
        notes.any(
            "server copy changed since the interrupted download (ETag \"v1\" -> \"v2\"); starting over"),
        notes.notices().toString());
  }

  @Test
  void stateWithoutItsPartFileIsIgnored() throws Exception {
    server = TestServer.http(data);
    server.cutAfterBytes = 300_000;
    server.cuts.set(1000);
    fails(quick(notes).parallel(2).retries(0), "/f");
    assertTrue(Files.exists(dir.resolve("f.bin.part.state")));
    Files.delete(dir.resolve("f.bin.part"));
    server.cuts.set(0);
    FetchResult r = fetch(quick(notes).parallel(2), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(0, r.resumedBytes());
    assertTrue(
        notes.any(
            "ignoring "
                + dir.resolve("f.bin.part.state")
                + ": f.bin.part is shorter than it records"),
        notes.notices().toString());
  }

  @Test
  void noResumeStartsOver() throws Exception {
    server = TestServer.http(data);
    server.cutAfterBytes = 300_000;
    server.cuts.set(1000);
    fails(quick(notes).parallel(2).retries(0), "/f");
    server.cuts.set(0);
    int before = server.requests();
    FetchResult r = fetch(quick(notes).parallel(2).resume(false), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(0, r.resumedBytes());
    assertEquals("GET /f bytes=0-", server.log().get(before));
  }

  @Test
  void contentChangedDuringTheDownloadStartsOver() throws Exception {
    server = TestServer.http(data);
    byte[] v2 = content(LENGTH, 9);
    server.hook =
        (ex, from, to, n) -> {
          if (n == 2) {
            server.setContent(v2, "\"v2\""); // after the probe: If-Range no longer matches
          }
          return false;
        };
    FetchResult r = fetch(quick(notes).parallel(4), "/f");
    assertEquals(sha256(v2), sha256(dir.resolve("f.bin")));
    assertEquals(1, r.restarts());
    assertTrue(
        notes.any("with HTTP 200: " + server.uri("/f") + "; starting over"),
        notes.notices().toString());
  }

  @Test
  void notFoundIsNotRetried() throws Exception {
    server = TestServer.http(data);
    FetchException e = fails(quick(notes), "/missing");
    assertEquals("HTTP 404 Not Found: " + server.uri("/missing"), e.getMessage());
    assertEquals(1, server.requests());
    assertFalse(Files.exists(dir.resolve("f.bin.part")));
  }

  @Test
  void serverErrorIsRetriedThenReported() throws Exception {
    server = TestServer.http(data);
    server.failures.set(100);
    FetchException e = fails(quick(notes).retries(2), "/f");
    assertEquals(
        "HTTP 500 Internal Server Error: " + server.uri("/f") + " (gave up after 3 attempts)",
        e.getMessage());
    assertEquals(3, server.requests());
    assertNothingLeft();
  }

  @Test
  void transientUnavailableRecovers() throws Exception {
    server = TestServer.http(data);
    server.failStatus = 503;
    server.failures.set(2);
    FetchResult r = fetch(quick(notes).retries(2), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(2, r.retries());
    assertTrue(notes.any("HTTP 503 Service Unavailable: " + server.uri("/f") + "; retry 1 of 2"));
  }

  @Test
  void redirectIsFollowedAndRangesGoToTheTarget() throws Exception {
    server = TestServer.http(data);
    server.redirects.put("/a", "/f");
    FetchResult r = fetch(quick(notes).parallel(2), "/a");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(server.uri("/f"), r.finalUri());
    assertEquals(1, server.log().stream().filter(l -> l.startsWith("GET /a ")).count());
  }

  @Test
  void redirectLoopIsReported() throws Exception {
    server = TestServer.http(data);
    server.redirects.put("/a", "/b");
    server.redirects.put("/b", "/a");
    FetchException e = fails(quick(notes), "/a");
    assertEquals(
        "redirect loop: "
            + server.uri("/a")
            + " -> "
            + server.uri("/b")
            + " -> "
            + server.uri("/a"),
        e.getMessage());
    assertEquals(2, server.requests());
    assertNothingLeft();
  }

  @Test
  void redirectLimit() throws Exception {
    server = TestServer.http(data);
    for (int i = 0; i < 5; i++) {
      server.redirects.put("/r" + i, "/r" + (i + 1));
    }
    FetchException e = fails(quick(notes).maxRedirects(3), "/r0");
    List<String> hops = new ArrayList<>();
    for (int i = 0; i <= 4; i++) {
      hops.add(server.uri("/r" + i).toString());
    }
    assertEquals("more than 3 redirects: " + String.join(" -> ", hops), e.getMessage());
    assertEquals(4, server.requests());
  }

  @Test
  void checksumMismatchDeletesTheDownload() throws Exception {
    server = TestServer.http(data);
    String wrong = sha256(content(10, 1));
    FetchException e = fails(quick(notes).sha256(wrong), "/f");
    assertEquals(
        dir.resolve("f.bin")
            + ": SHA-256 mismatch: expected "
            + wrong
            + ", downloaded "
            + sha256(data)
            + " (download deleted): "
            + server.uri("/f"),
        e.getMessage());
    assertNothingLeft();
  }

  @Test
  void checksumMatch() throws Exception {
    server = TestServer.http(data);
    FetchResult r = fetch(quick(notes).sha256(sha256(data).toUpperCase()), "/f");
    assertEquals(sha256(data), r.sha256());
  }

  @Test
  void announcedSizeOverTheLimitIsRefusedBeforeDownloading() throws Exception {
    server = TestServer.http(data);
    FetchException e = fails(quick(notes).maxBytes(LENGTH - 1), "/f");
    assertEquals(
        String.format(
            "server announces %,d bytes, more than the maximum of %,d (--max-size): %s",
            LENGTH, LENGTH - 1, server.uri("/f")),
        e.getMessage());
    assertNothingLeft();
  }

  @Test
  void unannouncedSizeOverTheLimitIsStoppedWhileReading() throws Exception {
    server = TestServer.http(data);
    server.ranges = false;
    server.sendLength = false;
    FetchException e = fails(quick(notes).maxBytes(1000), "/f");
    assertEquals(
        "more than the maximum of 1,000 bytes (--max-size): " + server.uri("/f"), e.getMessage());
    assertNothingLeft();
  }

  @Test
  void stalledConnectionIsDroppedAndRetried() throws Exception {
    server = TestServer.http(data);
    server.cutAfterBytes = 100_000;
    server.stalls.set(1);
    FetchResult r = fetch(quick(notes).parallel(1).stallTimeout(Duration.ofMillis(500)), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(1, r.retries());
    assertTrue(
        notes.any("no data for 0.500 s at byte 100000: " + server.uri("/f")),
        notes.notices().toString());
  }

  @Test
  void idleConnectionTakesOverHalfOfASlowOne() throws Exception {
    server = TestServer.http(data);
    long firstEnd = LENGTH / 4;
    java.util.concurrent.CountDownLatch stolen = new java.util.concurrent.CountDownLatch(1);
    server.hook =
        (ex, from, to, n) -> {
          if (from > 0 && from < firstEnd) {
            stolen.countDown();
          }
          if (from == 0) {
            // Send 64 KiB, then hold the rest until another connection asks for part of it.
            ex.getResponseHeaders().set("ETag", server.etag);
            ex.getResponseHeaders().set("Last-Modified", server.lastModified);
            ex.getResponseHeaders().set("Content-Range", "bytes 0-" + (LENGTH - 1) + "/" + LENGTH);
            ex.sendResponseHeaders(206, LENGTH);
            try (java.io.OutputStream out = ex.getResponseBody()) {
              out.write(data, 0, 65536);
              out.flush();
              stolen.await(20, java.util.concurrent.TimeUnit.SECONDS);
              out.write(data, 65536, LENGTH - 65536);
            } catch (IOException | InterruptedException e) {
              // The client stopped reading once its shortened piece was complete.
            }
            return true;
          }
          return false;
        };
    FetchResult r = fetch(quick(notes).parallel(4).minSplitBytes(64 << 10), "/f");
    assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
    assertEquals(0, stolen.getCount(), "a connection took over part of the first piece");
    assertTrue(r.requests() > 4, "requests " + r.requests());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aRangeAnswerThatStartsElsewhereIsAFatalErrorNamingBoth(boolean firstRequest)
      throws Exception {
    server = TestServer.http(data);
    server.hook =
        (ex, from, to, n) -> {
          if (firstRequest != (from == 0)) {
            return false;
          }
          ex.getResponseHeaders().set("ETag", server.etag);
          ex.getResponseHeaders().set("Last-Modified", server.lastModified);
          ex.getResponseHeaders()
              .set("Content-Range", "bytes " + (from + 1) + "-" + to + "/" + LENGTH);
          ex.sendResponseHeaders(206, to - from);
          try (java.io.OutputStream out = ex.getResponseBody()) {
            out.write(data, (int) from + 1, (int) (to - from));
          }
          return true;
        };
    FetchException e = fails(quick(notes).parallel(4).minSplitBytes(64 << 10), "/f");
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "server answered Range: bytes=(\\d+)- with Content-Range bytes (\\d+)-\\d+/"
                    + LENGTH
                    + ": "
                    + java.util.regex.Pattern.quote(server.uri("/f").toString()))
            .matcher(e.getMessage());
    assertTrue(m.find(), e.getMessage());
    assertEquals(Long.parseLong(m.group(1)) + 1, Long.parseLong(m.group(2)), e.getMessage());
    assertEquals(firstRequest, m.group(1).equals("0"), e.getMessage());
  }

  @Test
  void concurrentDownloadOfTheSameFileIsRefused() throws Exception {
    server = TestServer.http(data);
    java.util.concurrent.CountDownLatch second = new java.util.concurrent.CountDownLatch(1);
    server.hook =
        (ex, from, to, n) -> {
          if (n == 1) {
            try {
              second.await(20, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          return false;
        };
    java.util.concurrent.CompletableFuture<FetchResult> first =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              try {
                return fetch(quick(notes).parallel(1), "/f");
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    while (server.requests() == 0) {
      Thread.sleep(5);
    }
    FetchException e = fails(quick(notes), "/f");
    second.countDown();
    assertEquals(
        dir.resolve("f.bin.part") + ": another download to the same file is running",
        e.getMessage());
    assertEquals(sha256(data), sha256(first.get().file()));
  }

  @Test
  void targetUnderARegularFileFailsBeforeAnyRequest() throws Exception {
    server = TestServer.http(data);
    Files.write(dir.resolve("plain"), new byte[1]);
    Path target = dir.resolve("plain").resolve("f.bin");
    FetchException e =
        assertThrows(
            FetchException.class,
            () -> new Fetcher(quick(notes).build()).fetch(server.uri("/f"), target));
    assertEquals(dir.resolve("plain") + ": not a directory", e.getMessage());
    assertEquals(0, server.requests());
  }

  @Test
  void readOnlyDirectoryFailsBeforeAnyRequest() throws Exception {
    assumeFalse("root".equals(System.getProperty("user.name")), "root writes anywhere");
    server = TestServer.http(data);
    Path ro = Files.createDirectory(dir.resolve("ro"));
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    AccessDeniedException e =
        assertThrows(
            AccessDeniedException.class,
            () -> new Fetcher(quick(notes).build()).fetch(server.uri("/f"), ro.resolve("f.bin")));
    assertEquals(ro.resolve("f.bin.part").toString(), e.getFile());
    assertEquals(0, server.requests());
  }

  @Test
  void onlyHttpAndHttps() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new Fetcher(FetchOptions.defaults())
                    .fetch(URI.create("ftp://127.0.0.1/f"), dir.resolve("f.bin")));
    assertEquals("not an http or https URL: 'ftp://127.0.0.1/f'", e.getMessage());
  }
}
