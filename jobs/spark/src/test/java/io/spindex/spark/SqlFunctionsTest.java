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

import com.google.common.net.InetAddresses;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import io.spindex.lookup.IpLookupFixture;
import io.spindex.spark.sql.SpindexFunctions;
import io.spindex.spark.sql.functions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
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
 * The Spindex SQL functions in local[2] over a table of the fixture's client addresses (IPv4, IPv6,
 * unparseable, NULL), against the fixture's independent references (TreeMaps and a HashMap) and
 * Guava's address text; in whole-stage generated code and interpreted.
 */
class SqlFunctionsTest {
  @TempDir static Path dir;
  static IpLookupFixture fx;
  static SparkSession spark;
  static Dataset<Row> table;

  /** Expected answers by row: label, in-set, canonical text (null for NULL). */
  static final Map<String, String[]> expected = new HashMap<>();

  @BeforeAll
  static void setUp() throws Exception {
    fx = new IpLookupFixture(dir, 3000);
    spark = SparkTests.session();
    SpindexFunctions.register(spark);
    // ANSI off: an unparseable address is NULL (Spark 3.5's default; SqlAnsiTest covers ANSI on,
    // Spark 4's default).
    spark.conf().set("spark.sql.ansi.enabled", "false");
    spark.conf().set("spark.spindex.index.geo", fx.ranges.toString());
    StructType schema =
        new StructType()
            .add("id", DataTypes.StringType)
            .add("ip", DataTypes.StringType)
            .add("ipnum", DataTypes.LongType)
            .add("ipbin", DataTypes.BinaryType);
    List<Row> rows = new ArrayList<>();
    int n = 0;
    for (IpLookupFixture.Line l : fx.lines) {
      String ip = l.text.isEmpty() ? null : l.text.split(" ", 2)[0];
      long a = ip == null ? -1 : IpLookupFixture.address(ip);
      boolean parses = ip != null && InetAddresses.isInetAddress(ip) && a >= 0;
      Long num = parses && a < 1L << 32 ? a : null;
      byte[] bin = parses ? SparkTests.addressBytes(ip) : null;
      String id = "r" + n++;
      rows.add(RowFactory.create(id, ip, num, bin));
      expected.put(
          id,
          new String[] {
            parses && !fx.rangeLabel(a).equals("\\N") ? fx.rangeLabel(a) : null,
            parses ? String.valueOf(fx.inSet(a)) : null,
            parses ? canonical(ip) : null
          });
    }
    // A Parquet table, as logs are kept (a local relation would be folded by the optimizer).
    String parquet = dir.resolve("clients.parquet").toString();
    spark.createDataFrame(rows, schema).repartition(2).write().parquet(parquet);
    table = spark.read().parquet(parquet);
    table.createOrReplaceTempView("clients");
  }

  @AfterAll
  static void tearDown() {
    spark.conf().unset("spark.spindex.index.geo");
    spark.conf().unset("spark.sql.ansi.enabled");
    spark.conf().unset("spark.sql.codegen.wholeStage");
    spark.conf().unset("spark.sql.codegen.factoryMode");
    IndexHolder.clear();
  }

  /**
   * Guava's canonical text; an IPv4-mapped address folded to IPv4, as Guava and Spindex fold it.
   */
  private static String canonical(String ip) {
    return InetAddresses.toAddrString(InetAddresses.forString(ip));
  }

  private void check(Dataset<Row> result, int column, String what) {
    List<Row> got = result.collectAsList();
    assertEquals(expected.size(), got.size());
    int nonNull = 0;
    for (Row r : got) {
      Object v = r.get(1);
      String want = expected.get(r.getString(0))[column];
      assertEquals(want, v == null ? null : v.toString(), what + " of row " + r);
      nonNull += v == null ? 0 : 1;
    }
    assertTrue(nonNull > expected.size() / 4, what + ": only " + nonNull + " answers");
  }

