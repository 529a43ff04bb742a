/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.lookup.IpLookupFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's mistake on any job is one line on standard error and exit 2 (usage) or 1 (input), never
 * a stack trace; {@code --help} prints the options and exits 0. The MapReduce module checks the
 * same cases.
 */
class UsageErrorsTest {
  @TempDir static Path dir;
  static SparkSession spark;
  static IpLookupFixture fx;
  static String spec;

  @BeforeAll
  static void setUp() throws Exception {
    spark = SparkTests.session();
    fx = new IpLookupFixture(dir.resolve("logs"), 50);
    spec =
        SparkTests.repo("conf", "ep-transform.example.conf")
            .toAbsolutePath()
            .normalize()
            .toString();
  }

  /** Exit code, standard output, standard error of a job run as spark-submit runs it. */
  private static Object[] run(String... args) {
    return SparkTests.runJob(spark, args);
  }

  private static void oneLine(int code, String wants, String... args) {
    Object[] r = run(args);
    String err = (String) r[2];
    assertEquals(code, r[0], err);
    assertEquals(1, err.split("\n").length, "one line: " + err);
    assertTrue(err.contains(wants), err);
    assertFalse(err.contains("Exception") || err.contains("\tat "), err);
  }

  private String[] ipLookup(String... more) {
    List<String> a =
        new ArrayList<>(
            Arrays.asList(
                "ip-lookup",
                "--input",
                fx.inputDir.toString(),
                "--index",
                fx.ranges.toString(),
                "--output",
                dir.resolve("never").toString()));
    a.addAll(Arrays.asList(more));
    return a.toArray(new String[0]);
  }

  @Test
  void badValuesAreUsageErrors() {
    oneLine(2, "--mode: unknown mode 'foo'", ipLookup("--mode", "foo"));
    oneLine(2, "--loader: expected", ipLookup("--loader", "nonsense"));
    oneLine(2, "--ip", ipLookup("--ip", "abc"));
    oneLine(2, "--split-mb", ipLookup("--split-mb", "-5"));
    oneLine(2, "--keep", ipLookup("--keep", "some"));
    oneLine(2, "unknown option --colour", ipLookup("--colour", "red"));
    oneLine(2, "--index is required", "ip-lookup", "--input", "x", "--output", "y");
    oneLine(
        2,
        "--single-file: expected",
        "ep-transform",
        "--input",
        "x",
        "--output",
        "y",
        "--spec",
        spec,
        "--single-file",
        "maybe");
    oneLine(
        2,
        "--update-time: expected",
        "ep-diff",
        "--input",
        "x",
        "--output",
        "y",
        "--yesterday",
        "z",
        "--update-time",
        "yesterday");
    oneLine(2, "unknown job", "ip-lokup");
    assertFalse(Files.exists(dir.resolve("never")), "no output directory is left behind");
  }

  @Test
  void badInputIsOneLineAndExitOne() throws Exception {
    oneLine(
        1, "no-such.spx: no such file", ipLookup("--index", dir.resolve("no-such.spx").toString()));
    oneLine(1, "needs an IP set or range index", ipLookup("--index", fxProducts().toString()));
    oneLine(1, "passwd", ipLookup("--index", "/etc/passwd"));
    // A damaged section is caught on the driver, named by the user's path, before any task runs.
    byte[] b = Files.readAllBytes(fx.ranges);
    long at =
        io.spindex.index.load.Loader.readHeader(fx.ranges)
            .find(io.spindex.index.Section.RANGE_STARTS_LOW)
            .offset();
    b[(int) at + 3] ^= 0x01;
    Path damaged = Files.write(dir.resolve("damaged.spx"), b);
    oneLine(
        1,
        damaged + ": section 'range_starts_low' at offset " + at + ": expected CRC32C",
        ipLookup("--index", damaged.toString()));
    // Checksums right, a label id past the dictionary: refused on the driver as every loader
    // refuses it at open, also for a loader that skips the checks on the executors.
    Path labels = dir.resolve("label-ids.spx");
    try (java.io.InputStream in =
        getClass().getResourceAsStream("/bad/label-id-out-of-range.spx")) {
      Files.copy(in, labels);
    }
    for (String loader : new String[] {"mapped", "mapped-unchecked"}) {
      oneLine(
          1,
          labels
              + ": section 'row_label_ids' at offset 262593: expected a label id in [0, 3) or -1 (a"
              + " gap), found 7",
          ipLookup("--index", labels.toString(), "--loader", loader));
    }
    // A file of the pre-release format: one line, with what to do.
    Path old = dir.resolve("pre-release.spx");
    try (java.io.InputStream in = getClass().getResourceAsStream("/bad/pre-release-0.8.spx")) {
      Files.copy(in, old);
    }
    oneLine(
        1,
        old
            + ": written by a pre-release Spindex (format 0.8); Spindex 1.x reads format 1 only:"
            + " rebuild it with 'spindex build'",
        ipLookup("--index", old.toString()));
    Files.createDirectories(dir.resolve("exists"));
    oneLine(
        1,
        "already exists",
        "ip-lookup",
        "--input",
        fx.inputDir.toString(),
        "--index",
        fx.ranges.toString(),
        "--output",
        dir.resolve("exists").toString());
    oneLine(
        1,
        "no input files",
        ipLookup("--input", dir.resolve("nothing-*").toString(), "--mode", "count").clone());
    // A directory inside the input directory, and a gzip input cut short: one line naming the
    // user's path, as on the other engine, and no output left.
    Path[] bad = IpLookupFixture.badInputs(dir);
    Path nested = bad[0];
    Path cut = bad[1];
    oneLine(
        1,
        nested + ": a directory inside the input directory " + nested.getParent(),
        ipLookup("--input", nested.getParent().toString()));
    assertFalse(Files.exists(dir.resolve("never")), "no output directory is left behind");
    oneLine(
        1,
        nested + ": a directory inside the input directory",
        "build-index",
        "--kind",
        "ips",
        "--input",
        nested.getParent().toString(),
        "--output",
        dir.resolve("never.spx").toString());
    assertFalse(Files.exists(dir.resolve("never.spx.build")), "no work directory is left behind");
    oneLine(1, cut + ": not a complete gzip file", ipLookup("--input", cut.getParent().toString()));
    assertFalse(Files.exists(dir.resolve("never")), "no output directory is left behind");
  }

