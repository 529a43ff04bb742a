/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spindex.gen.IpListGenerator;
import io.spindex.index.IndexHeader;
import io.spindex.index.IpSet;
import io.spindex.index.load.Loader;
import io.spindex.text.InputException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SetBuilderTest {
  @TempDir Path dir;

  private Path write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, text.getBytes(StandardCharsets.UTF_8));
    return p;
  }

  @Test
  void countsReconcileAndRejectsNameFileAndLine() throws IOException {
    Path a =
        write(
            "a.txt",
            "\uFEFF# header comment\n10.0.0.1\n  10.0.0.2\t\r\n\n10.0.0.1\n256.0.0.1\n01.2.3.4\n");
    Path b = write("b.txt", "fe80::1%eth0\n10.0.0.3\nnot an ip\n10.0.0.2");
    BuildReport r = new IpSetBuilder().build(List.of(a, b), dir.resolve("x.spx"));
    Map<String, Long> expected = new TreeMap<>();
    expected.put("leading-zero", 1L);
    expected.put("zone-id", 1L);
    expected.put("not-ipv4", 1L);
    expected.put("octet-out-of-range", 1L);
    assertEquals(expected, r.rejectsByReason());
    assertEquals(11, r.count("lines"));
    assertEquals(2, r.count("skipped"));
    assertEquals(5, r.count("accepted"));
    assertEquals(4, r.count("rejected"));
    assertEquals(2, r.count("duplicates"));
    assertEquals(3, r.count("addresses"));
    assertEquals(r.count("lines"), r.count("skipped") + r.count("accepted") + r.count("rejected"));
    assertEquals(
        List.of(
            a + ":6: octet-out-of-range: '256.0.0.1'",
            a + ":7: leading-zero: '01.2.3.4'",
            b + ":1: zone-id: 'fe80::1%eth0'",
            b + ":3: not-ipv4: 'not an ip'"),
        r.rejectSamples());
    IpSet s = Loader.NIO.load(dir.resolve("x.spx")).asSet();
    assertArrayEquals(
        new int[] {0x0A000001, 0x0A000002, 0x0A000003},
        new int[] {s.address(0), s.address(1), s.address(2)});
  }

  @Test
  void overLongLinesAreRejectedWithTheirLineNumber() throws IOException {
    String longLine = "1".repeat(io.spindex.text.LineReader.MAX_LINE_BYTES + 1);
    Path a = write("a.txt", "1.1.1.1\n" + longLine + "\n2.2.2.2\n");
    BuildReport r = new IpSetBuilder().build(List.of(a), dir.resolve("x.spx"));
    assertEquals(Map.of("line-too-long", 1L), r.rejectsByReason());
    assertEquals(2, r.count("addresses"));
    assertEquals(3, r.count("lines"));
    assertEquals(a + ":2: line-too-long: '" + "1".repeat(64) + "'", r.rejectSamples().get(0));
  }

  @Test
  void sourceDigestIsTheSha256OfTheInputBytesInOrder() throws Exception {
    Path a = write("a.txt", "1.1.1.1\n");
    Path b = write("b.txt", "2.2.2.2\n");
    IndexHeader h = new IpSetBuilder().build(List.of(a, b), dir.resolve("x.spx")).header();
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    md.update(Files.readAllBytes(a));
    md.update(Files.readAllBytes(b));
    assertArrayEquals(md.digest(), h.sourceDigest());
  }

  @Test
  void strictFailsOnTheFirstReject() throws IOException {
    Path a = write("a.txt", "1.1.1.1\n1.1.1\n2.2.2.2\nx\n");
    InputException e =
        assertThrows(
            InputException.class,
            () -> new IpSetBuilder().strict(true).build(List.of(a), dir.resolve("x.spx")));
    assertEquals(
        "rejected line (--strict): "
            + a
            + ":2: not-ipv4: '1.1.1' (expected one IPv4 or IPv6 address per line)",
        e.getMessage());
    assertEquals(false, Files.exists(dir.resolve("x.spx")));
  }

  /**
   * A file big enough to be cut into pieces gives the same index, counts and reject line numbers
   * whether read by one thread or several, plain or gzip-compressed.
   */
  @Test
  void piecesAndGzipGiveTheSameIndex() throws IOException {
    Path plain = dir.resolve("big.txt");
    try (OutputStream out = Files.newOutputStream(plain)) {
      new IpListGenerator(2_500_000, 7, 0.001).writeTo(out);
    }
    Path gz = dir.resolve("big.txt.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      Files.copy(plain, out);
    }
    BuildReport one =
        new IpSetBuilder().threads(1).createdMillis(0).build(List.of(plain), dir.resolve("1.spx"));
    BuildReport four =
        new IpSetBuilder().threads(4).createdMillis(0).build(List.of(plain), dir.resolve("4.spx"));
    BuildReport zip =
        new IpSetBuilder().threads(4).createdMillis(0).build(List.of(gz), dir.resolve("z.spx"));
    assertEquals(one.counts(), four.counts());
    assertEquals(one.rejectsByReason(), four.rejectsByReason());
    assertEquals(one.rejectSamples(), four.rejectSamples());
    assertEquals(
        one.rejectSamples().toString(),
        zip.rejectSamples().toString().replace(gz.toString(), plain.toString()));
    // Same inputs and creation time: byte-identical files.
    assertArrayEquals(
        Files.readAllBytes(dir.resolve("1.spx")), Files.readAllBytes(dir.resolve("4.spx")));
    // Same keys and prefix table: every section checksum matches (only the digest differs).
    for (int i = 0; i < one.header().sections().size(); i++) {
      assertEquals(
          one.header().sections().get(i).crc32c(), zip.header().sections().get(i).crc32c());
    }
    assertEquals(2_500_000, one.count("lines"));
  }
}
