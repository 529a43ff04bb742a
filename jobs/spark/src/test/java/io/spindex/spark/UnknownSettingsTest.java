/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.lookup.IpLookupFixture;
import io.spindex.spark.sql.functions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key under {@code spark.spindex.} that names no setting is refused in one line naming the
 * nearest setting: by a job before it starts (exit 2, nothing written), by the SQL functions when a
 * query is analysed and by the Java UDFs when they are registered; from the launch configuration as
 * from a session's {@code SET}.
 */
class UnknownSettingsTest {
  @TempDir static Path dir;
  static SparkSession spark;
  static IpLookupFixture fx;

  @BeforeAll
  static void setUp() throws Exception {
    spark = SparkTests.session();
    fx = new IpLookupFixture(dir.resolve("logs"), 20);
  }

  /** Exit code, standard output, standard error of a job run as spark-submit runs it. */
  private static Object[] run(String... args) {
    return SparkTests.runJob(spark, args);
  }

  private static String[] ipLookup(String... more) {
    List<String> a =
        new java.util.ArrayList<>(
            List.of(
                "ip-lookup",
                "--input",
                fx.inputDir.toString(),
                "--index",
                fx.ranges.toString(),
                "--output",
                dir.resolve("never").toString()));
    a.addAll(List.of(more));
    return a.toArray(new String[0]);
  }

  /** {@code key=value} in the running application's launch configuration while {@code r} runs. */
  private static void withLaunchKey(String key, String value, Runnable r) {
    spark.sparkContext().conf().set(key, value);
    try {
      r.run();
    } finally {
      spark.sparkContext().conf().remove(key);
    }
  }

  @Test
  void aJobRefusesAnUnknownKeyBeforeItStarts() {
    withLaunchKey(
        "spark.spindex.idnex",
        fx.ranges.toString(),
        () -> {
          Object[] r = run(ipLookup());
          String err = (String) r[2];
          assertEquals(2, r[0], err);
          assertEquals(
              "ip-lookup: unknown setting spark.spindex.idnex (nearest: spark.spindex.index.NAME)",
              err.trim());
          assertFalse(Files.exists(dir.resolve("never")), "nothing written");
          // --help still answers.
          assertEquals(0, run("ip-lookup", "--help")[0]);
        });
    // Every job: the check is where the arguments are parsed.
    withLaunchKey(
        "spark.spindex.single_file",
        "true",
        () -> {
          Object[] r = run("gen-logs", "--output", dir.resolve("never").toString());
          assertEquals(2, r[0], (String) r[2]);
          assertEquals(
              "gen-logs: unknown setting spark.spindex.single_file (nearest:"
                  + " spark.spindex.single-file)",
              ((String) r[2]).trim());
        });
  }

  @Test
  void theRemovedIndexKeysAreUnknown() {
    for (String old : List.of("spark.spindex.index", "spark.spindex.job.index")) {
      withLaunchKey(
          old,
          fx.ranges.toString(),
          () -> {
            Object[] r = run(ipLookup());
            assertEquals(2, r[0], (String) r[2]);
            assertEquals(
                "ip-lookup: unknown setting " + old + " (nearest: spark.spindex.index.NAME)",
                ((String) r[2]).trim());
          });
    }
  }

  @Test
  void aJobTakesANamedIndex() {
    withLaunchKey(
        "spark.spindex.index.geo",
        fx.ranges.toString(),
        () -> {
          Path out = dir.resolve("named");
          Object[] r =
              run(
                  "ip-lookup",
                  "--input",
                  fx.inputDir.toString(),
                  "--index",
                  "geo",
                  "--output",
                  out.toString(),
                  "--mode",
                  "count");
          assertEquals(0, r[0], (String) r[2]);
          assertTrue(((String) r[1]).contains(fx.ranges.toString()), (String) r[1]);
        });
  }

  private static final String NAMES_ONLY =
      "unknown setting spark.spindex.sql.namesOnly (nearest: spark.spindex.sql.names-only)";

  @Test
  void theSqlFunctionsRefuseAnUnknownKeyOfTheSession() {
    spark.conf().set("spark.spindex.sql.namesOnly", "true");
    try {
      assertSqlRefuses();
    } finally {
      spark.conf().unset("spark.spindex.sql.namesOnly");
    }
    // And answer once it is gone.
    assertEquals(
        "1.2.3.4", spark.sql("SELECT spindex_ip('1.2.3.4')").collectAsList().get(0).getString(0));
  }

  @Test
  void theSqlFunctionsRefuseAnUnknownKeyOfTheLaunchConfiguration() {
    withLaunchKey("spark.spindex.sql.namesOnly", "true", UnknownSettingsTest::assertSqlRefuses);
  }

  @SuppressWarnings("deprecation") // getErrorClass: the condition's one name on every line
  private static void assertSqlRefuses() {
    AnalysisException sql =
        assertThrows(
            AnalysisException.class,
            () ->
                spark.sql("SELECT spindex_label('1.0.0.1', '" + fx.ranges + "')").collectAsList());
    assertEquals("SPINDEX_UNKNOWN_SETTING", sql.getErrorClass());
    assertEquals("42704", sql.getSqlState());
    assertTrue(
        sql.getMessage().startsWith("[SPINDEX_UNKNOWN_SETTING] spindex_label: " + NAMES_ONLY),
        sql.getMessage());
    assertFalse(sql.getMessage().contains("\n"), sql.getMessage());
    Dataset<Row> df = spark.sql("SELECT '1.2.3.4' AS ip");
    AnalysisException column =
        assertThrows(AnalysisException.class, () -> df.select(functions.ip(df.col("ip"))));
    assertTrue(
        column.getMessage().startsWith("[SPINDEX_UNKNOWN_SETTING] spindex_ip: " + NAMES_ONLY),
        column.getMessage());
    Throwable udf =
        assertThrows(
            Throwable.class,
            () ->
                spark
                    .udf()
                    .registerJava(
                        "udf_unknown_setting",
                        "io.spindex.spark.sql.SpindexUdfs$Label",
                        DataTypes.StringType));
    while (udf.getCause() != null && !(udf instanceof IllegalArgumentException)) {
      udf = udf.getCause();
    }
    assertEquals("SPINDEX_UNKNOWN_SETTING", ((SparkThrowable) udf).getErrorClass());
    assertTrue(
        udf.getMessage().startsWith("[SPINDEX_UNKNOWN_SETTING] SpindexUdfs.Label: " + NAMES_ONLY),
        udf.getMessage());
  }
}
