/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mistakes a user makes on the command line: none may destroy data, be skipped silently or end in a
 * stack trace. Run in-process (the exit status and both streams are what a user sees).
 */
class MistakesTest {
  @TempDir Path dir;

  private String out;
  private String err;

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

  private Path write(String name, String text) throws IOException {
    return Files.write(dir.resolve(name), text.getBytes(StandardCharsets.UTF_8));
  }

  /** spindex run: the job jars' dispatcher and option tables, their one-line answers. */
  @Test
  void runAnswersAsTheJobJarsDo() {
    assertEquals(0, spindex("run", "--help"));
    assertTrue(out.startsWith("usage: spindex run <job> [options]\n"), out);
    assertTrue(out.contains("  ip-lookup ") && out.contains("  ep-diff "), out);
    assertEquals(0, spindex("run", "ip-lookup", "--help"));
    assertTrue(out.startsWith("usage: ip-lookup [options]\n"), out);
    assertEquals(2, spindex("run", "trees"));
    assertTrue(err.startsWith("spindex: unknown job 'trees': expected one of ip-lookup"), err);
    assertEquals(2, spindex("run", "ip-lookup", "--input", "x"));
    assertEquals(
        "ip-lookup: option --output is required ('ip-lookup --help' lists the options)\n", err);
    assertEquals(
        1,
        spindex(
            "run",
            "ip-lookup",
            "--input",
            dir.resolve("none").toString(),
            "--output",
            dir.resolve("out").toString(),
            "--index",
            dir.resolve("no.spx").toString()));
    assertEquals(1, err.split("\n").length, err);
    assertTrue(err.startsWith("spindex ip-lookup: "), err);
    assertFalse(Files.exists(dir.resolve("out")));
  }

  /** A directory where a file belongs is one line naming it, never the platform's bare words. */
  @Test
  void aDirectoryWhereAFileBelongsIsNamed() throws IOException {
    Path d = Files.createDirectories(dir.resolve("a-dir"));
    assertEquals(1, spindex("lookup", d.toString(), "1.2.3.4"));
    assertEquals("spindex: " + d + ": a directory, not an index file\n", err);
    assertEquals(1, spindex("inspect", d.toString()));
    assertEquals("spindex: " + d + ": a directory, not an index file\n", err);
    IOException e = assertThrows(IOException.class, () -> io.spindex.Spindex.open(d));
    assertEquals(d + ": a directory, not an index file", e.getMessage());
    Path ips = write("d-ips.txt", "10.0.0.1\n");
    assertEquals(2, spindex("build", "ips", ips.toString(), "-o", d.toString()));
    assertEquals("spindex: -o " + d + " is a directory: name a file to write\n", err);
  }

  @Test
  void aBuildNeverWritesOverItsInput() throws IOException {
    Path ips = write("ips.txt", "10.0.0.1\n10.0.0.2\n");
    byte[] before = Files.readAllBytes(ips);
    assertEquals(2, spindex("build", "ips", ips.toString(), "-o", ips.toString()));
    assertEquals(
        "spindex: -o " + ips + " is the same file as input " + ips + ": it would be overwritten\n",
        err);
    // The same file by another name: a symbolic link, and a path with "." in it.
    Path link = Files.createSymbolicLink(dir.resolve("link.txt"), ips);
    assertEquals(2, spindex("build", "ips", ips.toString(), "-o", link.toString()));
    String dotted = dir.resolve(".").resolve("ips.txt").toString();
    assertEquals(2, spindex("build", "ranges", ips.toString(), "-o", dotted));
    assertTrue(err.contains("is the same file as input"), err);
    assertEquals(new String(before, StandardCharsets.UTF_8), Files.readString(ips));
  }