  @Test
  void everyFunctionAndInputTypeAgreesWithTheReferenceInGeneratedCode() {
    String set = fx.set.toString();
    for (String via : new String[] {"ip", "ipbin"}) {
      Dataset<Row> labels = spark.sql("SELECT id, spindex_label(" + via + ", 'geo') FROM clients");
      String plan = labels.queryExecution().executedPlan().toString();
      assertTrue(plan.contains("*(") && plan.contains("spindex_label"), plan);
      check(labels, 0, "spindex_label(" + via + ")");
      check(
          spark.sql("SELECT id, spindex_contains(" + via + ", '" + set + "') FROM clients"),
          1,
          "spindex_contains(" + via + ")");
      check(spark.sql("SELECT id, spindex_ip(" + via + ") FROM clients"), 2, "spindex_ip(" + via);
    }
    // A BIGINT address is an IPv4 value: compare on the rows that have one.
    List<Row> num =
        spark
            .sql("SELECT id, spindex_label(ipnum, 'geo') FROM clients WHERE ipnum IS NOT NULL")
            .collectAsList();
    assertTrue(num.size() > 100);
    for (Row r : num) {
      assertEquals(expected.get(r.getString(0))[0], r.getString(1), "by number " + r);
    }
    // The DataFrame API.
    check(
        table.select(table.col("id"), functions.label(table.col("ip"), fx.ranges.toString())),
        0,
        "functions.label");
  }

  @Test
  void interpretedAnswersAreTheSame() {
    spark.conf().set("spark.sql.codegen.wholeStage", "false");
    spark.conf().set("spark.sql.codegen.factoryMode", "NO_CODEGEN");
    try {
      check(spark.sql("SELECT id, spindex_label(ip, 'geo') FROM clients"), 0, "interpreted label");
      check(spark.sql("SELECT id, spindex_ip(ip) FROM clients"), 2, "interpreted ip");
    } finally {
      spark.conf().unset("spark.sql.codegen.wholeStage");
      spark.conf().unset("spark.sql.codegen.factoryMode");
    }
  }

  @Test
  void mistakesAreAnalysisErrorsNamingTheFile() {
    String set = fx.set.toString();
    analysisError(
        "[SPINDEX_WRONG_INDEX_KIND] spindex_label needs a range index, but "
            + set
            + " is an IP set index.",
        "SELECT spindex_label(ip, '" + set + "') FROM clients");
    analysisError(
        "[SPINDEX_INDEX_FILE_NOT_FOUND] spindex_label: no index file at "
            + dir.resolve("nope.spx")
            + ".",
        "SELECT spindex_label(ip, '" + dir.resolve("nope.spx") + "') FROM clients");
    analysisError(
        "[SPINDEX_INDEX_NOT_FOUND] spindex_label: no index named 'nogeo': set"
            + " spark.spindex.index.NAME to its path, or give a path.",
        "SELECT spindex_label(ip, 'nogeo') FROM clients");
    analysisError(
        "[SPINDEX_INDEX_NAME_EMPTY] spindex_label: the index name is empty; expected a name"
            + " configured as spark.spindex.index.NAME, or an index path.",
        "SELECT spindex_label(ip, '') FROM clients");
    // A file that is not an index: named, but none of its bytes or its size shown.
    analysisError(
        "[SPINDEX_NOT_AN_INDEX] spindex_label: "
            + fx.inputDir
            + "/a.log is not a Spindex index: header at offset 0: expected magic",
        "SELECT spindex_label(ip, '" + fx.inputDir + "/a.log') FROM clients");
    analysisError(
        "not a Spindex index",
        "SELECT spindex_label(ip, '" + fx.inputDir + "/a.log') FROM clients");
    analysisError(
        "[SPINDEX_INDEX_NOT_CONSTANT] spindex_label: the index must be a constant STRING",
        "SELECT spindex_label(ip, id) FROM clients");
    analysisError(
        "[SPINDEX_WRONG_NUM_ARGS] spindex_ip takes 1 argument (ip), not 2.",
        "SELECT spindex_ip(ip, 'x') FROM clients");
  }

  private static void analysisError(String wants, String sql) {
    Exception e = assertThrows(Exception.class, () -> spark.sql(sql).collectAsList());
    assertTrue(e instanceof AnalysisException, e.toString());
    assertTrue(e.getMessage().contains(wants), e.getMessage());
  }

