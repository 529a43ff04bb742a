/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.ProductIndexBuilder;
import io.spindex.ep.feed.EpHeader;
import io.spindex.index.IndexHeader;
import io.spindex.index.SourceInfo;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code max-age} refuses and {@code warn-age} warns about an old database, in one line naming the
 * file, its age, when its source was built and the limit; every job that reads an index takes both
 * (ip-lookup, ep-diff, ep-transform's side indexes, loader-compare), and says which version it
 * read, source time included.
 */
class FreshnessTest {
  @TempDir Path dir;

  private static final long SOURCE = Instant.parse("2026-10-19T03:00:00Z").toEpochMilli();
  private static final long CREATED = Instant.parse("2026-10-20T00:00:00Z").toEpochMilli();
  private static final long DAY = Duration.ofDays(1).toMillis();
  private static final long HOUR = Duration.ofHours(1).toMillis();

  @AfterEach
  void clear() {
    IndexHolder.clear();
  }

  private Path ranges(String name, long created, Long source) throws IOException {
    Path text =
        Files.write(
            dir.resolve(name + ".txt"), "1.0.0.0|1.0.0.255|AU\n".getBytes(StandardCharsets.UTF_8));
    Path out = dir.resolve(name + ".spx");
    IpRangeBuilder b = new IpRangeBuilder().createdMillis(created);
    if (source != null) {
      b.sourceMillis(source);
    }
    b.build(List.of(text), out);
    return out;
  }

  @Test
  void agesAreDaysHoursMinutesOrSecondsOrNone() {
    assertEquals(Duration.ofDays(30), Freshness.parse("30d"));
    assertEquals(Duration.ofHours(12), Freshness.parse(" 12h "));
    assertEquals(Duration.ofMinutes(90), Freshness.parse("90m"));
    assertEquals(Duration.ofSeconds(45), Freshness.parse("45S"));
    assertEquals(Duration.ZERO, Freshness.parse("none"));
    assertEquals(Duration.ZERO, Freshness.parse("NONE"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"30", "0d", "-1d", "3w", "30 days", "", "d", "1.5d"})
  void anythingElseSaysWhatAnAgeIs(String bad) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Freshness.parse(bad));
    assertEquals(
        "expected an age such as 30d, 12h, 90m or 45s (days, hours, minutes, seconds), or none,"
            + " got '"
            + bad
            + "'",
        e.getMessage());
  }

  @Test
  void beyondMaxAgeTheDatabaseIsRefusedInOneLine() throws IOException {
    IndexHeader h = Loader.readVersion(ranges("geo", CREATED, SOURCE));
    long now = SOURCE + 41 * DAY + 5 * HOUR;
    StaleIndexException e =
        assertThrows(
            StaleIndexException.class,
            () -> Freshness.check("geo.spx", h, Duration.ofDays(30), Duration.ZERO, now));
    assertEquals(
        "geo.spx: the database is 41 days old (source built 2026-10-19T03:00:00Z); max-age is 30"
            + " days",
        e.getMessage());
    // Refused beyond max-age even when warn-age is passed too.
    assertThrows(
        StaleIndexException.class,
        () -> Freshness.check("geo.spx", h, Duration.ofDays(30), Duration.ofDays(7), now));
  }

  @Test
  void beyondWarnAgeOneLineAndTheJobGoesOn() throws IOException {
    IndexHeader h = Loader.readVersion(ranges("geo", CREATED, SOURCE));
    assertEquals(
        "geo.spx: the database is 41 days old (source built 2026-10-19T03:00:00Z); warn-age is 30"
            + " days",
        Freshness.check("geo.spx", h, Duration.ZERO, Duration.ofDays(30), SOURCE + 41 * DAY));
    // Whole days do not show it past the limit: tenths do.
    assertEquals(
        "geo.spx: the database is 30.5 days old (source built 2026-10-19T03:00:00Z); warn-age is"
            + " 30 days",
        Freshness.check(
            "geo.spx", h, Duration.ZERO, Duration.ofDays(30), SOURCE + 30 * DAY + 12 * HOUR));
    assertEquals(
        "geo.spx: the database is 50 hours old (source built 2026-10-19T03:00:00Z); warn-age is"
            + " 12 hours",
        Freshness.check(
            "geo.spx", h, Duration.ZERO, Duration.ofHours(12), SOURCE + 50 * HOUR + HOUR / 2));
    assertEquals(
        "geo.spx: the database is 2 days old (source built 2026-10-19T03:00:00Z); warn-age is 1"
            + " day",
        Freshness.check("geo.spx", h, Duration.ZERO, Duration.ofDays(1), SOURCE + 2 * DAY));
    // Within the limits, or none: nothing to say.
    assertNull(Freshness.check("geo.spx", h, Duration.ofDays(60), Duration.ofDays(45), CREATED));
    assertNull(Freshness.check("geo.spx", h, Duration.ZERO, Duration.ZERO, SOURCE + 999 * DAY));
  }

  @Test
  void theAgeCountsFromTheSourceNotTheIndex() throws IOException {
    // Built yesterday from a source of 40 days ago: 40 days old.
    long now = SOURCE + 40 * DAY + HOUR;
    IndexHeader h = Loader.readVersion(ranges("rebuilt", now - DAY, SOURCE));
    StaleIndexException e =
        assertThrows(
            StaleIndexException.class,
            () -> Freshness.check("rebuilt.spx", h, Duration.ofDays(30), Duration.ZERO, now));
    assertTrue(
        e.getMessage().startsWith("rebuilt.spx: the database is 40 days old"), e::getMessage);
  }

  @Test
  void withoutASourceTimeTheAgeCountsFromWhenTheIndexWasBuilt() throws IOException {
    // An index of a writer that recorded no source time: the header alone, as an old file has.
    IndexHeader h = Loader.readHeader(ranges("old", CREATED, SOURCE));
    assertEquals(-1, h.sourceMillis());
    assertEquals(
        "old.spx: the database is 10 days old (built 2026-10-20T00:00:00Z, its source time not"
            + " recorded); warn-age is 7 days",
        Freshness.check("old.spx", h, Duration.ZERO, Duration.ofDays(7), CREATED + 10 * DAY));
  }

  /** A driver over local files that keeps its warnings. */
  static final class LocalDriver implements Driver {
    final List<String> warnings = new ArrayList<>();

    @Override
    public SideFile ship(String path, String how) {
      return new SideFile(
          path, SideFile.Ship.LOCAL, Paths.get(path).toAbsolutePath().toString(), -1, -1);
    }

    @Override
    public IndexHeader indexHeader(SideFile f) throws IOException {
      return Loader.readVersion(Paths.get(f.location()));
    }

    @Override
    public EpHeader firstEpHeader(String input) throws IOException {
      return EpHeader.read(Paths.get(input));
    }

    @Override
    public void warn(String line) {
      warnings.add(line);
    }
  }

  /** 41 days and 5 hours old by its created time (its text was written now: clamped to it). */
  private static final long OLD = System.currentTimeMillis() - 41 * DAY - 5 * HOUR;

  private Path oldProducts(String name) throws IOException {
    Path feed =
        Files.write(
            dir.resolve(name + ".tsv"),
            "id\ttitle\tprice_pc\tshipping\nP1\tt\t1000\t0\n".getBytes(StandardCharsets.UTF_8));
    Path out = dir.resolve(name + ".spx");
    new ProductIndexBuilder().createdMillis(OLD).build(List.of(feed), out);
    return out;
  }

  private static JobArgs args(LineJobOrTable job, String... a) {
    return JobArgs.parse(job.name, job.options, a, null, "");
  }

  /** A job's name and option table (line jobs and loader-compare alike). */
  private static final class LineJobOrTable {
    final String name;
    final List<JobOption<?>> options;

    LineJobOrTable(String name, List<JobOption<?>> options) {
      this.name = name;
      this.options = options;
    }
  }

  private static String expected(String given, String limit) {
    return given
        + ": the database is 41 days old (source built "
        + SourceInfo.timeText(OLD)
        + "); "
        + limit
        + " is 30 days";
  }

  @Test
  void everyJobThatReadsAnIndexRefusesAndWarns() throws IOException {
    Path geo = ranges("geo", OLD, null);
    Path yesterday = oldProducts("yesterday");
    Path blocked = oldProducts("blocked");
    Path feed =
        Files.write(
            dir.resolve("today.tsv"),
            "id\ttitle\tprice_pc\tshipping\nP1\tt\t1000\t0\n".getBytes(StandardCharsets.UTF_8));
    Path spec =
        Files.write(
            dir.resolve("spec.conf"),
            "steps = [ { filter { field = id, index = \"blocked.spx\", keep = absent } } ]"
                .getBytes(StandardCharsets.UTF_8));
    String out = dir.resolve("out").toString();

    IpLookupDefinition lookup = new IpLookupDefinition();
    LineJobOrTable ipLookup = new LineJobOrTable(lookup.name(), lookup.options());
    String[] lookupArgs = {"--input", feed.toString(), "--output", out, "--index", geo.toString()};
    EpDiffDefinition diff = new EpDiffDefinition();
    LineJobOrTable epDiff = new LineJobOrTable(diff.name(), diff.options());
    String[] diffArgs = {
      "--input", feed.toString(), "--output", out, "--yesterday", yesterday.toString()
    };
    EpTransformDefinition transform = new EpTransformDefinition();
    LineJobOrTable epTransform = new LineJobOrTable(transform.name(), transform.options());
    String[] transformArgs = {
      "--input", feed.toString(), "--output", out, "--spec", spec.toString()
    };
    LineJobOrTable compare =
        new LineJobOrTable(LoaderCompareDefinition.NAME, LoaderCompareDefinition.OPTIONS);
    String[] compareArgs = {"--output", out, "--index", geo.toString()};

    // max-age: refused in one line naming the file as given.
    assertEquals(
        expected(geo.toString(), "max-age"),
        refused(() -> lookup.plan(args(ipLookup, with(lookupArgs, "--max-age", "30d")), drv())));
    assertEquals(
        expected(yesterday.toString(), "max-age"),
        refused(() -> diff.plan(args(epDiff, with(diffArgs, "--max-age", "30d")), drv())));
    assertEquals(
        expected("blocked.spx", "max-age"),
        refused(
            () ->
                transform.plan(args(epTransform, with(transformArgs, "--max-age", "30d")), drv())));
    assertEquals(
        expected(geo.toString(), "max-age"),
        refused(
            () ->
                LoaderCompareDefinition.plan(
                    args(compare, with(compareArgs, "--max-age", "30d")), drv(), 1, "run")));

    // warn-age: one line, and the plan names the version with its source time.
    String source = "source built " + SourceInfo.timeText(OLD) + ")";
    LocalDriver d = drv();
    IpLookupDefinition.Plan p1 =
        lookup.plan(args(ipLookup, with(lookupArgs, "--warn-age", "30d")), d);
    assertEquals(
        List.of("spindex ip-lookup: warning: " + expected(geo.toString(), "warn-age")), d.warnings);
    assertTrue(p1.version.endsWith(source), p1.version);

    d = drv();
    EpDiffDefinition.Plan p2 = diff.plan(args(epDiff, with(diffArgs, "--warn-age", "30d")), d);
    assertEquals(
        List.of("spindex ep-diff: warning: " + expected(yesterday.toString(), "warn-age")),
        d.warnings);
    assertTrue(p2.version.endsWith(source), p2.version);

    d = drv();
    EpTransformDefinition.Plan p3 =
        transform.plan(args(epTransform, with(transformArgs, "--warn-age", "30d")), d);
    assertEquals(
        List.of("spindex ep-transform: warning: " + expected("blocked.spx", "warn-age")),
        d.warnings);
    assertEquals(List.of("blocked.spx"), new ArrayList<>(p3.indexVersions.keySet()));
    assertEquals(Loader.readVersion(blocked).versionText(), p3.indexVersions.get("blocked.spx"));
    assertTrue(p3.indexVersions.get("blocked.spx").endsWith(source));

    d = drv();
    LoaderCompareDefinition.Plan p4 =
        LoaderCompareDefinition.plan(
            args(compare, with(compareArgs, "--warn-age", "30d")), d, 1, "run");
    assertEquals(
        List.of("spindex loader-compare: warning: " + expected(geo.toString(), "warn-age")),
        d.warnings);
    assertTrue(p4.version.endsWith(source), p4.version);

    // Within the limits: no line.
    d = drv();
    lookup.plan(args(ipLookup, with(lookupArgs, "--max-age", "60d", "--warn-age", "42d")), d);
    assertEquals(List.of(), d.warnings);
  }

  private static LocalDriver drv() {
    return new LocalDriver();
  }

  private static String[] with(String[] a, String... more) {
    List<String> all = new ArrayList<>(List.of(a));
    all.addAll(List.of(more));
    return all.toArray(new String[0]);
  }

  private interface Plan {
    void run() throws IOException;
  }

  private static String refused(Plan p) {
    return assertThrows(StaleIndexException.class, p::run).getMessage();
  }
}
