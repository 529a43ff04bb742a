/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.spindex.index.load.IndexHolder;
import io.spindex.spark.sql.InvalidAddressException;
import io.spindex.spark.sql.SpindexFunctions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark 4's SQL semantics, on every line: with {@code spark.sql.ansi.enabled=true} an unparseable
 * address is an error naming the function, the value and the input column, and the {@code try_}
 * twins answer NULL; collated strings are addresses; {@code DESCRIBE FUNCTION EXTENDED} shows
 * usage, arguments and examples.
 */
class SqlAnsiTest {
  @TempDir static Path dir;
  static SparkSession spark;
  static Path ranges;
  static Path set;

  @BeforeAll
  static void setUp() throws Exception {
    spark = SparkTests.session();
    SpindexFunctions.register(spark);
    Path text = dir.resolve("r.txt");
    Files.write(text, List.of("10.0.0.0|10.0.0.255|ten", "2001:db8::/32|doc"));
    ranges = dir.resolve("r.spx");
    new io.spindex.builder.IpRangeBuilder().build(List.of(text), ranges);
    Path ips = dir.resolve("s.txt");
    Files.write(ips, List.of("10.0.0.7"));
    set = dir.resolve("s.spx");
    new io.spindex.builder.IpSetBuilder().build(List.of(ips), set);
    spark.conf().set("spark.spindex.index.ansi", ranges.toString());
    spark
        .createDataFrame(
            List.of(
                RowFactory.create("10.0.0.7", 1),
                RowFactory.create("2001:db8::9", 2),
                RowFactory.create("8.8.8.8", 3),
                RowFactory.create("not-an-ip", 4),
                RowFactory.create(null, 5)),
            new StructType().add("client_ip", DataTypes.StringType).add("n", DataTypes.IntegerType))
        .repartition(1)
        .write()
        .parquet(dir.resolve("t.parquet").toString());
    spark.read().parquet(dir.resolve("t.parquet").toString()).createOrReplaceTempView("t");
  }

  @AfterAll
  static void tearDown() {
    spark.conf().unset("spark.spindex.index.ansi");
    spark.conf().unset("spark.sql.ansi.enabled");
    IndexHolder.clear();
  }

  private static String rows(String sql) {
    return spark.sql(sql).collectAsList().stream().map(Row::toString).collect(Collectors.joining());
  }

  @Test
  void underAnsiAnUnparseableAddressIsAnErrorNamingFunctionValueAndColumn() {
    spark.conf().set("spark.sql.ansi.enabled", "true");
    String[][] cases = {
      {"spindex_label(client_ip, 'ansi')", "spindex_label", "'not-an-ip'"},
      {"spindex_lookup(client_ip, 'ansi')", "spindex_lookup", "'not-an-ip'"},
      {"spindex_contains(client_ip, '" + set + "')", "spindex_contains", "'not-an-ip'"},
      {"spindex_ip(client_ip)", "spindex_ip", "'not-an-ip'"},
      {"spindex_label(CAST(n AS BIGINT) - 10, 'ansi')", "spindex_label", "-9"},
    };
    for (String[] c : cases) {
      Exception e =
          assertThrows(Exception.class, () -> spark.sql("SELECT " + c[0] + " FROM t").collect());
      InvalidAddressException cause = cause(e);
      assertTrue(cause instanceof SparkThrowable, c[0]);
      assertEquals("SPINDEX_INVALID_ADDRESS", cause.getCondition(), c[0]);
      assertEquals("22018", cause.getSqlState());
      assertEquals(c[1], cause.getMessageParameters().get("function"), c[0]);
      assertEquals(c[2], cause.getMessageParameters().get("value"), c[0]);
      String m = cause.getMessage();
      assertTrue(m.startsWith("[SPINDEX_INVALID_ADDRESS] " + c[1] + ": the value " + c[2]), m);
      assertTrue(m.contains("Use try_" + c[1] + " to get NULL"), m);
      assertTrue(e.toString().contains("SPINDEX_INVALID_ADDRESS"), "reported: " + e);
    }
    Exception e =
        assertThrows(
            Exception.class,
            () -> spark.sql("SELECT spindex_label(client_ip, 'ansi') FROM t").collect());
    assertTrue(cause(e).getMessageParameters().get("column").contains("client_ip"), e.toString());
  }

  private static InvalidAddressException cause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InvalidAddressException) {
        return (InvalidAddressException) t;
      }
    }
    throw new AssertionError("no InvalidAddressException in " + e, e);
  }

  @Test
  void tryTwinsAnswerNullUnderAnsiAndAgreeWithTheFunctionsOtherwise() {
    String q =
        "SELECT n, %s(client_ip, 'ansi'), %s(client_ip, '"
            + set
            + "'), %s(client_ip), %s(client_ip, 'ansi').label FROM t ORDER BY n";
    String tryQ =
        String.format(
            q, "try_spindex_label", "try_spindex_contains", "try_spindex_ip", "try_spindex_lookup");
    String plainQ =
        String.format(q, "spindex_label", "spindex_contains", "spindex_ip", "spindex_lookup");
    String want =
        "[1,ten,true,10.0.0.7,ten][2,doc,false,2001:db8::9,doc][3,null,false,8.8.8.8,null]"
            + "[4,null,null,null,null][5,null,null,null,null]";
    spark.conf().set("spark.sql.ansi.enabled", "true");
    assertEquals(want, rows(tryQ));
    spark.conf().set("spark.sql.ansi.enabled", "false");
    assertEquals(want, rows(tryQ));
    assertEquals(want, rows(plainQ));
  }

  @Test
  void collatedStringsAreAddresses() {
    assumeTrue(spark.version().startsWith("4."), "collations are Spark 4's");
    spark.conf().set("spark.sql.ansi.enabled", "true");
    assertEquals(
        "[1,ten,10.0.0.7][2,doc,2001:db8::9]",
        rows(
            "SELECT n, spindex_label(client_ip COLLATE UTF8_LCASE, 'ansi'),"
                + " spindex_ip(client_ip COLLATE UNICODE_CI) FROM t WHERE n <= 2 ORDER BY n"));
  }

  @Test
  void describeFunctionExtendedShowsUsageArgumentsAndExamples() {
    for (String f :
        new String[] {"spindex_label", "try_spindex_label", "spindex_lookup", "spindex_ip"}) {
      String text =
          spark.sql("DESCRIBE FUNCTION EXTENDED " + f).collectAsList().stream()
              .map(r -> r.getString(0))
              .collect(Collectors.joining("\n"));
      assertTrue(text.contains("Function: " + f), text);
      assertTrue(text.contains("Usage: " + f + "(ip"), text);
      assertTrue(text.contains("Arguments:") && text.contains("* ip - the address"), text);
      assertTrue(text.contains("Examples:") && text.contains("> SELECT " + f + "("), text);
    }
  }

  @Test
  void explainShowsTheFunctionsInsideWholeStageCodegen() {
    String plan =
        spark
            .sql("SELECT try_spindex_label(client_ip, 'ansi') FROM t")
            .queryExecution()
            .executedPlan()
            .toString();
    assertTrue(plan.contains("*(") && plan.contains("try_spindex_label"), plan);
  }
}