  /** ip-lookup over the Parquet table: every mode, rows reconcile, answers as the references. */
  @Test
  void ipLookupOverATable() throws Exception {
    String parquet = dir.resolve("clients.parquet").toString();
    long nulls = expected.values().stream().filter(e -> e[2] == null).count();
    String out = dir.resolve("table-annotate").toString();
    JobResult r =
        SpindexSpark.run(
            spark,
            "ip-lookup",
            new String[] {
              "--input",
              parquet,
              "--format",
              "parquet",
              "--ip-column",
              "ip",
              "--index",
              fx.ranges.toString(),
              "--output",
              out
            });
    assertTrue(r.ok, r.report.toText());
    assertEquals(expected.size(), (long) r.totals.get("rows in"));
    assertEquals(nulls, (long) r.totals.get("rows rejected"));
    List<Row> rows = spark.read().parquet(out).select("id", "spindex_label").collectAsList();
    assertEquals(expected.size() - nulls, rows.size());
    for (Row row : rows) {
      assertEquals(expected.get(row.getString(0))[0], row.getString(1), "row " + row);
    }
    for (Row row : spark.read().parquet(out + "/_rejects").collectAsList()) {
      String reason = row.getAs("spindex_reason");
      assertEquals(row.getAs("ip") == null ? "null-address" : "unparseable", reason, "" + row);
    }
    String counted = dir.resolve("table-count").toString();
    JobResult c =
        SpindexSpark.run(
            spark,
            "ip-lookup",
            new String[] {
              "--input",
              parquet,
              "--format",
              "parquet",
              "--ip-column",
              "ip",
              "--mode",
              "count",
              "--index",
              fx.ranges.toString(),
              "--output",
              counted
            });
    assertTrue(c.ok, c.report.toText());
    Map<String, Long> want = new HashMap<>();
    for (String[] e : expected.values()) {
      if (e[2] != null) {
        want.merge(String.valueOf(e[0]), 1L, Long::sum);
      }
    }
    Map<String, Long> got = new HashMap<>();
    for (Row row : spark.read().parquet(counted).collectAsList()) {
      got.put(String.valueOf(row.getString(0)), row.getLong(1));
    }
    assertEquals(want, got);
    String hits = dir.resolve("table-filter").toString();
    JobResult f =
        SpindexSpark.run(
            spark,
            "ip-lookup",
            new String[] {
              "--input",
              parquet,
              "--format",
              "parquet",
              "--ip-column",
              "ip",
              "--mode",
              "filter",
              "--index",
              fx.set.toString(),
              "--output",
              hits
            });
    assertTrue(f.ok, f.report.toText());
    long inSet = expected.values().stream().filter(e -> "true".equals(e[1])).count();
    assertEquals(inSet, spark.read().parquet(hits).count());
  }

  /** The plain Java UDFs (registerJava) give the native functions' answers. */
  @Test
  void javaUdfsGiveTheSameAnswers() {
    spark
        .udf()
        .registerJava("udf_label", "io.spindex.spark.sql.SpindexUdfs$Label", DataTypes.StringType);
    spark.udf().registerJava("udf_ip", "io.spindex.spark.sql.SpindexUdfs$Ip", DataTypes.StringType);
    check(spark.sql("SELECT id, udf_label(ip, '" + fx.ranges + "') FROM clients"), 0, "udf_label");
    check(spark.sql("SELECT id, udf_ip(ip) FROM clients"), 2, "udf_ip");
  }

  /**
   * spark.spindex.loader picks the SQL functions' and the UDFs' loader: every loader the jobs take
   * gives the reference answers, and the index the queries used is the one that loader loaded (the
   * holder holds one version per loader; after a clear, only that one).
   */
  @Test
  void everyLoaderGivesTheReferenceAnswers() throws Exception {
    try {
      for (String loader : Loader.OPTION_NAMES) {
        IndexHolder.clear();
        spark.conf().set("spark.spindex.loader", loader);
        spark
            .udf()
            .registerJava(
                "udf_label", "io.spindex.spark.sql.SpindexUdfs$Label", DataTypes.StringType);
        check(spark.sql("SELECT id, spindex_label(ip, 'geo') FROM clients"), 0, loader + " label");
        check(
            spark.sql("SELECT id, udf_label(ip, '" + fx.ranges + "') FROM clients"),
            0,
            loader + " udf_label");
        assertEquals(1, IndexHolder.size(), loader + ": one version held");
        assertFalse(
            IndexHolder.acquire(fx.ranges, Loader.forOption(loader)).loadedByThisCall(),
            loader + ": the queries loaded the index with it");
      }
    } finally {
      spark.conf().unset("spark.spindex.loader");
      IndexHolder.clear();
    }
  }