  /**
   * One promise for every writing command: nothing it reads can be its output, and no two of its
   * outputs one file. Each case names what it reads as what it writes; the file must be unchanged
   * and the command a usage error (exit 2) naming both, before anything is written.
   */
  @Test
  void everyWritingCommandRefusesToWriteOverWhatItReads() throws IOException {
    Path ranges = write("w-ranges.txt", "1.0.0.0|1.0.0.255|AU\n2.0.0.0|2.0.0.255|FR\n");
    Path rangesIdx = dir.resolve("w-ranges.spx");
    assertEquals(0, spindex("build", "ranges", ranges.toString(), "-o", rangesIdx.toString()));
    Path feed = dir.resolve("w-d1.tsv");
    Path next = dir.resolve("w-d2.tsv");
    assertEquals(
        0,
        spindex("gen", "ep", "--rows", "50", "-o", feed.toString(), "--next-day", next.toString()));
    Path products = dir.resolve("w-d1.spx");
    assertEquals(0, spindex("build", "products", feed.toString(), "-o", products.toString()));
    String[][] cases = {
      {"build", "ips", ranges.toString(), "-o", ranges.toString()},
      {"build", "ranges", ranges.toString(), "-o", ranges.toString()},
      {"build", "products", feed.toString(), "-o", feed.toString()},
      {"ep", "diff", next.toString(), "--yesterday", products.toString(), "-o", next.toString()},
      {
        "ep", "diff", next.toString(), "--yesterday", products.toString(), "-o", products.toString()
      },
      {
        "gen",
        "ips",
        "--count",
        "5",
        "--weighted-by",
        rangesIdx.toString(),
        "-o",
        rangesIdx.toString()
      },
      {"gen", "ep", "--rows", "5", "-o", feed.toString(), "--next-day", feed.toString()},
    };
    for (String[] c : cases) {
      Map<Path, byte[]> before = new java.util.HashMap<>();
      for (Path p : List.of(ranges, rangesIdx, feed, next, products)) {
        before.put(p, Files.readAllBytes(p));
      }
      assertEquals(2, spindex(c), String.join(" ", c) + ": " + err);
      assertTrue(err.contains(" is the same file as "), String.join(" ", c) + ": " + err);
      assertEquals(1, err.trim().split("\n").length, err);
      for (Map.Entry<Path, byte[]> e : before.entrySet()) {
        assertTrue(
            java.util.Arrays.equals(e.getValue(), Files.readAllBytes(e.getKey())),
            String.join(" ", c) + " changed " + e.getKey());
      }
    }
  }

  @Test
  void anEpTransformNeverWritesOverItsInputOrOneOutputOverTheOther() throws IOException {
    Path feed = write("day1.tsv", "id\ttitle\nP1\tapple\n");
    byte[] before = Files.readAllBytes(feed);
    Path spec = write("spec.conf", "steps = []\n");
    String out1 = dir.resolve("out.tsv").toString();
    assertEquals(
        2,
        spindex(
            "ep",
            "transform",
            feed.toString(),
            "-o",
            out1,
            "--rejects",
            out1,
            "--spec",
            "" + spec));
    assertEquals("spindex: --rejects " + out1 + " is the same file as -o " + out1 + "\n", err);
    assertEquals(
        2, spindex("ep", "transform", feed.toString(), "-o", "" + feed, "--spec", "" + spec));
    assertTrue(err.contains("is the same file as input " + feed), err);
    assertFalse(Files.exists(dir.resolve("out.tsv")));
    assertEquals(new String(before, StandardCharsets.UTF_8), Files.readString(feed));
  }

  /** A spec's side file is read by the transform: neither -o nor --rejects may write over it. */
  @Test
  void anEpTransformNeverWritesOverASideFileOfItsSpec() throws IOException {
    Path feed = write("feed.tsv", "id\ttitle\tcategory_name1\nP1\tapple\tfruit\n");
    Path map = write("cats.tsv", "fruit\t50000001\n");
    byte[] before = Files.readAllBytes(map);
    Path spec =
        write(
            "spec.conf",
            "steps = [ { map { key = [ category_name1 ], file = \"cats.tsv\", to = cat } } ]\n");
    for (String option : new String[] {"-o", "--rejects"}) {
      String[] args =
          option.equals("-o")
              ? new String[] {"ep", "transform", "" + feed, "-o", "" + map, "--spec", "" + spec}
              : new String[] {
                "ep",
                "transform",
                "" + feed,
                "-o",
                "" + dir.resolve("out.tsv"),
                "--rejects",
                "" + map,
                "--spec",
                "" + spec
              };
      assertEquals(2, spindex(args), option + ": " + err);
      assertEquals(
          "spindex: "
              + option
              + " "
              + map
              + " is the same file as side file of --spec "
              + map
              + ": it would be overwritten\n",
          err);
      assertEquals(new String(before, StandardCharsets.UTF_8), Files.readString(map), option);
      assertFalse(Files.exists(dir.resolve("out.tsv")), option);
    }
    // The same spec with its outputs elsewhere runs: the guard names only files the spec reads.
    assertEquals(
        0,
        spindex(
            "ep", "transform", "" + feed, "-o", "" + dir.resolve("out.tsv"), "--spec", "" + spec),
        err);
  }

