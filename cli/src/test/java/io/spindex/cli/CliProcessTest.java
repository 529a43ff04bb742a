/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.text.Ipv4Text;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code spindex} as a separate process: exit codes, stdout, stderr, stdin. */
class CliProcessTest {
  @TempDir Path dir;

  static final class Run {
    final int exit;
    final String out;
    final String err;

    Run(int exit, String out, String err) {
      this.exit = exit;
      this.out = out;
      this.err = err;
    }
  }

  private Run spindex(byte[] stdin, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(SpindexCli.class.getName());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).start();
    CompletableFuture<byte[]> out =
        CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
    CompletableFuture<byte[]> err =
        CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
    try (OutputStream in = p.getOutputStream()) {
      if (stdin != null) {
        in.write(stdin);
      }
    }
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "spindex finished");
    return new Run(
        p.exitValue(),
        new String(out.get(), StandardCharsets.UTF_8),
        new String(err.get(), StandardCharsets.UTF_8));
  }

  private static byte[] readAll(InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Path golden(String name) throws URISyntaxException {
    return Paths.get(CliProcessTest.class.getResource("/golden/" + name).toURI());
  }

  @Test
  void rangesGoldenBuildAndLookup() throws Exception {
    Run b = spindex(null, "build", "ranges", golden("ranges.csv").toString(), "-o", "r.spx");
    assertEquals(0, b.exit, b.err);
    assertTrue(b.out.contains("skipped header line 'network_start,network_end,label'"), b.out);
    assertTrue(b.out.contains("delimiter ',' (detected)"), b.out);
    assertTrue(b.err.contains("ranges.csv:12: bad-start: '300.1.1.1,300.1.1.2,bad'"), b.err);
    assertTrue(b.out.matches("(?s).*\\brejected\\s+1\\b.*"), b.out);
    assertTrue(b.out.matches("(?s).*\\branges\\s+8\\b.*"), b.out);
    assertTrue(b.out.matches("(?s).*\\bipv6 ranges\\s+1\\b.*"), b.out);
    Run inspect = spindex(null, "inspect", "r.spx");
    assertEquals(0, inspect.exit, inspect.err);
    // The IPv4 rows packed, a row for each gap too.
    assertTrue(inspect.out.contains("ipv4 rows      11\n"), inspect.out);
    assertTrue(inspect.out.contains("ipv6 rows      2\n"), inspect.out);
    assertTrue(inspect.out.contains("format         1.0\n"), inspect.out);
    assertTrue(inspect.out.contains("ipv4 gap rows  4\n"), inspect.out);
    assertEquals(0, spindex(null, "verify", "r.spx").exit);
    Run fields =
        spindex(
            null,
            "build",
            "ranges",
            golden("ranges.csv").toString(),
            "-o",
            "f.spx",
            "--label-fields",
            "country,region,city");
    assertEquals(0, fields.exit, fields.err);
    Run shown = spindex(null, "inspect", "f.spx");
    assertTrue(
        shown.out.contains("label fields   country, region, city (split on '|')\n"), shown.out);
    assertTrue(
        spindex(null, "inspect", "--json", "f.spx")
            .out
            .contains("\"labelFields\":[\"country\",\"region\",\"city\"]"));
    byte[] input = Files.readAllBytes(golden("lookup-input.txt"));
    Run l = spindex(input, "lookup", "r.spx");
    assertEquals(0, l.exit, l.err);
    assertEquals(Files.readString(golden("lookup-expected.tsv")), l.out);
    for (String loader : new String[] {"io", "nio"}) {
      assertEquals(l.out, spindex(input, "lookup", "--loader", loader, "r.spx").out, loader);
    }
    assertTrue(b.out.matches("(?s).*\\bgap rows\\s+[1-9].*"), b.out);
    String json = spindex(null, "inspect", "--json", "r.spx").out;
    assertTrue(json.contains("\"ipv4Ranges\":7,\"ipv6Ranges\":1"), json);
    // Labels by field.
    Run v = spindex(null, "inspect", "f.spx");
    assertTrue(
        v.out.matches("(?s).*\nlabel store    by field, [1-9][0-9]* distinct values .*"), v.out);
    assertTrue(
        spindex(null, "inspect", "--json", "f.spx").out.contains("\"labelStore\":\"fields\","));
    assertTrue(
        spindex(null, "inspect", "--json", "r.spx").out.contains("\"labelStore\":\"whole\""));
    assertEquals(0, spindex(null, "verify", "f.spx").exit);
    // The labels of other field counts were rejects.
    Run byField = spindex(input, "lookup", "f.spx");
    assertTrue(byField.out.contains("\t대한민국|서울특별시|KT\n"), byField.out);
  }

  @Test
  void lookupReportsBadLinesAndExitsOne() throws Exception {
    Files.write(dir.resolve("ips.txt"), "10.0.0.1\n".getBytes(StandardCharsets.UTF_8));
    assertEquals(0, spindex(null, "build", "ips", "ips.txt").exit);
    Run r =
        spindex(
            "10.0.0.1\nnope\n\n# a comment\n10.0.0.2\n".getBytes(StandardCharsets.UTF_8),
            "lookup",
            "ips.spx");
    assertEquals(1, r.exit);
    assertEquals("10.0.0.1\ttrue\n10.0.0.2\tfalse\n", r.out);
    assertEquals(
        "stdin:2: not-ipv4: 'nope'\n"
            + "spindex: 1 of 3 lines could not be looked up (2 answered)\n",
        r.err);
    Run args = spindex(null, "lookup", "ips.spx", "10.0.0.1", "1.2.3");
    assertEquals(1, args.exit);
    assertEquals("10.0.0.1\ttrue\n", args.out);
    assertEquals(
        "argument:2: not-ipv4: '1.2.3'\n"
            + "spindex: 1 of 2 lines could not be looked up (1 answered)\n",
        args.err);
  }

  /** A large stdin, answered in order, equal to a HashSet reference. */
  @Test
  void lookupStreamsLargeInput() throws Exception {
    SplittableRandom rnd = new SplittableRandom(5);
    Set<Integer> members = new HashSet<>();
    StringBuilder list = new StringBuilder();
    for (int i = 0; i < 50_000; i++) {
      int a = rnd.nextInt() & 0x00FFFFFF;
      members.add(a);
      list.append(Ipv4Text.format(a)).append('\n');
    }
    Files.write(dir.resolve("ips.txt"), list.toString().getBytes(StandardCharsets.UTF_8));
    assertEquals(0, spindex(null, "build", "ips", "ips.txt", "-o", "s.spx").exit);
    StringBuilder in = new StringBuilder();
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 300_000; i++) {
      int a = rnd.nextInt() & 0x00FFFFFF;
      String t = Ipv4Text.format(a);
      in.append(t).append('\n');
      expected.append(t).append('\t').append(members.contains(a)).append('\n');
    }
    Run r = spindex(in.toString().getBytes(StandardCharsets.UTF_8), "lookup", "s.spx");
    assertEquals(0, r.exit, r.err);
    assertEquals(expected.toString(), r.out);
  }

  @Test
  void exitCodesForBadInputCorruptIndexAndUsage() throws Exception {
    Files.write(dir.resolve("ips.txt"), "1.1.1.1\n1.1.1\n".getBytes(StandardCharsets.UTF_8));
    Run strict = spindex(null, "build", "ips", "--strict", "ips.txt");
    assertEquals(1, strict.exit);
    assertEquals(
        "spindex: rejected line (--strict): ips.txt:2: not-ipv4: '1.1.1' (expected one"
            + " IPv4 or IPv6 address per line)\n",
        strict.err);
    Run missing = spindex(null, "build", "ips", "nope.txt");
    assertEquals(1, missing.exit);
    assertEquals("spindex: nope.txt: no such file\n", missing.err);
    Path bad = badFixture("bit-flip-keys.spx");
    Run verify = spindex(null, "verify", bad.toString());
    assertEquals(1, verify.exit);
    assertTrue(
        verify.err.startsWith("spindex: " + bad + ": section 'keys' at offset 192"), verify.err);
    assertEquals(2, spindex(null, "build", "ips", "--no-such-option", "ips.txt").exit);
    assertEquals(2, spindex(null, "build").exit);
    assertEquals(2, spindex(null, "lookup", "x.spx", "--loader", "fast").exit);
    Run help = spindex(null, "--help");
    assertEquals(0, help.exit);
    assertTrue(help.out.contains("bench-load"), help.out);
  }

  @Test
  void inspectJsonAndVerify() throws Exception {
    Files.write(dir.resolve("ips.txt"), "10.0.0.1\n10.0.0.2\n".getBytes(StandardCharsets.UTF_8));
    // When the source was built: the input's modification time.
    Files.setLastModifiedTime(
        dir.resolve("ips.txt"),
        java.nio.file.attribute.FileTime.from(java.time.Instant.parse("2026-10-19T03:00:00Z")));
    assertEquals(0, spindex(null, "build", "ips", "ips.txt").exit);
    Run i = spindex(null, "inspect", "--json", "ips.spx");
    assertEquals(0, i.exit, i.err);
    String created =
        java.time.Instant.ofEpochMilli(
                io.spindex.index.load.Loader.readHeader(dir.resolve("ips.spx")).createdMillis())
            .toString();
    assertTrue(
        i.out.contains("\"created\":\"" + created + "\",\"sourceTime\":\"2026-10-19T03:00:00Z\","),
        i.out);
    Run text = spindex(null, "inspect", "ips.spx");
    assertTrue(text.out.contains("\ncreated        " + created + "\n"), text.out);
    assertTrue(text.out.contains("\nsource built   2026-10-19T03:00:00Z\n"), text.out);
    assertTrue(i.out.contains("\"kind\":\"IPV4_SET\""), i.out);
    assertTrue(i.out.contains("\"rows\":2"), i.out);
    assertTrue(i.out.contains("\"name\":\"keys\""), i.out);
    assertTrue(i.out.contains("\"name\":\"prefix16\""), i.out);
    java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
    StringBuilder hex = new StringBuilder();
    for (byte x : md.digest(Files.readAllBytes(dir.resolve("ips.txt")))) {
      hex.append(String.format("%02x", x));
    }
    assertTrue(i.out.contains("\"sourceSha256\":\"" + hex + "\""), i.out);
    Run v = spindex(null, "verify", "ips.spx");
    assertEquals(0, v.exit, v.err);
    assertEquals(
        String.format(
            java.util.Locale.ROOT,
            "ips.spx: ok (IP set, 2 rows, %,d bytes)%n",
            Files.size(dir.resolve("ips.spx"))),
        v.out);
  }

  @Test
  void genIsDeterministic() throws Exception {
    assertEquals(
        0, spindex(null, "gen", "ips", "--count", "1000", "--seed", "9", "-o", "a.txt").exit);
    assertEquals(
        0, spindex(null, "gen", "ips", "--count", "1000", "--seed", "9", "-o", "b.txt").exit);
    Run c = spindex(null, "gen", "ips", "--count", "1000", "--seed", "10");
    assertEquals(Files.readString(dir.resolve("a.txt")), Files.readString(dir.resolve("b.txt")));
    assertTrue(!c.out.equals(Files.readString(dir.resolve("a.txt"))));
    assertEquals(1000, c.out.split("\n").length);
    Run g = spindex(null, "gen", "ranges", "--count", "500", "--format", "cidr", "-o", "c.csv");
    assertEquals(0, g.exit, g.err);
    Run b = spindex(null, "build", "ranges", "c.csv");
    assertEquals(0, b.exit, b.err);
    assertTrue(b.out.matches("(?s).*\\brejected\\s+0\\b.*"), b.out);
  }

  @Test
  void genRealShapeAndWeightedQueries() throws Exception {
    Run g = spindex(null, "gen", "ranges", "--shape", "real", "--count", "3000", "-o", "r.csv");
    assertEquals(0, g.exit, g.err);
    Run b = spindex(null, "build", "ranges", "r.csv");
    assertEquals(0, b.exit, b.err);
    assertTrue(b.out.matches("(?s).*\\branges\\s+3,000\\b.*"), b.out);
    Run q = spindex(null, "gen", "ips", "--weighted-by", "r.spx", "--count", "2000", "-o", "q.txt");
    assertEquals(0, q.exit, q.err);
    Run l = spindex(Files.readAllBytes(dir.resolve("q.txt")), "lookup", "r.spx");
    assertEquals(0, l.exit, l.err);
    assertEquals(2000, l.out.split("\n").length);
    assertTrue(!l.out.contains("\\N"), "every weighted query is in a range");
    Run six = spindex(null, "gen", "ranges", "--shape", "real", "--family", "6");
    assertEquals(2, six.exit);
    assertEquals(1, six.err.split("\n").length, six.err);
    assertTrue(six.err.startsWith("spindex: --shape real"), six.err);
  }

  @Test
  void benchLoadPrintsEveryLoaderAndTheMemcpyReference() throws Exception {
    assertEquals(0, spindex(null, "gen", "ips", "--count", "20000", "-o", "ips.txt").exit);
    assertEquals(0, spindex(null, "build", "ips", "ips.txt").exit);
    Run r = spindex(null, "bench-load", "ips.spx", "--runs", "2", "--source", "ips.txt", "--json");
    assertEquals(0, r.exit, r.err);
    for (String l : new String[] {"io", "nio", "mapped", "text", "memcpy"}) {
      assertTrue(r.out.contains("{\"loader\":\"" + l + "\",\"runs\":2,"), r.out);
    }
    assertTrue(r.out.contains("\"loader\":\"nio\",\"runs\":2,\"minMs\""), r.out);
    assertTrue(r.out.matches("(?s).*\"loader\":\"nio\"[^}]*\"vsNio\":1\\.000.*"), r.out);
  }

  /** An index of IPv6 ranges only (its header counts IPv6 rows, which size() does not). */
  @Test
  void benchLoadTakesIpv6OnlyRanges() throws Exception {
    Files.write(
        dir.resolve("v6.txt"),
        "2001:db8::/48|a\n2001:db8:1::/48|b\n2a02::/16|c\n".getBytes(StandardCharsets.UTF_8));
    assertEquals(0, spindex(null, "build", "ranges", "v6.txt", "-o", "v6.spx").exit);
    Run r = spindex(null, "bench-load", "v6.spx", "--runs", "2", "--source", "v6.txt", "--json");
    assertEquals(0, r.exit, r.err);
    for (String l : new String[] {"io", "nio", "mapped", "text", "memcpy"}) {
      assertTrue(r.out.contains("{\"loader\":\"" + l + "\",\"runs\":2,"), r.out);
    }
  }

  /** A committed bad fixture of the core's tests (in their jar), copied into {@link #dir}. */
  private Path badFixture(String name) throws IOException {
    Path f = dir.resolve(name);
    try (InputStream in = CliProcessTest.class.getResourceAsStream("/bad/" + name)) {
      Files.copy(in, f);
    }
    return f;
  }
}