  private static Path fxProducts() throws Exception {
    Path feed = dir.resolve("feed.tsv");
    Files.write(
        feed,
        ("id\ttitle\tprice_pc\tlink\timage_link\tcategory_name1\tshipping\n"
                + "a1\tt\t100\thttp://x/1\thttp://x/1.jpg\tc\t0\n")
            .getBytes(StandardCharsets.UTF_8));
    Path idx = dir.resolve("products.spx");
    if (!Files.exists(idx)) {
      new io.spindex.builder.ProductIndexBuilder().build(List.of(feed), idx);
    }
    return idx;
  }

  /**
   * An index whose source is older than --max-age (or spark.spindex.max-age) is one line and exit
   * 1, before any task; beyond --warn-age the job runs after one warning line.
   */
  @Test
  void anOldIndexIsRefusedInOneLineOrWarnedAbout() throws Exception {
    long now = System.currentTimeMillis();
    long source = now - 41L * 86_400_000 - 3_600_000;
    Path text = Files.write(dir.resolve("old.txt"), "1.0.0.0|1.0.0.255|AU\n".getBytes());
    Path old = dir.resolve("old.spx");
    new io.spindex.builder.IpRangeBuilder()
        .createdMillis(now - 40L * 86_400_000)
        .sourceMillis(source)
        .build(List.of(text), old);
    String line =
        old
            + ": the database is 41 days old (source built "
            + io.spindex.index.SourceInfo.timeText(source)
            + "); ";
    oneLine(
        1,
        "spindex ip-lookup: " + line + "max-age is 30 days",
        ipLookup("--index", old.toString(), "--max-age", "30d"));
    assertFalse(Files.exists(dir.resolve("never")), "no output directory is left behind");
    // The Spark configuration's key is the option's default, as for every job option.
    io.spindex.job.JobArgs a =
        SparkLineJobs.parse(
            new org.apache.spark.SparkConf(false).set("spark.spindex.max-age", "30d"),
            "ip-lookup",
            new io.spindex.job.IpLookupDefinition().options(),
            new String[] {"--input", "in", "--output", "out", "--index", "i.spx"});
    assertEquals(java.time.Duration.ofDays(30), a.get(io.spindex.job.Freshness.MAX_AGE));

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream was = System.err;
    Object[] r;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      r =
          run(
              ipLookup(
                  "--index",
                  old.toString(),
                  "--warn-age",
                  "30d",
                  "--output",
                  dir.resolve("warned").toString()));
    } finally {
      System.setErr(was);
    }
    assertEquals(0, r[0], (String) r[2]);
    String warned = err.toString(StandardCharsets.UTF_8);
    assertTrue(
        warned.contains("spindex ip-lookup: warning: " + line + "warn-age is 30 days\n"), warned);
    assertTrue(
        ((String) r[1])
            .contains("source built " + io.spindex.index.SourceInfo.timeText(source) + ")"),
        (String) r[1]);
  }

  @Test
  void helpListsTheOptionsAndExitsZero() {
    for (String job : new String[] {"ip-lookup", "ep-transform", "ep-diff"}) {
      Object[] r = run(job, "--help");
      assertEquals(0, r[0]);
      assertTrue(((String) r[1]).contains("--output"), (String) r[1]);
    }
  }

  /**
   * {@code spark-submit … <job> --help} answers before a SparkContext starts (it took about 10 s
   * and 50 lines of log before the text): the text {@link SpindexSpark#help} gives without a
   * session is the one the job prints in one, for every job; other arguments are the job's.
   */
  @Test
  void helpNeedsNoSparkContext() {
    for (String job : SpindexSpark.JOBS.names()) {
      String help = SpindexSpark.help(job, new String[] {"--help"});
      Object[] r = run(job, "--help");
      assertEquals(0, r[0], job);
      assertEquals(((String) r[1]).trim(), help == null ? null : help.trim(), job);
      assertTrue(help.startsWith("usage: " + job), help);
    }
    assertEquals(
        SpindexSpark.help("ip-lookup", new String[] {"--help"}),
        SpindexSpark.help("ip-lookup", new String[] {"--input", "x", "--help"}));
    assertEquals(null, SpindexSpark.help("ip-lookup", new String[] {"--input", "x"}));
    assertEquals(null, SpindexSpark.help("ip-lookup", new String[] {"--nope", "--help"}));
  }

  /** No job, --help, an unknown job, a usage mistake, a failure: as on MapReduce. */
  @Test
  void theDispatcherAnswersAsOnMapReduce() throws Exception {
    io.spindex.job.DispatcherContract.check(
        args -> {
          Object[] r = run(args);
          return new String[] {String.valueOf(r[0]), (String) r[1], (String) r[2]};
        },
        fx.inputDir.toString(),
        dir.resolve("never").toString(),
        fx.ranges.toString());
  }
}