  @Test
  void aMalformedFirstRangeIsARejectNotAHeader() throws IOException {
    for (String first :
        new String[] {
          "10.0.0.10|10.0.0.1|x", "10.0.0.0/33|x", "10.0.0.1/8|x", "2001:db8::1/64|x"
        }) {
      Path r = write("r.txt", first + "\n10.0.1.0|10.0.1.255|ok\n");
      String ctx = "first line '" + first + "'";
      assertEquals(1, spindex("build", "ranges", "--strict", r.toString()), ctx + ": " + out);
      assertTrue(err.contains("r.txt:1:"), ctx + ": " + err);
      assertFalse(err.contains("\tat "), ctx + ": a stack trace: " + err);
      assertEquals(0, spindex("build", "ranges", r.toString()), ctx + ": " + err);
      assertTrue(out.matches("(?s).*\\brejected\\s+1\\b.*"), ctx + ": " + out);
      assertFalse(out.contains("skipped header line"), ctx + ": " + out);
    }
    // A header still is one, and the summary says which line it took for it.
    Path h = write("h.txt", "start|end|label\n10.0.1.0|10.0.1.255|ok\n");
    assertEquals(0, spindex("build", "ranges", "--strict", h.toString()), err);
    assertTrue(out.contains("h.txt:1: skipped header line 'start|end|label'"), out);
  }

  @Test
  void verifyChecksEveryFileAndReportsEach() throws IOException {
    Path ips = write("ips.txt", "10.0.0.1\n");
    assertEquals(0, spindex("build", "ips", ips.toString(), "-o", dir.resolve("a.spx").toString()));
    Path bad = write("bad.spx", "not an index");
    int exit =
        spindex(
            "verify",
            bad.toString(),
            dir.resolve("a.spx").toString(),
            dir.resolve("missing.spx").toString(),
            dir.toString());
    assertEquals(1, exit);
    assertTrue(out.contains(dir.resolve("a.spx") + ": ok"), out);
    assertTrue(err.contains(bad + ": header at offset 0"), err);
    assertTrue(err.contains(dir.resolve("missing.spx") + ": no such file"), err);
    assertTrue(err.contains(dir + ": a directory, not an index file"), err);
    assertTrue(err.endsWith("spindex: 3 of 4 files are not valid indexes\n"), err);
  }

  @Test
  void smallOptionMistakesAreUsageErrors() throws IOException {
    Path ips = write("ips.txt", "10.0.0.1\n");
    assertEquals(2, spindex("build", "ips", "--threads", "0", ips.toString()));
    assertEquals("spindex: --threads must be at least 1, not 0\n", err);
    assertEquals(2, spindex("gen", "ranges", "--format", "foo", "--count", "3"));
    assertEquals("spindex: --format: expected range, csv or cidr, not 'foo'\n", err);
    assertEquals(2, spindex("gen", "ranges", "--family", "5", "--count", "3"));
    assertEquals("spindex: --family: expected 4, 6 or both, not '5'\n", err);
  }

  @Test
  void anEpFilterStepOnTheWrongKindOfIndexIsOneLine() throws IOException {
    Path ranges = write("r.txt", "10.0.0.0|10.0.0.255|x\n");
    Path index = dir.resolve("r.spx");
    assertEquals(0, spindex("build", "ranges", ranges.toString(), "-o", index.toString()));
    Path feed = write("day1.tsv", "id\ttitle\nP1\tapple\n");
    Path spec =
        write(
            "spec.conf",
            "steps = [ { filter { field = id, index = \"" + index + "\", keep = absent } } ]\n");
    String out1 = dir.resolve("out.tsv").toString();
    assertEquals(
        1, spindex("ep", "transform", feed.toString(), "-o", out1, "--spec", spec.toString()));
    assertEquals(
        "spindex: "
            + index
            + ": a filter step needs a product index (spindex build products), not an IP range"
            + " index\n",
        err);
  }

