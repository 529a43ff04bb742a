/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.Spindex;
import io.spindex.index.IpRanges;
import io.spindex.testing.MmdbTestWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No output replaces a good file with nothing: a build, transform or stage that accepted nothing
 * fails (exit 1, one line) and leaves the file it would have replaced byte for byte as it was,
 * unless {@code --allow-empty}. Gzip is recognised by content; outputs go into existing directories
 * only, and a failure to write is named by the user's path. Run in-process.
 */
class NothingAcceptedTest {
  @TempDir Path dir;

  private String out;
  private String err;

  /** A good index at the output path, which each refused run must leave as it was. */
  private Path good;

  private byte[] goodBytes;

  private int spindex(String... args) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int exit =
        SpindexCli.commandLine()
            .setOut(new PrintWriter(o, true))
            .setErr(new PrintWriter(e, true))
            .execute(args);
    out = o.toString();
    err = e.toString();
    return exit;
  }

  private Path write(String name, byte[] bytes) throws IOException {
    return Files.write(dir.resolve(name), bytes);
  }

  private Path write(String name, String text) throws IOException {
    return write(name, text.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] gzip(byte[] b) throws IOException {
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(bo)) {
      z.write(b);
    }
    return bo.toByteArray();
  }

  @BeforeEach
  void goodIndex() throws IOException {
    Path src = write("good.csv", "1.2.3.0,1.2.3.255,GOOD\n");
    good = dir.resolve("good.spx");
    assertEquals(0, spindex("build", "ranges", src.toString(), "-o", good.toString()), err);
    goodBytes = Files.readAllBytes(good);
  }

  /** A refused run: exit 1, one line starting as given, no stack trace, the good index intact. */
  private void refused(String start, String... args) throws IOException {
    assertEquals(1, spindex(args), out + err);
    assertEquals(1, err.split("\n").length, err);
    assertTrue(err.startsWith("spindex: " + start), err);
    assertFalse(err.contains("\tat "), err);
    assertTrue(err.length() <= 400, err.length() + ": " + err);
    assertArrayEquals(goodBytes, Files.readAllBytes(good), "the good index was replaced");
  }

  @Test
  void aZeroByteDatabaseLeavesTheGoodIndex() throws IOException {
    Path empty = write("GeoLite2-City.mmdb", new byte[0]);
    refused(
        empty + ": nothing accepted (0 bytes); " + good + " left as it was (--allow-empty",
        "build",
        "ranges",
        empty.toString(),
        "-o",
        good.toString());
    assertTrue(err.contains("(--allow-empty writes an empty index)"), err);
  }

  @Test
  void bareAddressesAreNoRangesAndTheReasonIsNamed() throws IOException {
    Path bare = write("bare.txt", "1.2.3.4\n5.6.7.8\n");
    refused(
        bare
            + ": nothing accepted (2 lines: 0 skipped, 2 rejected: missing-end 2; first "
            + bare
            + ":1: missing-end: '1.2.3.4')",
        "build",
        "ranges",
        bare.toString(),
        "-o",
        good.toString());
    // The note says what the build saw: one column, not a "detected" comma.
    Path other = dir.resolve("other.spx");
    assertEquals(
        0,
        spindex("build", "ranges", "--allow-empty", bare.toString(), "-o", other.toString()),
        err);
    assertTrue(out.contains("note: " + bare + ": one column (no tab, '|' or ',' in line 1)"), out);
    assertFalse(out.contains("(detected)"), out);
    assertTrue(out.contains("accepted                             0"), out);
    assertEquals(0, Spindex.open(other).asRanges().rangeCount());
  }

  @Test
  void everyKindRefusesAnEmptyBuild() throws IOException {
    Path junk = write("junk.txt", "not an address\n# comment\n");
    refused(
        junk + ": nothing accepted (2 lines: 1 skipped, 1 rejected: not-ipv4 1",
        "build",
        "ips",
        junk.toString(),
        "-o",
        good.toString());
    Path header = write("feed.tsv", "id\ttitle\tprice_pc\tlink\timage_link\tcategory_name1\n");
    refused(
        header + ": nothing accepted (1 line: 1 skipped, 0 rejected)",
        "build",
        "products",
        header.toString(),
        "-o",
        good.toString());
    Path comments = write("comments.txt", "# nothing yet\n\n");
    refused(
        comments + ": nothing accepted (2 lines: 2 skipped, 0 rejected)",
        "build",
        "ranges",
        comments.toString(),
        "-o",
        good.toString());
  }

  /** Gzip by its first bytes: a gzip file without .gz, and a .gz file that is plain text. */
  @Test
  void gzipIsRecognisedByContent() throws IOException {
    byte[] text = "1.2.3.0,1.2.3.255,A\n10.0.0.0/8,B\n".getBytes(StandardCharsets.UTF_8);
    Path hidden = write("ranges.txt", gzip(text));
    Path idx = dir.resolve("hidden.spx");
    assertEquals(0, spindex("build", "ranges", hidden.toString(), "-o", idx.toString()), err);
    assertTrue(out.contains("accepted                             2"), out);
    assertFalse(err.contains("rejected"), err);
    IpRanges r = Spindex.open(idx).asRanges();
    assertEquals("B", new String(r.labelBytes(r.labelId(0x0A010203)), StandardCharsets.UTF_8));
    Path plain = write("plain.csv.gz", text);
    assertEquals(0, spindex("build", "ranges", plain.toString(), "-o", idx.toString()), err);
    assertTrue(out.contains("accepted                             2"), out);
    Path ips = write("ips.list", gzip("1.2.3.4\n::1\n".getBytes(StandardCharsets.UTF_8)));
    assertEquals(0, spindex("build", "ips", ips.toString(), "-o", idx.toString()), err);
    assertTrue(out.contains("accepted                             2"), out);
  }

  /** Cut short, text or database, gzip says the same: not a complete gzip file. */
  @Test
  void aTruncatedGzipIsNamedAsOneWhateverItHolds() throws IOException {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      lines.append("10.").append(i >> 8).append('.').append(i & 255).append(".0/24,L").append(i);
      lines.append('\n');
    }
    byte[] z = gzip(lines.toString().getBytes(StandardCharsets.UTF_8));
    Path text = write("ranges.csv.gz", Arrays.copyOf(z, z.length / 2));
    refused(
        text + ": not a complete gzip file (",
        "build",
        "ranges",
        text.toString(),
        "-o",
        good.toString());

    Path db = dir.resolve("City.mmdb");
    MmdbTestWriter w = MmdbTestWriter.ipv4();
    for (int i = 0; i < 2000; i++) {
      w.insert("10." + (i >> 8) + "." + (i & 255) + ".0/24", Map.of("n", "network " + i));
    }
    w.write(db);
    byte[] dz = gzip(Files.readAllBytes(db));
    for (String name : new String[] {"City.mmdb.gz", "City.mmdb"}) {
      Path cut = write("cut-" + name, Arrays.copyOf(dz, dz.length * 3 / 4));
      refused(
          cut + ": not a complete gzip file (",
          "build",
          "ranges",
          cut.toString(),
          "-o",
          good.toString());
    }
  }

  @Test
  void aTransformThatWritesNoRowLeavesItsOutputAndWritesItsRejects() throws IOException {
    Path spec = write("spec.conf", "steps = [ { require = ep-limits } ]\n");
    Path feed =
        write(
            "feed.tsv",
            "id\ttitle\tprice_pc\tlink\timage_link\tcategory_name1\tshipping\n"
                + "a1\t\t100\thttp://x/1\thttp://x/1.jpg\tc\t0\n"
                + "a2\t\t200\thttp://x/2\thttp://x/2.jpg\tc\t0\n");
    Path outFile = write("out.tsv", "the old feed\n");
    Path rejects = dir.resolve("out.tsv.rejects.tsv");
    assertEquals(
        1,
        spindex(
            "ep",
            "transform",
            feed.toString(),
            "-o",
            outFile.toString(),
            "--spec",
            spec.toString()),
        out + err);
    assertEquals(1, err.split("\n").length, err);
    assertTrue(
        err.startsWith("spindex: " + feed + ": nothing accepted (2 rows, all rejected: "), err);
    assertTrue(err.contains("; see " + rejects + "); " + outFile + " left as it was"), err);
    assertEquals("the old feed\n", Files.readString(outFile));
    assertEquals(2, Files.readAllLines(rejects).size());
    assertEquals(
        0,
        spindex(
            "ep",
            "transform",
            "--allow-empty",
            feed.toString(),
            "-o",
            outFile.toString(),
            "--spec",
            spec.toString()),
        err);
    assertEquals(1, Files.readAllLines(outFile).size(), "the header alone");
  }

  @Test
  void aStageOfNothingLeavesTheStagedIndex() throws IOException {
    Path zero = write("download.spx", new byte[0]);
    refused(
        zero + ": 0 bytes, not staged to " + good + " (left as it was; --allow-empty stages it)",
        "stage",
        zero.toString(),
        good.toString());
    Path bare = write("bare.txt", "1.2.3.4\n");
    Path empty = dir.resolve("empty.spx");
    assertEquals(
        0, spindex("build", "ranges", "--allow-empty", bare.toString(), "-o", empty.toString()));
    refused(
        empty + ": an index with no entries, not staged to " + good,
        "stage",
        empty.toString(),
        good.toString());
    assertEquals(0, spindex("stage", "--allow-empty", empty.toString(), good.toString()), err);
    assertArrayEquals(Files.readAllBytes(empty), Files.readAllBytes(good));
  }

  /**
   * Outputs go into existing directories only: a missing one is named and not created (a typo, or a
   * volume not mounted); a file the system refuses is named by the user's path, never by the
   * temporary file's.
   */
  @Test
  void outputsGoIntoExistingDirectoriesOnly() throws IOException {
    Path src = dir.resolve("good.csv");
    Path missing = dir.resolve("no/such/dir/x.spx");
    assertEquals(1, spindex("build", "ranges", src.toString(), "-o", missing.toString()));
    assertEquals(
        "spindex: -o "
            + missing
            + ": no directory "
            + missing.getParent()
            + " (Spindex creates none: create it first)\n",
        err);
    assertFalse(Files.exists(dir.resolve("no")), "a directory was created");
    Path underFile = src.resolve("x.spx");
    assertEquals(1, spindex("build", "ranges", src.toString(), "-o", underFile.toString()));
    assertEquals("spindex: -o " + underFile + ": " + src + " is not a directory\n", err);
    Path feedOut = dir.resolve("none/out.tsv");
    assertEquals(1, spindex("gen", "ips", "--count", "3", "-o", feedOut.toString()), err);
    assertTrue(err.startsWith("spindex: -o " + feedOut + ": no directory "), err);

    Path proc = Paths.get("/proc/x.spx");
    Assumptions.assumeTrue(Files.isDirectory(proc.getParent()), "no /proc here");
    assertEquals(1, spindex("build", "ranges", src.toString(), "-o", proc.toString()));
    assertTrue(err.startsWith("spindex: /proc/x.spx: cannot create a file in /proc ("), err);
    assertFalse(err.contains(".tmp"), err);
    assertEquals(1, err.split("\n").length, err);
  }
}
