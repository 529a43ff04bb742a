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

import com.google.common.net.InetAddresses;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.load.IndexHolder;
import io.spindex.lookup.IpLookupFixture;
import io.spindex.spark.SparkTests;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SpindexBatchExec}: the lookups of {@code spindex_label} and {@code spindex_lookup} a batch
 * at a time over a Parquet table of the fixture's client addresses (IPv4, IPv6, unparseable, NULL;
 * as text, BIGINT, INT and BINARY), against independent references (the fixture's TreeMaps for the
 * labels, a TreeMap of this test's typed ranges for the fields) and against the expression's own
 * answers with the operator off; the counts of NULL and unparseable addresses, and the errors of
 * ANSI mode, raised only for a row that is read.
 */
class SqlBatchTest {
  @TempDir static Path dir;
  static SparkSession spark;
  static IpLookupFixture fx;

  /** Row id to the fixture's label of its address, or null. */
  static final Map<Integer, String> labels = new HashMap<>();

  /** Row id to the typed fields of its address (country, lat, asn, anycast), or null. */
  static final Map<Integer, List<Object>> fields = new HashMap<>();

  /** Rows whose text address is NULL or does not parse. */
  static long unusable;

  /** The typed IPv4 ranges: start to {end, fields}. */
  static final TreeMap<Long, Object[]> typed4 = new TreeMap<>();

  @BeforeAll
  static void setUp() throws Exception {
    spark = SparkTests.session();
    spark.conf().set("spark.sql.ansi.enabled", "false");
    fx = new IpLookupFixture(dir, 3000);
    spark.conf().set("spark.spindex.index.fx", fx.ranges.toString());
    spark.conf().set("spark.spindex.index.typed", typedIndex().toString());
    StructType schema =
        new StructType()
            .add("id", DataTypes.IntegerType)
            .add("ip", DataTypes.StringType)
            .add("ipnum", DataTypes.LongType)
            .add("ipint", DataTypes.IntegerType)
            .add("ipbin", DataTypes.BinaryType);
    List<Row> rows = new ArrayList<>();
    int id = 0;
    for (IpLookupFixture.Line l : fx.lines) {
      String ip = l.text.isEmpty() ? null : l.text.split(" ", 2)[0];
      long a = ip == null ? -1 : IpLookupFixture.address(ip);
      boolean parses = ip != null && InetAddresses.isInetAddress(ip) && a >= 0;
      boolean v4 = parses && a < 1L << 32;
      rows.add(
          RowFactory.create(
              id,
              ip,
              v4 ? a : null,
              v4 ? (int) a : null,
              parses ? SparkTests.addressBytes(ip) : null));
      String label = parses ? fx.rangeLabel(a) : null;
      labels.put(id, label == null || label.equals("\\N") ? null : label);
      fields.put(id, parses ? typedFields(ip) : null);
      unusable += parses ? 0 : 1;
      id++;
    }
    spark
        .createDataFrame(rows, schema)
        .repartition(3)
        .write()
        .parquet(dir.resolve("clients.parquet").toString());
    spark
        .read()
        .parquet(dir.resolve("clients.parquet").toString())
        .createOrReplaceTempView("clients");
  }

  @AfterAll
  static void tearDown() {
    spark.conf().unset("spark.spindex.index.fx");
    spark.conf().unset("spark.spindex.index.typed");
    spark.conf().unset("spark.sql.ansi.enabled");
    IndexHolder.clear();
  }

  @AfterEach
  void batchesOn() {
    spark.conf().unset("spark.spindex.sql.batch");
    spark.conf().unset("spark.sql.parquet.columnarReaderBatchSize");
    spark.conf().set("spark.sql.ansi.enabled", "false");
  }

  /**
   * 300 IPv4 ranges with random fields, some left empty, and two IPv6 blocks of the fixture's
   * client regions; the reference keeps what each range holds.
   */
  private static Path typedIndex() throws Exception {
    Random rnd = new Random(7);
    List<String> lines = new ArrayList<>();
    long at = 0;
    for (int i = 0; i < 300; i++) {
      at += 1 + (long) (rnd.nextDouble() * 10_000_000L);
      long end = at + (long) (rnd.nextDouble() * 8_000_000L);
      if (end > 0xFFFF_FFFFL) {
        break;
      }
      Object[] f = {
        // An empty text field is an empty STRING; an empty number or truth value is NULL.
        rnd.nextInt(5) == 0 ? "" : "C" + rnd.nextInt(40),
        rnd.nextInt(5) == 0 ? null : Math.round(rnd.nextDouble() * 18000 - 9000) / 100.0,
        rnd.nextInt(5) == 0 ? null : (long) rnd.nextInt(400_000),
        rnd.nextInt(5) == 0 ? null : rnd.nextBoolean()
      };
      typed4.put(at, new Object[] {end, f});
      lines.add(text(at) + "|" + text(end) + "|" + line(f));
      at = end;
    }
    lines.add("2600::/12|US|38.5|7922|false");
    lines.add("2a00::/16|||3320|true");
    Path t = dir.resolve("typed.txt");
    Files.write(t, lines);
    Path idx = dir.resolve("typed.spx");
    new IpRangeBuilder()
        .labelFields(List.of("country", "lat:double", "asn:bigint", "anycast:boolean"), "|")
        .build(List.of(t), idx);
    return idx;
  }

  private static String text(long a) {
    return (a >>> 24) + "." + (a >>> 16 & 255) + "." + (a >>> 8 & 255) + "." + (a & 255);
  }

  private static String line(Object[] f) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < f.length; i++) {
      s.append(i == 0 ? "" : "|").append(f[i] == null ? "" : f[i].toString());
    }
    return s.toString();
  }

  /** The reference's fields of an address that parses, or null where no typed range holds it. */
  private static List<Object> typedFields(String ip) {
    InetAddress a = InetAddresses.forString(ip);
    byte[] b = a.getAddress();
    if (b.length == 4) {
      long v = Integer.toUnsignedLong(InetAddresses.coerceToInteger(a));
      Map.Entry<Long, Object[]> e = typed4.floorEntry(v);
      return e != null && (Long) e.getValue()[0] >= v
          ? Arrays.asList((Object[]) e.getValue()[1])
          : null;
    }
    BigInteger v = new BigInteger(1, b);
    if (v.shiftRight(116).intValue() == 0x260) {
      return Arrays.asList("US", 38.5, 7922L, false);
    }
    if (v.shiftRight(112).intValue() == 0x2a00) {
      return Arrays.asList("", null, 3320L, true);
    }
    return null;
  }

  private static String plan(Dataset<Row> d) {
    return d.queryExecution().executedPlan().toString();
  }

  /** The rows of a query by id (column 0), the rest of each row as a list. */
  private static Map<Integer, List<Object>> byId(Dataset<Row> d) {
    Map<Integer, List<Object>> m = new HashMap<>();
    for (Row r : d.collectAsList()) {
      List<Object> rest = new ArrayList<>();
      for (int i = 1; i < r.length(); i++) {
        Object v = r.get(i);
        rest.add(v instanceof Row ? rowList((Row) v) : v);
      }
      m.put(r.getInt(0), rest);
    }
    return m;
  }

  private static List<Object> rowList(Row r) {
    List<Object> l = new ArrayList<>();
    for (int i = 0; i < r.length(); i++) {
      l.add(r.get(i));
    }
    return l;
  }

  /** Runs {@code sql} with the operator and without; both plans as expected, both answers equal. */
  private static Map<Integer, List<Object>> bothWays(String sql, boolean batched) {
    spark.conf().set("spark.spindex.sql.batch", "false");
    Dataset<Row> rows = spark.sql(sql);
    assertFalse(plan(rows).contains("SpindexBatch"), plan(rows));
    Map<Integer, List<Object>> want = byId(rows);
    spark.conf().unset("spark.spindex.sql.batch");
    Dataset<Row> batches = spark.sql(sql);
    assertEquals(batched, plan(batches).contains("SpindexBatch"), plan(batches));
    Map<Integer, List<Object>> got = byId(batches);
    assertEquals(want, got, sql);
    assertEquals(labels.size(), got.size());
    return got;
  }

  @Test
  void labelsOfEveryAddressTypeAgreeWithTheReference() {
    Map<Integer, List<Object>> got =
        bothWays(
            "SELECT id, spindex_label(ip, 'fx'), try_spindex_label(ipbin, 'fx') AS b,"
                + " spindex_label(ipnum, 'fx') n, spindex_label(ipint, 'fx'), ip FROM clients",
            true);
    int hits = 0;
    for (Map.Entry<Integer, List<Object>> e : got.entrySet()) {
      String want = labels.get(e.getKey());
      List<Object> r = e.getValue();
      assertEquals(want, r.get(0), "row " + e);
      assertEquals(want, r.get(1), "by bytes " + e);
      if (r.get(4) != null && !r.get(4).toString().contains(":")) {
        assertEquals(want, r.get(2), "by BIGINT " + e);
        assertEquals(want, r.get(3), "by INT " + e);
      }
      hits += want == null ? 0 : 1;
    }
    assertTrue(hits > got.size() / 4, hits + " labels");
  }

  @Test
  void typedFieldsAndTheirStructAgreeWithTheReference() {
    Map<Integer, List<Object>> got =
        bothWays(
            "SELECT id, spindex_lookup(ip, 'typed') AS g, spindex_lookup(ip, 'typed').lat AS lat,"
                + " spindex_lookup(ip, 'typed').country, try_spindex_lookup(ipbin, 'typed').asn"
                + " FROM clients",
            true);
    int hits = 0;
    for (Map.Entry<Integer, List<Object>> e : got.entrySet()) {
      List<Object> want = fields.get(e.getKey());
      List<Object> r = e.getValue();
      assertEquals(want, r.get(0), "struct of " + e);
      assertEquals(want == null ? null : want.get(1), r.get(1), "lat of " + e);
      assertEquals(want == null ? null : want.get(0), r.get(2), "country of " + e);
      assertEquals(want == null ? null : want.get(2), r.get(3), "asn of " + e);
      hits += want == null ? 0 : 1;
    }
    assertTrue(hits > 100, hits + " typed hits");
  }

  @Test
  void smallBatchesGiveTheSameAnswers() {
    spark.conf().set("spark.sql.parquet.columnarReaderBatchSize", "97");
    Map<Integer, List<Object>> got =
        bothWays(
            "SELECT id, spindex_label(ip, 'fx'), spindex_lookup(ip, 'typed') FROM clients", true);
    for (Map.Entry<Integer, List<Object>> e : got.entrySet()) {
      assertEquals(labels.get(e.getKey()), e.getValue().get(0), "row " + e);
      assertEquals(fields.get(e.getKey()), e.getValue().get(1), "row " + e);
    }
  }

  @Test
  void lookupsInsideOtherExpressionsRunInBatchesUnderAProjection() {
    String set = fx.set.toString();
    Dataset<Row> d =
        spark.sql(
            "SELECT id, lower(spindex_label(ip, 'fx')), spindex_lookup(ip, 'typed').asn + 1,"
                + " spindex_contains(ip, '"
                + set
                + "') FROM clients");
    assertTrue(plan(d).contains("SpindexBatch") && plan(d).contains("Project"), plan(d));
    Map<Integer, List<Object>> got =
        bothWays(
            "SELECT id, lower(spindex_label(ip, 'fx')), spindex_lookup(ip, 'typed').asn + 1,"
                + " try_spindex_contains(ip, '"
                + set
                + "') FROM clients",
            true);
    for (Map.Entry<Integer, List<Object>> e : got.entrySet()) {
      String label = labels.get(e.getKey());
      List<Object> f = fields.get(e.getKey());
      List<Object> r = e.getValue();
      assertEquals(label == null ? null : label.toLowerCase(java.util.Locale.ROOT), r.get(0));
      assertEquals(f == null || f.get(2) == null ? null : (Long) f.get(2) + 1, r.get(1));
    }
  }

  @Test
  void conditionalLookupsAndLookupsOverAFilterStayRowByRow() {
    // The expression may not run a lookup under CASE for every row: it stays there.
    Map<Integer, List<Object>> got =
        bothWays(
            "SELECT id, CASE WHEN id % 2 = 0 THEN spindex_label(ip, 'fx') END FROM clients", false);
    for (Map.Entry<Integer, List<Object>> e : got.entrySet()) {
      assertEquals(e.getKey() % 2 == 0 ? labels.get(e.getKey()) : null, e.getValue().get(0));
    }
    Dataset<Row> filtered =
        spark.sql("SELECT id, spindex_label(ip, 'fx') FROM clients WHERE id % 2 = 0");
    assertFalse(plan(filtered).contains("SpindexBatch"), plan(filtered));
    for (Row r : filtered.collectAsList()) {
      assertEquals(labels.get(r.getInt(0)), r.getString(1), r.toString());
    }
  }

  /** The ids of a query's rows, with the operator and without: both the same, and sorted. */
  private static List<Integer> ids(String sql, boolean batched) {
    List<List<Integer>> both = new ArrayList<>();
    for (String on : new String[] {"false", "true"}) {
      spark.conf().set("spark.spindex.sql.batch", on);
      Dataset<Row> d = spark.sql(sql);
      assertEquals(batched && on.equals("true"), plan(d).contains("SpindexBatch"), plan(d));
      List<Integer> ids = new ArrayList<>();
      for (Row r : d.collectAsList()) {
        ids.add(r.getInt(0));
      }
      java.util.Collections.sort(ids);
      both.add(ids);
    }
    assertEquals(both.get(0), both.get(1), sql);
    return both.get(1);
  }

  @Test
  void filtersOfOneLookupRunItInBatches() {
    String set = fx.set.toString();
    List<Integer> inSet = new ArrayList<>();
    List<Integer> r3 = new ArrayList<>();
    List<Integer> r3Even = new ArrayList<>();
    int id = 0;
    for (IpLookupFixture.Line l : fx.lines) {
      String ip = l.text.isEmpty() ? null : l.text.split(" ", 2)[0];
      long a = ip == null ? -1 : IpLookupFixture.address(ip);
      boolean parses = ip != null && InetAddresses.isInetAddress(ip) && a >= 0;
      if (parses && fx.inSet(a)) {
        inSet.add(id);
      }
      if ("R3".equals(labels.get(id))) {
        r3.add(id);
        if (id % 2 == 0) {
          r3Even.add(id);
        }
      }
      id++;
    }
    assertTrue(inSet.size() > 100 && r3.size() > 50, inSet.size() + " in the set, R3 " + r3.size());
    assertEquals(
        inSet, ids("SELECT id FROM clients WHERE spindex_contains(ip, '" + set + "')", true));
    assertEquals(r3, ids("SELECT id, ip FROM clients WHERE spindex_label(ip, 'fx') = 'R3'", true));
    // Under AND the filter may stop before the lookup: it stays in the expression.
    assertEquals(
        r3Even,
        ids("SELECT id FROM clients WHERE id % 2 = 0 AND spindex_label(ip, 'fx') = 'R3'", false));
  }

  /** The count of NULL and unparseable addresses of the query's one function, after it ran. */
  private static long counted(String sql) {
    Dataset<Row> d = spark.sql(sql);
    List<SpindexExpression> found = new ArrayList<>();
    scala.collection.Seq<Expression> es = d.queryExecution().analyzed().expressions();
    for (int i = 0; i < es.length(); i++) {
      collect(es.apply(i), found);
    }
    assertEquals(1, found.size(), sql);
    d.collectAsList();
    return ((IndexRef) found.get(0).target()).unparseableCount();
  }

  private static void collect(Expression e, List<SpindexExpression> found) {
    if (e instanceof SpindexExpression) {
      found.add((SpindexExpression) e);
    }
    scala.collection.Seq<Expression> c = e.children();
    for (int i = 0; i < c.length(); i++) {
      collect(c.apply(i), found);
    }
  }

  /** The operator in an executed plan (through whole-stage stages and adaptive execution). */
  private static SpindexBatchExec operator(org.apache.spark.sql.execution.SparkPlan p) {
    if (p instanceof SpindexBatchExec) {
      return (SpindexBatchExec) p;
    }
    if (p instanceof org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec) {
      return operator(
          ((org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec) p).executedPlan());
    }
    scala.collection.Seq<org.apache.spark.sql.execution.SparkPlan> c = p.children();
    for (int i = 0; i < c.length(); i++) {
      SpindexBatchExec found = operator(c.apply(i));
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /**
   * A cached table is read a batch at a time only when Spark's cache hands out batches: its default
   * serializer does so for tables of BOOLEAN and numeric columns only, and a table with a STRING
   * column (an address as text) is read as rows, so the lookups run row by row there. The answers
   * are the reference's either way.
   */
  @Test
  void aCachedTableRunsInBatchesOnlyWhenSparksCacheHandsOutBatches() {
    spark.sql("CACHE TABLE cached_text AS SELECT id, ip, ipnum FROM clients");
    spark.sql("CACHE TABLE cached_numbers AS SELECT id, ipnum FROM clients");
    try {
      Map<Integer, List<Object>> text =
          cached("SELECT id, spindex_label(ip, 'fx') FROM cached_text", false);
      for (Map.Entry<Integer, List<Object>> e : text.entrySet()) {
        assertEquals(labels.get(e.getKey()), e.getValue().get(0), "id " + e.getKey());
      }
      Map<Integer, List<Object>> numbers =
          cached("SELECT id, spindex_label(ipnum, 'fx') FROM cached_numbers", true);
      int labelled = 0;
      for (Map.Entry<Integer, List<Object>> e : numbers.entrySet()) {
        Object label = e.getValue().get(0);
        if (label != null) {
          assertEquals(labels.get(e.getKey()), label, "id " + e.getKey());
          labelled++;
        }
      }
      assertTrue(labelled > 100, labelled + " labelled");
    } finally {
      spark.sql("UNCACHE TABLE cached_text");
      spark.sql("UNCACHE TABLE cached_numbers");
    }
  }

  /**
   * {@code sql}'s answers with the operator off and on, equal; whether the plan that ran (after
   * adaptive execution, which Spark 3.5 applies over a cached table) holds the operator.
   */
  private static Map<Integer, List<Object>> cached(String sql, boolean batched) {
    spark.conf().set("spark.spindex.sql.batch", "false");
    Dataset<Row> rows = spark.sql(sql);
    Map<Integer, List<Object>> want = byId(rows);
    assertNull(operator(rows.queryExecution().executedPlan()), sql);
    spark.conf().unset("spark.spindex.sql.batch");
    Dataset<Row> batches = spark.sql(sql);
    Map<Integer, List<Object>> got = byId(batches);
    org.apache.spark.sql.execution.SparkPlan ran = batches.queryExecution().executedPlan();
    assertEquals(batched, operator(ran) != null, ran.toString());
    assertEquals(want, got, sql);
    assertEquals(labels.size(), got.size());
    return got;
  }

  @Test
  void theSqlMetricsCountTheRowsAndTimeTheLookups() {
    Dataset<Row> d = spark.sql("SELECT id, spindex_label(ip, 'fx') FROM clients");
    assertEquals(labels.size(), d.collectAsList().size());
    SpindexBatchExec op = operator(d.queryExecution().executedPlan());
    assertTrue(op != null, plan(d));
    assertEquals((long) labels.size(), op.metrics().apply("numOutputRows").value());
    assertTrue(op.metrics().apply("lookupTime").value() > 0);
  }

  @Test
  void nullAndUnparseableAddressesAreCountedAsTheExpressionCountsThem() {
    String sql = "SELECT id, spindex_label(ip, 'fx') FROM clients";
    assertTrue(unusable > 0);
    assertEquals(unusable, counted(sql), "batches");
    spark.conf().set("spark.spindex.sql.batch", "false");
    assertEquals(unusable, counted(sql), "rows");
  }

  @Test
  void underAnsiTheErrorIsTheExpressionsAndOnlyForARowThatIsRead() throws Exception {
    spark.conf().set("spark.sql.ansi.enabled", "true");
    spark
        .createDataFrame(
            List.of(
                RowFactory.create(1, "10.0.0.1"),
                RowFactory.create(2, "not-an-ip"),
                RowFactory.create(3, null)),
            new StructType().add("id", DataTypes.IntegerType).add("ip", DataTypes.StringType))
        .coalesce(1)
        .write()
        .parquet(dir.resolve("bad.parquet").toString());
    spark.read().parquet(dir.resolve("bad.parquet").toString()).createOrReplaceTempView("bad");
    String[] messages = new String[2];
    for (int i = 0; i < 2; i++) {
      spark.conf().set("spark.spindex.sql.batch", String.valueOf(i == 0));
      Dataset<Row> d = spark.sql("SELECT id, spindex_lookup(ip, 'fx') FROM bad");
      assertEquals(i == 0, plan(d).contains("SpindexBatch"), plan(d));
      Exception e = assertThrows(Exception.class, d::collectAsList);
      InvalidAddressException c = null;
      for (Throwable t = e; t != null; t = t.getCause()) {
        c = t instanceof InvalidAddressException ? (InvalidAddressException) t : c;
      }
      assertTrue(c != null, "no InvalidAddressException in " + e);
      messages[i] = c.getMessage();
      assertEquals("'not-an-ip'", c.getMessageParameters().get("value"));
      // The first row is read alone: the bad one after it raises nothing.
      List<Row> first =
          spark.sql("SELECT id, spindex_label(ip, 'fx') FROM bad LIMIT 1").collectAsList();
      String want = fx.rangeLabel(IpLookupFixture.address("10.0.0.1"));
      assertEquals(List.of(RowFactory.create(1, want.equals("\\N") ? null : want)), first);
    }
    assertEquals(messages[1], messages[0]);
  }
}