  @Test
  void inputProblemsNameTheFile() throws IOException {
    Path gz = dir.resolve("cut.txt.gz");
    try (java.io.OutputStream o = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
      o.write("10.0.0.1\n".repeat(10_000).getBytes(StandardCharsets.UTF_8));
    }
    byte[] whole = Files.readAllBytes(gz);
    Files.write(gz, java.util.Arrays.copyOf(whole, whole.length / 2));
    assertEquals(1, spindex("build", "ips", gz.toString(), "-o", dir.resolve("x.spx").toString()));
    assertTrue(err.startsWith("spindex: " + gz + ": not a complete gzip file"), err);
    assertEquals(1, spindex("build", "ips", dir.toString(), "-o", dir.resolve("y.spx").toString()));
    assertEquals("spindex: " + dir + ": a directory, not a file\n", err);
  }

  /**
   * A value of 5,000 characters (a pasted file, a runaway variable) given wherever a command takes
   * one: one line of at most 400 characters naming it clipped, never the value whole, never a stack
   * trace; usage mistakes (exit 2) are one line too, naming the command's --help.
   */
  @Test
  void aLongValueIsClippedInEveryMessage() throws IOException {
    String v = "x".repeat(5000);
    Path csv = write("r.csv", "1.2.3.0,1.2.3.255,A\n");
    Path idx = dir.resolve("r.spx");
    assertEquals(0, spindex("build", "ranges", csv.toString(), "-o", idx.toString()), err);
    String c = csv.toString();
    String i = idx.toString();
    String o = dir.resolve("o.spx").toString();
    String[][] cases = {
      {"lookup", "--loader", v, i, "1.2.3.4"},
      {"lookup", v + ".spx", "1.2.3.4"},
      {"inspect", v + ".spx"},
      {"verify", v + ".spx"},
      {"build", "ranges", "--delimiter", v, c, "-o", o},
      {"build", "ranges", "--on-overlap", v, c, "-o", o},
      {"build", "ranges", "--label-fields", "a:" + v, c, "-o", o},
      {"build", "ranges", "--field", v, c, "-o", o},
      {"build", "ranges", v + ".csv", "-o", o},
      {"build", "ranges", c, "-o", dir.resolve(v + ".spx").toString()},
      {"build", "ranges", c, "-o", dir.resolve(v).resolve("x.spx").toString()},
      {"build", "ips", "--threads", v, c},
      {"build", v},
      {v},
      {"stage", "--check", v, i, o},
      {"gen", "ips", "--family", v},
      {"gen", "ips", "--count", v},
      {"ep", "transform", c, "-o", o, "--spec", v},
      {"fetch", v, "-o", o},
      {"run", "ip-lookup", "--input", c, "--output", o, "--index", i, "--loader", v},
      {"run", "ip-lookup", "--input", v, "--output", o, "--index", i},
    };
    for (String[] args : cases) {
      String what = String.join(" ", args).replace(v, "V");
      int exit = spindex(args);
      assertTrue(exit == 1 || exit == 2, what + ": exit " + exit + "\n" + err);
      String[] lines = err.split("\n");
      assertEquals(1, lines.length, what + ":\n" + err);
      assertTrue(lines[0].length() <= 400, what + ": " + lines[0].length() + " characters");
      assertFalse(err.contains("x".repeat(101)), what + ": the value whole: " + err);
      assertFalse(err.contains("\tat "), what);
    }
    // An address argument (as a stdin line) of 5,000 characters: its report names it clipped.
    assertEquals(1, spindex("lookup", i, v));
    for (String line : err.split("\n")) {
      assertTrue(line.length() <= 400, line);
    }
    assertTrue(err.startsWith("argument:1: not-ipv4: 'xxx"), err);
    assertTrue(err.contains("...(5000 chars)'\n"), err);
  }
}
