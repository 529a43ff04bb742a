/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.load.IndexHolder;
import io.spindex.spark.sql.InvalidAddressException;
import io.spindex.spark.sql.SpindexFunctions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkFiles;
import org.apache.spark.SparkIllegalArgumentException;
import org.apache.spark.SparkRuntimeException;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Spindex error a query can meet, from Java (as from Scala): each is Spark's exception type
 * with Spindex's error condition and SQLSTATE, a message that starts with the condition and names
 * the function, and no more than 400 characters before Spark's own additions (position, plan). The
 * SQLSTATEs here are the documented ones (docs/SPARK.md), written out, not read from the jar.
 */
class SqlErrorsTest {
  @TempDir static Path dir;
  static SparkSession spark;
  static Path ranges;
  static Path set;

  /** The documented SQLSTATE of each condition. */
  static final Map<String, String> STATE = new LinkedHashMap<>();

  static {
    STATE.put("SPINDEX_WRONG_NUM_ARGS", "42605");
    STATE.put("SPINDEX_INDEX_NOT_CONSTANT", "42K08");
    STATE.put("SPINDEX_INDEX_NULL", "22004");
    STATE.put("SPINDEX_INDEX_NAME_EMPTY", "22023");
    STATE.put("SPINDEX_INDEX_NOT_FOUND", "42704");
    STATE.put("SPINDEX_INDEX_NOT_CONFIGURED", "42704");
    STATE.put("SPINDEX_INDEX_FILE_NOT_FOUND", "42K03");
    STATE.put("SPINDEX_NOT_AN_INDEX", "22000");
    STATE.put("SPINDEX_INDEX_READ_FAILED", "58030");
    STATE.put("SPINDEX_WRONG_INDEX_KIND", "42809");
    STATE.put("SPINDEX_INVALID_LOADER", "22022");
    STATE.put("SPINDEX_INVALID_ADDRESS", "22018");
    STATE.put("SPINDEX_INDEX_NOT_SHIPPED", "42704");
    STATE.put("SPINDEX_INDEX_PATH_REFUSED", "42501");
    STATE.put("SPINDEX_UNKNOWN_SETTING", "42704");
    STATE.put("SPINDEX_INVALID_SETTING", "22022");
    STATE.put("SPINDEX_INDEX_TOO_OLD", "55000");
  }

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
    byte[] b = Files.readAllBytes(ranges);
    b[b.length / 2] ^= (byte) 0xFF;
    Files.write(dir.resolve("damaged.spx"), b);
    Files.createDirectories(dir.resolve("adir"));
    spark.conf().set("spark.spindex.index.errs", ranges.toString());
    spark.conf().set("spark.spindex.index.long", "/" + "x".repeat(1_000_000));
  }

  @AfterAll
  static void tearDown() {
    spark.conf().unset("spark.spindex.index.errs");
    spark.conf().unset("spark.spindex.index.long");
    spark.conf().unset("spark.sql.ansi.enabled");
    IndexHolder.clear();
  }

  @SuppressWarnings("deprecation") // getErrorClass: the condition's one name on every line
  private static String condition(Throwable t) {
    return ((SparkThrowable) t).getErrorClass();
  }

  /** Checks a Spindex error: its condition, documented SQLSTATE and message. */
  private static void spindexError(Throwable t, String condition, String starts) {
    assertTrue(t instanceof SparkThrowable, String.valueOf(t));
    assertEquals(condition, condition(t), t.toString());
    assertEquals(STATE.get(condition), ((SparkThrowable) t).getSqlState(), condition);
    String first = t.getMessage().split("\n", 2)[0];
    // Spark adds the position ("; line 1 pos 7") and, below, the plan; the message is before.
    String own = first.replaceAll("; line \\d+ pos \\d+;?$", "");
    assertTrue(own.startsWith("[" + condition + "] " + starts), own);
    assertTrue(own.length() <= 400, own.length() + " characters: " + own);
  }

  private static AnalysisException analysis(String sql) {
    return assertThrows(AnalysisException.class, () -> spark.sql(sql).collectAsList(), sql);
  }

  @Test
  void everyAnalysisErrorIsAnAnalysisExceptionWithItsCondition() {
    String[][] cases = {
      {"spindex_label('8.8.8.8', 'nosuch')", "SPINDEX_INDEX_NOT_FOUND", "spindex_label: no index"},
      {
        "spindex_label('8.8.8.8', '" + dir.resolve("nope.spx") + "')",
        "SPINDEX_INDEX_FILE_NOT_FOUND",
        "spindex_label: no index file at " + dir
      },
      {
        "spindex_label('8.8.8.8', '" + dir.resolve("adir") + "')",
        "SPINDEX_NOT_AN_INDEX",
        "spindex_label: " + dir.resolve("adir") + " is not a Spindex index: a directory"
      },
      {
        "spindex_label('8.8.8.8', '" + dir.resolve("r.txt") + "')",
        "SPINDEX_NOT_AN_INDEX",
        "spindex_label: " + dir.resolve("r.txt") + " is not a Spindex index: header at offset 0"
      },
      {
        "spindex_lookup('8.8.8.8', '" + dir.resolve("damaged.spx") + "')",
        "SPINDEX_NOT_AN_INDEX",
        "spindex_lookup: " + dir.resolve("damaged.spx") + " is not a Spindex index: section '"
      },
      {
        "spindex_contains('8.8.8.8', 'errs')",
        "SPINDEX_WRONG_INDEX_KIND",
        "spindex_contains needs a set index, but " + ranges + " is an IP range index."
      },
      {
        "try_spindex_label('8.8.8.8', '" + set + "')",
        "SPINDEX_WRONG_INDEX_KIND",
        "try_spindex_label needs a range index, but " + set + " is an IP set index."
      },
      {
        "spindex_label(CAST(id AS STRING), CAST(id AS STRING)) FROM range(1)",
        "SPINDEX_INDEX_NOT_CONSTANT",
        "spindex_label: the index must be a constant STRING"
      },
      {"spindex_label('8.8.8.8', 5)", "SPINDEX_INDEX_NOT_CONSTANT", "spindex_label: the index"},
      {"spindex_label('8.8.8.8', NULL)", "SPINDEX_INDEX_NULL", "spindex_label: the index is NULL"},
      {"spindex_label('8.8.8.8', CAST(NULL AS STRING))", "SPINDEX_INDEX_NULL", "spindex_label:"},
      {
        "spindex_label('8.8.8.8')",
        "SPINDEX_WRONG_NUM_ARGS",
        "spindex_label takes 2 arguments (ip, index), not 1."
      },
      {
        "try_spindex_ip('8.8.8.8', 'errs')",
        "SPINDEX_WRONG_NUM_ARGS",
        "try_spindex_ip takes 1 argument (ip), not 2."
      },
      {"spindex_lookup()", "SPINDEX_WRONG_NUM_ARGS", "spindex_lookup takes 2 arguments"},
      {"spindex_label('8.8.8.8', '')", "SPINDEX_INDEX_NAME_EMPTY", "spindex_label: the index"},
      {"spindex_contains('8.8.8.8', ' ')", "SPINDEX_INDEX_NAME_EMPTY", "spindex_contains: the"},
      {
        "spindex_label('8.8.8.8', 'long')",
        "SPINDEX_INDEX_FILE_NOT_FOUND",
        "spindex_label: no index file at /" + "x".repeat(99) + "...(1000001 chars)."
      },
      {
        "spindex_label('8.8.8.8', '" + "y".repeat(1_000_000) + "')",
        "SPINDEX_INDEX_NOT_FOUND",
        "spindex_label: no index named '" + "y".repeat(100) + "...(1000000 chars)':"
      },
    };
    for (String[] c : cases) {
      String sql = "SELECT " + c[0];
      spindexError(analysis(sql), c[1], c[2]);
    }
    // The DataFrame API builds the same expressions: the same errors.
    spindexError(
        assertThrows(
            AnalysisException.class,
            () ->
                io.spindex.spark.sql.functions.label(org.apache.spark.sql.functions.col("x"), "")),
        "SPINDEX_INDEX_NAME_EMPTY",
        "spindex_label: the index name is empty");
  }

  @Test
  void aBadLoaderIsAnAnalysisErrorAndFailsAUdfRegistration() {
    spark.conf().set("spark.spindex.loader", "fast");
    try {
      spindexError(
          analysis("SELECT spindex_label('8.8.8.8', 'errs')"),
          "SPINDEX_INVALID_LOADER",
          "spindex_label: spark.spindex.loader: unknown loader 'fast': expected one of io,");
      Throwable u =
          assertThrows(
              Throwable.class,
              () ->
                  spark
                      .udf()
                      .registerJava(
                          "j_bad", "io.spindex.spark.sql.SpindexUdfs$Label", DataTypes.StringType));
      spindexError(
          find(u, SparkIllegalArgumentException.class),
          "SPINDEX_INVALID_LOADER",
          "SpindexUdfs.Label: spark.spindex.loader: unknown loader 'fast'");
    } finally {
      spark.conf().unset("spark.spindex.loader");
    }
  }

  /** The first throwable of {@code type} in {@code t}'s chain of causes. */
  private static <T extends Throwable> T find(Throwable t, Class<T> type) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return type.cast(c);
      }
    }
    throw new AssertionError("no " + type.getName() + " in " + t, t);
  }

  private static boolean spark4() {
    return spark.version().startsWith("4.");
  }

  @Test
  void anErrorInATaskIsASparkRuntimeException() throws Exception {
    spark.conf().set("spark.sql.ansi.enabled", "true");
    try {
      Exception e =
          assertThrows(
              Exception.class,
              () ->
                  spark
                      .sql("SELECT spindex_label(concat('x', id), 'errs') FROM range(1)")
                      .collectAsList());
      InvalidAddressException a = find(e, InvalidAddressException.class);
      assertTrue(a instanceof SparkRuntimeException);
      spindexError(a, "SPINDEX_INVALID_ADDRESS", "spindex_label: the value 'x0' of the input col");
      // Spark 4 hands an error with a condition to the caller as it was; 3.5 wraps it in a
      // "Job aborted" SparkException, as it wraps its own.
      assertEquals(spark4(), e == a, e.toString());

      // An index gone between analysis and the task: named as the query named it.
      Path gone = dir.resolve("gone.spx");
      Files.copy(set, gone);
      org.apache.spark.sql.Dataset<Row> q =
          spark.sql("SELECT spindex_contains(concat('10.0.0.', id), '" + gone + "') FROM range(1)");
      Files.delete(gone);
      IndexHolder.clear();
      Exception g = assertThrows(Exception.class, q::collectAsList);
      spindexError(
          find(g, SparkRuntimeException.class),
          "SPINDEX_INDEX_FILE_NOT_FOUND",
          "spindex_contains: no index file at " + gone + ".");
    } finally {
      spark.conf().unset("spark.sql.ansi.enabled");
    }
  }

  @Test
  void aUdfErrorNamesTheIndexAsTheQueryGaveIt() {
    spark
        .udf()
        .registerJava("j_label", "io.spindex.spark.sql.SpindexUdfs$Label", DataTypes.StringType);
    String[][] cases = {
      {"city", "SPINDEX_INDEX_NOT_SHIPPED", "SpindexUdfs.Label: no index named 'city' was shipped"},
      {
        dir.resolve("nope.spx").toString(),
        "SPINDEX_INDEX_FILE_NOT_FOUND",
        "SpindexUdfs.Label: no index file at " + dir.resolve("nope.spx") + "."
      },
      {
        dir.resolve("r.txt").toString(),
        "SPINDEX_NOT_AN_INDEX",
        "SpindexUdfs.Label: " + dir.resolve("r.txt") + " is not a Spindex index: header"
      },
      {
        set.toString(),
        "SPINDEX_WRONG_INDEX_KIND",
        "SpindexUdfs.Label needs a range index, but " + set + " is an IP set index."
      },
    };
    for (String[] c : cases) {
      Exception e =
          assertThrows(
              Exception.class,
              () ->
                  spark
                      .sql("SELECT j_label(concat('10.0.0.', id), '" + c[0] + "') FROM range(1)")
                      .collectAsList());
      // Spark wraps every UDF's error in its FAILED_EXECUTE_UDF; the Spindex one is its cause.
      SparkRuntimeException s = find(e, SparkRuntimeException.class);
      spindexError(s, c[1], c[2]);
      assertFalse(
          s.getMessage().contains(SparkFiles.getRootDirectory()),
          "no executor directory: " + s.getMessage());
    }
  }

  /** Under names-only (launch configuration), a UDF refuses a path. */
  @Test
  void underNamesOnlyAUdfRefusesAPath() {
    SparkEnv.get().conf().set("spark.spindex.sql.names-only", "true");
    try {
      spark
          .udf()
          .registerJava("j_names", "io.spindex.spark.sql.SpindexUdfs$Label", DataTypes.StringType);
      Exception e =
          assertThrows(
              Exception.class,
              () ->
                  spark
                      .sql("SELECT j_names('10.0.0.1', '" + ranges + "') FROM range(1)")
                      .collectAsList());
      spindexError(
          find(e, SparkIllegalArgumentException.class),
          "SPINDEX_INDEX_PATH_REFUSED",
          "SpindexUdfs.Label: '" + ranges + "' is a path; spark.spindex.sql.names-only is on");
      Exception n =
          assertThrows(Exception.class, () -> spark.sql("SELECT spindex_label('1.2.3.4', 'geo')"));
      spindexError(n, "SPINDEX_INDEX_NOT_CONFIGURED", "spindex_label: no index named 'geo' in");
    } finally {
      SparkEnv.get().conf().remove("spark.spindex.sql.names-only");
    }
  }

  /** An untyped NULL address is NULL, as a typed one: generated code and interpreted alike. */
  @Test
  void anUntypedNullAddressIsNull() {
    String q =
        "SELECT spindex_label(NULL, 'errs'), spindex_lookup(NULL, 'errs'), spindex_contains(NULL,"
            + " '"
            + set
            + "'), spindex_ip(NULL), try_spindex_ip(NULL) FROM range(2)";
    for (String mode : new String[] {"CODEGEN_ONLY", "NO_CODEGEN"}) {
      spark.conf().set("spark.sql.codegen.factoryMode", mode);
      spark.conf().set("spark.sql.codegen.wholeStage", mode.equals("CODEGEN_ONLY"));
      try {
        List<Row> rows = spark.sql(q).collectAsList();
        assertEquals(2, rows.size());
        for (Row r : rows) {
          for (int i = 0; i < r.length(); i++) {
            assertNull(r.get(i), mode + ": " + r);
          }
        }
      } finally {
        spark.conf().unset("spark.sql.codegen.factoryMode");
        spark.conf().unset("spark.sql.codegen.wholeStage");
      }
    }
  }
}