  /** A bad spark.spindex.loader is one line naming the key, the value and the loaders taken. */
  @Test
  void aBadLoaderIsOneLineNamingTheKeyAndTheChoices() {
    String want =
        ": spark.spindex.loader: unknown loader 'fast': expected one of io, nio, mapped,"
            + " mapped-unchecked.";
    spark.conf().set("spark.spindex.loader", "fast");
    try {
      Exception e =
          assertThrows(
              AnalysisException.class,
              () -> spark.sql("SELECT spindex_label(ip, 'geo') FROM clients").collectAsList());
      assertTrue(
          e.getMessage().startsWith("[SPINDEX_INVALID_LOADER] spindex_label" + want),
          e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
      // A UDF reads it when it is registered, and fails there.
      Throwable u =
          assertThrows(
              Throwable.class,
              () ->
                  spark
                      .udf()
                      .registerJava(
                          "udf_bad",
                          "io.spindex.spark.sql.SpindexUdfs$Label",
                          DataTypes.StringType));
      while (u.getCause() != null && !(u instanceof IllegalArgumentException)) {
        u = u.getCause();
      }
      assertTrue(u instanceof org.apache.spark.SparkIllegalArgumentException, u.toString());
      assertTrue(
          u.getMessage().startsWith("[SPINDEX_INVALID_LOADER] SpindexUdfs.Label" + want),
          u.getMessage());
    } finally {
      spark.conf().unset("spark.spindex.loader");
    }
  }

  /**
   * An index replaced on disk by an atomic rename is seen by the next query, through the native
   * function and the Java UDF alike, without a new session; the query before it saw the old one.
   */
  @Test
  void aReplacedIndexIsSeenByTheNextQuery() throws Exception {
    Path idx = dir.resolve("live.spx");
    Path v1 = dir.resolve("v1.txt");
    Path v2 = dir.resolve("v2.txt");
    java.nio.file.Files.write(v1, List.of("10.0.0.0|10.0.0.255|old"));
    java.nio.file.Files.write(
        v2, List.of("10.0.0.0|10.0.0.127|new", "10.0.0.128|10.0.0.255|newer"));
    new io.spindex.builder.IpRangeBuilder().build(List.of(v1), idx);
    spark.conf().set("spark.spindex.index.live", idx.toString());
    spark
        .udf()
        .registerJava("udf_label", "io.spindex.spark.sql.SpindexUdfs$Label", DataTypes.StringType);
    spark
        .createDataFrame(
            List.of(RowFactory.create("10.0.0.1"), RowFactory.create("10.0.0.200")),
            new StructType().add("ip", DataTypes.StringType))
        .repartition(2)
        .write()
        .parquet(dir.resolve("live.parquet").toString());
    spark.read().parquet(dir.resolve("live.parquet").toString()).createOrReplaceTempView("live");
    String q =
        "SELECT ip, spindex_label(ip, 'live'), udf_label(ip, '" + idx + "') FROM live ORDER BY ip";
    try {
      assertEquals("[[10.0.0.1,old,old], [10.0.0.200,old,old]]", rows(spark.sql(q)));
      Path next = dir.resolve("live.spx.tmp");
      new io.spindex.builder.IpRangeBuilder().build(List.of(v2), next);
      java.nio.file.Files.move(next, idx, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      assertEquals("[[10.0.0.1,new,new], [10.0.0.200,newer,newer]]", rows(spark.sql(q)));
    } finally {
      spark.conf().unset("spark.spindex.index.live");
    }
  }

  private static String rows(Dataset<Row> d) {
    return d.collectAsList().toString();
  }

  /** spindex_lookup: the label as a STRUCT of the fields the build declared. */
  @Test
  void lookupReturnsTheLabelFields() throws Exception {
    Path text = dir.resolve("fields.txt");
    java.nio.file.Files.write(
        text,
        List.of(
            "1.0.0.0|1.0.0.255|KR|Seoul|KT",
            "2001:db8::/32|US|Austin",
            "9.9.9.0/24|DE|Berlin|DT|extra"));
    Path idx = dir.resolve("fields.spx");
    new io.spindex.builder.IpRangeBuilder()
        .labelFields(List.of("country", "city", "isp"), "|")
        .build(List.of(text), idx);
    Dataset<Row> ips =
        spark.createDataFrame(
            List.of(
                RowFactory.create("1.0.0.7"),
                RowFactory.create("2001:db8::5"),
                RowFactory.create("9.9.9.9"),
                RowFactory.create("8.8.8.8"),
                RowFactory.create("junk"),
                RowFactory.create((Object) null)),
            new StructType().add("ip", DataTypes.StringType));
    String parquet = dir.resolve("fields.parquet").toString();
    ips.write().parquet(parquet);
    spark.read().parquet(parquet).createOrReplaceTempView("few");
    Dataset<Row> got =
        spark.sql(
            "SELECT ip, g.country, g.city, g.isp FROM"
                + " (SELECT ip, spindex_lookup(ip, '"
                + idx
                + "') AS g FROM few)");
    assertTrue(
        got.queryExecution().executedPlan().toString().contains("*("),
        got.queryExecution().executedPlan().toString());
    Map<String, String> want = new HashMap<>();
    want.put("1.0.0.7", "KR,Seoul,KT");
    // Lines with fewer or more fields than declared are rejects (field-count): no range.
    want.put("2001:db8::5", "null,null,null");
    want.put("9.9.9.9", "null,null,null");
    want.put("8.8.8.8", "null,null,null");
    want.put("junk", "null,null,null");
    want.put(null, "null,null,null");
    for (Row r : got.collectAsList()) {
      assertEquals(
          want.get(r.getString(0)), r.get(1) + "," + r.get(2) + "," + r.get(3), "row " + r);
    }
    assertEquals(
        "STRUCT<label: STRING>",
        spark
            .sql("SELECT spindex_lookup(ip, 'geo') FROM clients")
            .schema()
            .fields()[0]
            .dataType()
            .sql());
  }

  /** spindex_lookup of typed fields: each a column of its SQL type, NULL where the text is. */
  @Test
  void lookupReturnsTypedFields() throws Exception {
    Path text = dir.resolve("typed.txt");
    java.nio.file.Files.write(
        text,
        List.of(
            "1.0.0.0|1.0.0.255|AU|-33.5|13335|true|18446744073709551615",
            "2001:db8::/32|US|30.25|-7|FALSE|0",
            "9.9.9.0/24|DE||||"));
    Path idx = dir.resolve("typed.spx");
    new io.spindex.builder.IpRangeBuilder()
        .labelFields(
            List.of("country", "lat:double", "asn:bigint", "anycast:boolean", "big:decimal(20,0)"),
            "|")
        .build(List.of(text), idx);
    Dataset<Row> ips =
        spark.createDataFrame(
            List.of(
                RowFactory.create("1.0.0.7"),
                RowFactory.create("2001:db8::5"),
                RowFactory.create("9.9.9.9"),
                RowFactory.create("8.8.8.8")),
            new StructType().add("ip", DataTypes.StringType));
    ips.createOrReplaceTempView("typed_ips");
    Dataset<Row> got =
        spark.sql(
            "SELECT ip, g.country, g.lat, g.asn, g.anycast, g.big, g.lat + 1 FROM"
                + " (SELECT ip, spindex_lookup(ip, '"
                + idx
                + "') AS g FROM typed_ips)");
    assertEquals(
        "STRUCT<country: STRING, lat: DOUBLE, asn: BIGINT, anycast: BOOLEAN, big:"
            + " DECIMAL(20,0)>",
        spark
            .sql("SELECT spindex_lookup(ip, '" + idx + "') FROM typed_ips")
            .schema()
            .fields()[0]
            .dataType()
            .sql());
    Map<String, List<Object>> want = new HashMap<>();
    want.put(
        "1.0.0.7",
        java.util.Arrays.asList(
            "AU", -33.5, 13335L, true, new java.math.BigDecimal("18446744073709551615"), -32.5));
    want.put(
        "2001:db8::5",
        java.util.Arrays.asList("US", 30.25, -7L, false, java.math.BigDecimal.ZERO, 31.25));
    want.put("9.9.9.9", java.util.Arrays.asList("DE", null, null, null, null, null));
    want.put("8.8.8.8", java.util.Arrays.asList(null, null, null, null, null, null));
    for (Row r : got.collectAsList()) {
      List<Object> row = new ArrayList<>();
      for (int i = 1; i < r.length(); i++) {
        row.add(r.get(i));
      }
      assertEquals(want.get(r.getString(0)), row, "row " + r);
    }
  }
}
