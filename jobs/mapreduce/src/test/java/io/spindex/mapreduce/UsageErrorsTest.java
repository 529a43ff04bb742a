/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.ProductIndexBuilder;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.JobOption;
import io.spindex.job.LineJob;
import io.spindex.lookup.IpLookupFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's mistake on any MapReduce line job, run as {@code hadoop jar} runs it ({@link
 * SpindexMapReduce#run}): a bad option value, a missing or unknown option is exit 2 and one line on
 * standard error; bad input (a missing or wrong index, a missing spec, no input, an existing
 * output) is exit 1 and one line naming the path; never a stack trace, and no output directory is
 * left behind. {@code --help} prints every option and exits 0. (The Spark module checks the same.)
 */
class UsageErrorsTest {
  @TempDir static Path dir;
  static IpLookupFixture fx;
  static Path feed;
  static Path products;
  static String spec;
  static String never;

  @BeforeAll
  static void setUp() throws Exception {
    fx = new IpLookupFixture(dir.resolve("logs"), 50);
    feed = dir.resolve("ep/feed.tsv");
    Files.createDirectories(feed.getParent());
    Files.write(
        feed,
        ("id\ttitle\tprice_pc\tlink\timage_link\tcategory_name1\tshipping\n"
                + "a1\tt\t100\thttp://x/1\thttp://x/1.jpg\tc\t0\n")
            .getBytes(StandardCharsets.UTF_8));
    products = dir.resolve("products.spx");
    new ProductIndexBuilder().build(List.of(feed), products);
    spec =
        Paths.get("../../../conf/ep-transform.example.conf")
            .toAbsolutePath()
            .normalize()
            .toString();
    never = dir.resolve("never").toString();
  }

  private static String oneLine(int code, String wants, String... args) throws Exception {
    return oneLine(MrTests.local(), code, wants, args);
  }

  private static String oneLine(Configuration conf, int code, String wants, String... args)
      throws Exception {
    String err = MrTests.stderr(code, conf, args);
    assertTrue(err.contains(wants), err);
    assertFalse(Files.exists(Paths.get(never)), "no output directory is left behind");
    return err;
  }

  private static String[] args(String job, String[] base, String... more) {
    List<String> a = new ArrayList<>();
    a.add(job);
    a.addAll(Arrays.asList(base));
    a.addAll(Arrays.asList(more));
    return a.toArray(new String[0]);
  }

  private static String[] ipLookup(String... more) {
    return args(
        IpLookupDefinition.NAME,
        new String[] {
          "--input", fx.inputDir.toString(), "--index", fx.ranges.toString(), "--output", never
        },
        more);
  }

  private static String[] epTransform(String... more) {
    return args(
        EpTransformDefinition.NAME,
        new String[] {"--input", feed.toString(), "--spec", spec, "--output", never},
        more);
  }

  private static String[] epDiff(String... more) {
    return args(
        EpDiffDefinition.NAME,
        new String[] {
          "--input", feed.toString(), "--yesterday", products.toString(), "--output", never
        },
        more);
  }

  @Test
  void badValuesAreOneLineUsageErrors() throws Exception {
    oneLine(2, "--mode: unknown mode 'foo'", ipLookup("--mode", "foo"));
    oneLine(2, "--loader: expected", ipLookup("--loader", "nonsense"));
    oneLine(2, "--ip", ipLookup("--ip", "abc"));
    oneLine(2, "--delimiter", ipLookup("--delimiter", "tabs"));
    oneLine(2, "--split-mb", ipLookup("--split-mb", "-5"));
    oneLine(2, "--keep: expected", ipLookup("--keep", "some"));
    oneLine(2, "--reducers: expected", ipLookup("--reducers", "0"));
    oneLine(2, "--compress: expected", ipLookup("--compress", "zip"));
    oneLine(2, "--index-ship: expected", ipLookup("--index-ship", "ftp"));
    oneLine(2, "--single-file: expected", epTransform("--single-file", "maybe"));
    oneLine(2, "--split-mb: expected", epTransform("--split-mb", "abc"));
    oneLine(2, "--index-ship: expected", epTransform("--index-ship", "nowhere"));
    oneLine(2, "--update-time: expected", epDiff("--update-time", "yesterday"));
    oneLine(2, "--loader: expected", epDiff("--loader", "nonsense"));
    oneLine(2, "--delete-tasks: expected", epDiff("--delete-tasks", "-1"));
    oneLine(2, "--max-line-bytes: expected", epDiff("--max-line-bytes", "2"));
    oneLine(2, "--single-file: expected", epDiff("--single-file", "maybe"));
  }

  @Test
  void aBadDefaultFromTheHadoopConfigurationIsAUsageErrorToo() throws Exception {
    Configuration conf = MrTests.local();
    conf.set("spindex.mode", "sum");
    oneLine(conf, 2, "--mode: unknown mode 'sum'", ipLookup());
    // The command line wins over the bad default.
    String err =
        oneLine(conf, 1, "no-such.spx", ipLookup("--mode", "count", "--index", "no-such.spx"));
    assertFalse(err.contains("--mode"), err);
  }

