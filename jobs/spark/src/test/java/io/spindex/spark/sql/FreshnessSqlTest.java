/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.IndexHeader;
import io.spindex.index.IndexKind;
import io.spindex.index.IndexWriter;
import io.spindex.index.Section;
import io.spindex.index.SourceInfo;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import io.spindex.spark.SparkTests;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL functions and freshness: {@code spindex_version(index)} gives the version a query answers
 * from (checksum, source SHA-256, built and source time, as the file's header and {@code
 * source_info} say); {@code spark.spindex.max-age} refuses an old index with an analysis error
 * naming the file and its age, as the jobs' {@code --max-age} does.
 */
class FreshnessSqlTest {
  @TempDir Path dir;

  private final SparkSession spark = SparkTests.session();

  private static final long DAY = Duration.ofDays(1).toMillis();

  @AfterEach
  void reset() {
    spark.conf().unset("spark.spindex.max-age");
    spark.conf().unset("spark.spindex.warn-age");
    spark.conf().unset("spark.spindex.index.fresh");
    IndexHolder.clear();
  }

  private Path ranges(String name, long created, long source) throws IOException {
    Path text =
        Files.write(
            dir.resolve(name + ".txt"), "1.0.0.0|1.0.0.255|AU\n".getBytes(StandardCharsets.UTF_8));
    Path out = dir.resolve(name + ".spx");
    new IpRangeBuilder().createdMillis(created).sourceMillis(source).build(List.of(text), out);
    return out;
  }

  @Test
  void spindexVersionIsTheVersionOfTheFile() throws Exception {
    long created = Instant.parse("2026-11-29T03:00:00Z").toEpochMilli();
    long source = Instant.parse("2026-11-28T22:00:00Z").toEpochMilli();
    Path index = ranges("geo", created, source);
    IndexHeader h = Loader.readHeader(index);
    spark.conf().set("spark.spindex.index.fresh", index.toString());

    Row v = spark.sql("SELECT spindex_version('fresh') AS v").collectAsList().get(0).getStruct(0);
    assertEquals(String.format(Locale.ROOT, "%08x", h.headerCrc32c()), v.getAs("header_crc"));
    assertEquals(h.sourceDigestHex(), v.getAs("source_sha256"));
    assertEquals(Instant.ofEpochMilli(created), ((Timestamp) v.getAs("built")).toInstant());
    assertEquals(Instant.ofEpochMilli(source), ((Timestamp) v.getAs("source_time")).toInstant());
    StructType t =
        (StructType)
            spark.sql("SELECT spindex_version('fresh') AS v").schema().apply("v").dataType();
    assertEquals(
        "struct<header_crc:string,source_sha256:string,built:timestamp,source_time:timestamp>",
        t.simpleString());
    assertFalse(t.apply("built").nullable());
    assertTrue(t.apply("source_time").nullable());
    // Beside lookups, by path, and of a set index too; the same row for every row of a query.
    Path set = dir.resolve("set.spx");
    Files.write(dir.resolve("set.txt"), "1.0.0.1\n".getBytes(StandardCharsets.UTF_8));
    new io.spindex.builder.IpSetBuilder().build(List.of(dir.resolve("set.txt")), set);
    List<Row> rows =
        spark
            .sql(
                "SELECT spindex_label(ip, 'fresh') AS l, spindex_version('fresh').header_crc AS c,"
                    + " spindex_version('"
                    + set
                    + "').header_crc AS s FROM VALUES ('1.0.0.1'), ('9.9.9.9') AS t(ip)")
            .collectAsList();
    String setCrc = String.format(Locale.ROOT, "%08x", Loader.readHeader(set).headerCrc32c());
    assertEquals("AU", rows.get(0).getString(0));
    for (Row r : rows) {
      assertEquals(v.<String>getAs("header_crc"), r.getString(1));
      assertEquals(setCrc, r.getString(2));
    }
    // The DataFrame function is the same.
    assertEquals(
        v.<String>getAs("header_crc"),
        spark
            .range(1)
            .select(functions.version("fresh"))
            .collectAsList()
            .get(0)
            .getStruct(0)
            .<String>getAs("header_crc"));
  }

