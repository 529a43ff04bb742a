/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The EP commands as a user runs them: gen ep, build products, ep transform, ep diff. */
class EpCliProcessTest {
  @TempDir Path dir;

  private String[] spindex(String... args) throws Exception {
    return spindexLimited(0, args);
  }

  /**
   * The command in a process whose files may grow to at most {@code fileBlocks} KiB (the shell's
   * {@code ulimit -f}; 0: no limit).
   */
  private String[] spindexLimited(int fileBlocks, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    if (fileBlocks > 0) {
      cmd.addAll(List.of("bash", "-c", "ulimit -f " + fileBlocks + " && exec \"$@\"", "bash"));
    }
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(SpindexCli.class.getName());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).start();
    p.getOutputStream().close();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "spindex finished");
    return new String[] {String.valueOf(p.exitValue()), out.get(), err.get()};
  }

  private static String read(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * An output that the file system refuses to grow (a size limit, a full disk) is one line naming
   * it, exit 1, and no file left: the system's reason alone ("File too large") names nothing.
   */
  @Test
  void anOutputTheFileSystemRefusesIsNamed() throws Exception {
    String[] g = spindex("gen", "ep", "--rows", "3000", "--seed", "9", "-o", "feed.tsv");
    assertEquals("0", g[0], g[2]);
    String spec =
        Paths.get("..", "conf", "ep-transform.example.conf")
            .toAbsolutePath()
            .normalize()
            .toString();
    String[] t = spindexLimited(64, "ep", "transform", "feed.tsv", "-o", "out.tsv", "--spec", spec);
    assertEquals("1", t[0], t[2]);
    assertTrue(
        t[2].matches("spindex: \\S*out\\.tsv: writing failed after \\d+ bytes: File too large\\n"),
        t[2]);
    assertFalse(java.nio.file.Files.exists(dir.resolve("out.tsv")));
  }

  @Test
  void genBuildDiffTransform() throws Exception {
    String[] g =
        spindex(
            "gen", "ep", "--rows", "3000", "--seed", "9", "-o", "d1.tsv", "--next-day", "d2.tsv");
    assertEquals("0", g[0], g[2]);
    String day2 = g[2].substring(g[2].indexOf("day 2: "));
    String[] b = spindex("build", "products", "d1.tsv", "-o", "d1.spx", "--int-field", "point");
    assertEquals("0", b[0], b[2]);
    assertTrue(b[1].matches("(?s).*\\bproducts\\s+3,000\\b.*"), b[1]);
    String[] v = spindex("verify", "d1.spx");
    assertEquals("0", v[0], v[2]);
    assertTrue(v[1].contains("ok (products, 3,000 rows"), v[1]);
    String[] d =
        spindex(
            "ep",
            "diff",
            "d2.tsv",
            "--yesterday",
            "d1.spx",
            "-o",
            "s.tsv",
            "--update-time",
            "2024-05-01 12:00:00");
    assertEquals("0", d[0], d[2]);
    // The generator's counts of the next day and the diff's must agree.
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("inserts (\\d+), updates (\\d+), deletes (\\d+)")
            .matcher(day2);
    assertTrue(m.find(), day2);
    assertTrue(d[1].matches("(?s).*inserted \\(I\\)\\s+" + m.group(1) + "\\b.*"), d[1]);
    assertTrue(d[1].matches("(?s).*updated \\(U\\)\\s+" + m.group(2) + "\\b.*"), d[1]);
    assertTrue(d[1].matches("(?s).*deleted \\(D\\)\\s+" + m.group(3) + "\\b.*"), d[1]);
    Path spec = Paths.get("..", "conf", "ep-transform.example.conf").toAbsolutePath();
    String[] t = spindex("ep", "transform", "d1.tsv", "-o", "clean.tsv", "--spec", spec.toString());
    assertEquals("0", t[0], t[2]);
    assertTrue(t[1].contains("rows in                                               3,000"), t[1]);
    assertTrue(Files.exists(dir.resolve("clean.tsv.rejects.tsv")));
    List<String> clean = Files.readAllLines(dir.resolve("clean.tsv"));
    assertTrue(clean.get(0).startsWith("id\ttitle\tprice_pc\t"), clean.get(0));
  }

  @Test
  void badSpecIsAUsageErrorAndWrongIndexKindIsBadInput() throws Exception {
    Files.write(dir.resolve("f.tsv"), "id\tprice_pc\nA\t1\n".getBytes(StandardCharsets.UTF_8));
    Files.write(dir.resolve("s.conf"), "steps = [ { drop = [nope] } ]\n".getBytes());
    String[] t = spindex("ep", "transform", "f.tsv", "-o", "o.tsv", "--spec", "s.conf");
    assertEquals("2", t[0]);
    assertEquals(
        "spindex: s.conf:1: step 1 (drop): no field 'nope' at this step (fields: id,"
            + " price_pc)\n",
        t[2]);
    assertTrue(!Files.exists(dir.resolve("o.tsv")), "no output on failure");
    Files.write(dir.resolve("ips.txt"), "10.0.0.1\n".getBytes(StandardCharsets.UTF_8));
    assertEquals("0", spindex("build", "ips", "ips.txt")[0]);
    String[] d = spindex("ep", "diff", "f.tsv", "--yesterday", "ips.spx", "-o", "s.tsv");
    assertEquals("1", d[0]);
    assertEquals(
        "spindex: ips.spx: an IP set index, not a product index (build one with spindex build"
            + " products)\n",
        d[2]);
  }
}