  @Test
  void missingAndUnknownOptionsAreOneLineUsageErrors() throws Exception {
    oneLine(2, "--index is required", "ip-lookup", "--input", "x", "--output", "y");
    oneLine(2, "--input is required", "ip-lookup", "--index", "i.spx", "--output", "y");
    oneLine(2, "--spec is required", "ep-transform", "--input", "x", "--output", "y");
    oneLine(2, "--yesterday is required", "ep-diff", "--input", "x", "--output", "y");
    oneLine(2, "--output is required", "ep-diff", "--input", "x", "--yesterday", "z");
    oneLine(2, "unknown option --colour", ipLookup("--colour", "red"));
    // Options of another job are unknown to this one.
    oneLine(2, "unknown option --loader", epTransform("--loader", "nio"));
    oneLine(2, "unknown option --mode", epDiff("--mode", "count"));
    oneLine(2, "unknown option --spec", epDiff("--spec", spec));
    oneLine(2, "needs a value", ipLookup("--mode"));
    oneLine(2, "unexpected argument 'stray'", ipLookup("stray"));
    oneLine(2, "unknown job 'ip-lokup'", "ip-lokup");
    oneLine(
        2,
        "loader-compare: --loaders: 'text' parses the index's source: give --source",
        "loader-compare",
        "--index",
        fx.ranges.toString(),
        "--output",
        never,
        "--loaders",
        "text,io");
    oneLine(
        2,
        "loader-compare: --rounds",
        "loader-compare",
        "--index",
        fx.ranges.toString(),
        "--output",
        never,
        "--rounds",
        "0");
    assertEquals(2, Integer.parseInt(MrTests.capture(MrTests.local())[0]));
  }

  @Test
  void helpListsEveryOptionAndExitsZero() throws Exception {
    for (LineJob<?> job :
        Arrays.asList(
            new IpLookupDefinition(), new EpTransformDefinition(), new EpDiffDefinition())) {
      String[] r = MrTests.capture(MrTests.local(), job.name(), "--help");
      assertEquals("0", r[0], r[2]);
      assertEquals("", r[2]);
      for (JobOption<?> o : job.options()) {
        assertTrue(r[1].contains("--" + o.name()), job.name() + ": " + r[1]);
      }
      assertTrue(r[1].contains("-D spindex.<option>=<value>"), r[1]);
    }
  }

  @Test
  void badInputIsOneLineNamingThePathAndExitOne() throws Exception {
    Path noSuch = dir.resolve("no-such.spx");
    oneLine(1, noSuch + ": no such file", ipLookup("--index", noSuch.toString()));
    oneLine(1, "needs an IP set or range index", ipLookup("--index", products.toString()));
    oneLine(1, "passwd", ipLookup("--index", "/etc/passwd"));
    oneLine(
        2,
        "ip-lookup: --format parquet: tables are read by the Spark job",
        ipLookup("--format", "parquet", "--ip-column", "ip"));
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
    oneLine(1, "nothing-", ipLookup("--input", dir.resolve("nothing-*").toString()));
    oneLine(1, noSuch + ": no such file", epDiff("--yesterday", noSuch.toString()));
    oneLine(
        1,
        "needs a product index, not an IP range index",
        epDiff("--yesterday", fx.ranges.toString()));
    oneLine(1, "no input files", epDiff("--input", dir.resolve("nothing-*").toString()));
    Path noSpec = dir.resolve("no-such.conf");
    oneLine(1, noSpec.toString(), epTransform("--spec", noSpec.toString()));
    oneLine(1, "no input files", epTransform("--input", dir.resolve("nothing-*").toString()));
    // A directory inside the input directory, and a gzip input cut short: one line naming the
    // user's path, as on the other engine, and no output left.
    Path[] bad = IpLookupFixture.badInputs(dir);
    Path nested = bad[0];
    Path cut = bad[1];
    oneLine(
        1,
        nested + ": a directory inside the input directory " + nested.getParent(),
        ipLookup("--input", nested.getParent().toString()));
    String err = oneLine(1, cut + ": not a complete gzip file", ipLookup("--input", "" + cut));
    assertEquals(1, err.trim().split("\n").length, err);
  }

  @Test
  void anExistingOutputDirectoryIsOneLineNamingItAndExitOne() throws Exception {
    Path exists = Files.createDirectories(dir.resolve("exists"));
    Files.write(exists.resolve("keep.txt"), new byte[] {1});
    String out = exists.toString();
    oneLine(1, out + " already exists", ipLookup("--output", out));
    oneLine(1, out + " already exists", epTransform("--output", out));
    oneLine(1, out + " already exists", epDiff("--output", out));
    assertTrue(Files.exists(exists.resolve("keep.txt")), "left as it was");
  }

  /** No job, --help, an unknown job, a usage mistake, a failure: as on Spark. */
  @Test
  void theDispatcherAnswersAsOnSpark() throws Exception {
    io.spindex.job.DispatcherContract.check(
        args -> MrTests.capture(MrTests.local(), args),
        fx.inputDir.toString(),
        never,
        fx.ranges.toString());
  }
}