  @Test
  void aFileThatDoesNotSayWhenItsSourceWasBuiltGivesNull() throws Exception {
    Path index = dir.resolve("old.spx");
    new IndexWriter(IndexKind.IPV4_SET, 1, new byte[32])
        .ints(Section.KEYS, new int[] {0x81000001}, 1)
        .writeTo(index);
    Row v =
        spark
            .sql("SELECT spindex_version('" + index + "') AS v")
            .collectAsList()
            .get(0)
            .getStruct(0);
    assertNull(v.getAs("source_time"));
  }

  @Test
  void itIsNeverFoldedIntoAConstant() throws Exception {
    Path index = ranges("geo", System.currentTimeMillis(), System.currentTimeMillis());
    String optimized =
        spark
            .sql("SELECT spindex_version('" + index + "') AS v")
            .queryExecution()
            .optimizedPlan()
            .toString();
    assertTrue(optimized.contains("spindex_version("), optimized);
  }

  @Test
  void describeFunctionShowsUsageArgumentsAndExamplesAndThereIsNoTryTwin() {
    String text =
        spark.sql("DESCRIBE FUNCTION EXTENDED spindex_version").collectAsList().stream()
            .map(r -> r.getString(0))
            .collect(Collectors.joining("\n"));
    assertTrue(text.contains("Function: spindex_version"), text);
    assertTrue(text.contains("Usage: spindex_version(index)"), text);
    assertTrue(text.contains("source_time TIMESTAMP"), text);
    assertTrue(text.contains("Arguments:") && text.contains("* index - a constant STRING"), text);
    assertTrue(text.contains("Examples:") && text.contains("> SELECT spindex_version('geo')"));
    assertThrows(
        AnalysisException.class,
        () -> spark.sql("SELECT try_spindex_version('x')").collectAsList());
    AnalysisException e =
        assertThrows(
            AnalysisException.class,
            () -> spark.sql("SELECT spindex_version('a', 'b')").collectAsList());
    assertTrue(
        e.getMessage()
            .startsWith(
                "[SPINDEX_WRONG_NUM_ARGS] spindex_version takes 1 argument (index), not 2."),
        e.getMessage());
  }

  @Test
  void maxAgeRefusesAnOldIndexWithAnAnalysisErrorAndWarnAgeLetsItRun() throws Exception {
    long now = System.currentTimeMillis();
    long source = now - 41 * DAY - 3_600_000;
    Path index = ranges("stale", now - 40 * DAY, source);
    spark.conf().set("spark.spindex.index.fresh", index.toString());
    spark.conf().set("spark.spindex.max-age", "30d");
    String expected =
        index
            + ": the database is 41 days old (source built "
            + SourceInfo.timeText(source)
            + "); max-age is 30 days";
    for (String sql :
        new String[] {
          "SELECT spindex_label('1.0.0.1', 'fresh')", "SELECT spindex_version('fresh')"
        }) {
      AnalysisException e =
          assertThrows(AnalysisException.class, () -> spark.sql(sql).collectAsList());
      String function = sql.substring("SELECT ".length(), sql.indexOf('('));
      assertTrue(
          e.getMessage().startsWith("[SPINDEX_INDEX_TOO_OLD] " + function + ": " + expected + "."),
          e.getMessage());
      assertEquals("SPINDEX_INDEX_TOO_OLD", condition(e));
      assertEquals("55000", e.getSqlState());
    }
    spark.conf().set("spark.spindex.max-age", "42d");
    spark.conf().set("spark.spindex.warn-age", "30d");
    assertEquals(
        "AU", spark.sql("SELECT spindex_label('1.0.0.1', 'fresh')").collectAsList().get(0).get(0));
    // A value that is not an age names the key.
    spark.conf().set("spark.spindex.max-age", "a month");
    AnalysisException e =
        assertThrows(
            AnalysisException.class,
            () -> spark.sql("SELECT spindex_label('1.0.0.1', 'fresh')").collectAsList());
    assertTrue(
        e.getMessage()
            .startsWith(
                "[SPINDEX_INVALID_SETTING] spindex_label: spark.spindex.max-age: expected an age"
                    + " such as 30d"),
        e.getMessage());
    assertEquals("SPINDEX_INVALID_SETTING", condition(e));
    assertEquals("22022", e.getSqlState());
    assertFalse(e.getMessage().contains("Exception"), e.getMessage());
  }

  @SuppressWarnings("deprecation") // getErrorClass: the condition's one name on every line
  private static String condition(AnalysisException e) {
    return e.getErrorClass();
  }
}
