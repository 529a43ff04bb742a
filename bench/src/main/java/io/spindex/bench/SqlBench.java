/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import com.maxmind.db.Reader;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.gen.Queries;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.IndexHeader;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import io.spindex.text.Ipv6Text;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The {@code sql} group of {@code scripts/bench}: Spindex's SQL function against what users write
 * today to enrich a table with IP labels, in one Spark session ({@code local[2]}), on one Parquet
 * table and one set of ranges.
 *
 * <p>Data (generated into {@code --work}, kept there between runs): {@code --ranges} IPv4 ranges of
 * the real shape ({@link RangeGenerator.Shape#REAL}, labels {@code country|region|city|isp}), as a
 * Spindex index, as two MaxMind DB files ({@link MmdbWriter}) and as a Parquet table {@code (start,
 * end, label)}; a Parquet table of {@code --rows} rows {@code (id, ip)}, {@code ip} the address
 * text, drawn by {@link Queries#weighted} (every address in a range, each range as likely as any
 * other), in 8 files.
 *
 * <p>Queries, each an aggregate over the whole table so that nothing is written: {@code count(*)},
 * the count of non-NULL labels and {@code sum(hash(label))}, which must be equal for every method
 * (checked; the run fails otherwise):
 *
 * <ul>
 *   <li>{@code scan}: the same aggregate over {@code ip} itself, no lookup (the floor);
 *   <li>{@code spindex}: {@code spindex_label(ip, 'geo')}, the native expression (loader {@code
 *       mapped});
 *   <li>{@code spindex-udf}: the same lookup as a plain Java UDF ({@code SpindexUdfs$Label});
 *   <li>{@code maxmind-udf}: a Java UDF around the MaxMind DB reader, opened lazily once per JVM
 *       with {@code MEMORY_MAPPED}, as users write it, over a database whose records are {@code
 *       {"label": text}} (the same content as the Spindex index: MaxMind's best case);
 *   <li>{@code maxmind-city-udf}: the same UDF over the same ranges with records shaped like a
 *       GeoIP2/GeoLite2 City database's ({@link MmdbWriter#writeCityShaped}), which the reader
 *       decodes whole on every lookup, as it does for the databases users have;
 *   <li>{@code spindex-lookup}: {@code spindex_lookup(ip, 'city')}, a STRUCT of seven typed fields
 *       (country, city, subdivision ISO code, latitude, longitude, accuracy radius, city geoname
 *       id: {@link CityRecords#FIELDS}) from an index built from a City-shaped MaxMind database of
 *       the same ranges ({@link CityData#write}: records shared by about nine networks each, with
 *       pointers, as City databases are), with {@code spindex build ranges --field};
 *   <li>{@code maxmind-city-struct-udf}: a Java UDF around the MaxMind DB reader over that
 *       database, opened as in {@code maxmind-udf}, returning the same seven fields as a STRUCT of
 *       the same types ({@link MaxmindCity}); these two queries aggregate the STRUCT, {@code
 *       count(g)} and {@code sum(hash(g))}, and are checked against each other;
 *   <li>{@code struct-only}: no lookup, the same aggregate over a STRUCT of the same seven types
 *       built from the table's own columns ({@code ip} three times, {@code id} as two DOUBLEs and
 *       two BIGINTs): what Spark's projection and hash of such a STRUCT cost a row, which {@code
 *       spindex-lookup}'s lookup stage includes (it also reads {@code id}, which the scan does
 *       not);
 *   <li>{@code bucket-join}: the ranges exploded to /16 buckets, an equi-join on the bucket plus
 *       {@code BETWEEN}, the narrowest match per row ({@code min_by});
 *   <li>{@code between-join}: the plain {@code BETWEEN} join with a broadcast hint, on the first
 *       {@code --between-rows} rows only (it compares every row with every range), checked against
 *       {@code spindex_label} on the same rows.
 * </ul>
 *
 * <p>Each query runs once on a 200,000-row warm-up table, then {@code --rounds} times on the full
 * table, the methods interleaved round by round; every run is a row of {@code --csv}: {@code
 * method,rows,round,seconds,count,hits,hash}.
 */
public final class SqlBench {
  private static final long SEED = 42;
  private static final int WARM_ROWS = 200_000;

  private SqlBench() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>();
    opt.put("--work", "target/bench-sql");
    opt.put("--rows", "10000000");
    opt.put("--ranges", "700000");
    opt.put("--between-rows", "2000");
    opt.put("--rounds", "3");
    opt.put("--csv", "sql.csv");
    opt.put("--queries", String.join(",", FULL_TABLE));
    for (int i = 0; i < args.length; i += 2) {
      if (!opt.containsKey(args[i]) || i + 1 == args.length) {
        System.err.println("usage: SqlBench " + opt.keySet() + " VALUE ... (got " + args[i] + ")");
        System.exit(2);
      }
      opt.put(args[i], args[i + 1]);
    }
    Path work = Paths.get(opt.get("--work")).toAbsolutePath();
    int rows = Integer.parseInt(opt.get("--rows"));
    int ranges = Integer.parseInt(opt.get("--ranges"));
    int betweenRows = Integer.parseInt(opt.get("--between-rows"));
    int rounds = Integer.parseInt(opt.get("--rounds"));
    Files.createDirectories(work);
    Data d = Data.create(work, ranges, rows);
    List<String> asked = List.of(opt.get("--queries").split(","));
    if (!FULL_TABLE.containsAll(asked)) {
      System.err.println("usage: --queries takes some of " + String.join(",", FULL_TABLE));
      System.exit(2);
    }
    // Each lookup stage is its query less its table's scan: the scans always run.
    List<String> queries = new ArrayList<>();
    for (String m : FULL_TABLE) {
      if (asked.contains(m)
          || m.equals("scan")
          || m.equals("scan6") && asked.contains("spindex6")) {
        queries.add(m);
      }
    }
    new SqlBench().run(d, rows, betweenRows, rounds, Paths.get(opt.get("--csv")), queries);
  }

  /** The files of one run, generated once per size into the work directory. */
  static final class Data {
    final Path index;
    final Path mmdb;
    final Path mmdbCity;
    final Path cityMmdb;
    final Path cityIndex;
    final Path rangeTable;
    final Path logs;
    final Path warm;
    final Path few;
    final Path index6;
    final Path logs6;
    final Path warm6;

    private Data(Path dir) {
      index = dir.resolve("ranges.spx");
      mmdb = dir.resolve("ranges.mmdb");
      mmdbCity = dir.resolve("ranges-city.mmdb");
      cityMmdb = dir.resolve("city.mmdb");
      cityIndex = dir.resolve("city.spx");
      rangeTable = dir.resolve("ranges.parquet");
      logs = dir.resolve("logs.parquet");
      warm = dir.resolve("warm.parquet");
      few = dir.resolve("few.parquet");
      index6 = dir.resolve("ranges6.spx");
      logs6 = dir.resolve("logs6.parquet");
      warm6 = dir.resolve("warm6.parquet");
    }

    /**
     * What the data's marker holds: the newest index format of the build that made it. Data made by
     * a build of an older format is made anew, or a format change would be timed on the files of
     * the format before it.
     */
    private static final String MADE_BY = "index format " + IndexHeader.FORMAT_VERSION + "\n";

    static Data create(Path work, int rangeCount, int rows) throws IOException {
      Path dir = work.resolve("ranges-" + rangeCount + "-rows-" + rows);
      Data d = new Data(dir);
      Path complete = dir.resolve("_complete");
      if (Files.exists(complete) && Files.readString(complete).equals(MADE_BY)) {
        return d;
      }
      BenchFiles.delete(dir);
      Files.createDirectories(dir);
      Path text = dir.resolve("ranges.txt");
      try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(text), 1 << 20)) {
        new RangeGenerator(rangeCount, SEED, RangeGenerator.Format.RANGE)
            .shape(RangeGenerator.Shape.REAL)
            .writeTo(o);
      }
      new IpRangeBuilder()
          .delimiter('|')
          .createdMillis(0)
          .build(Collections.singletonList(text), d.index);
      IpRanges r = Loader.NIO.load(d.index).asRanges();
      RangeTable table = RangeTable.of(r);
      MmdbWriter.write(table, d.mmdb);
      MmdbWriter.writeCityShaped(table, d.mmdbCity);
      System.err.println("sql: city database: " + CityData.write(table, d.cityMmdb));
      CityData.buildIndex(d.cityMmdb, d.cityIndex);
      // The ranges and the addresses as text for Spark to turn into Parquet.
      try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("ranges.tsv"))) {
        for (int i = 0; i < table.size(); i++) {
          w.write(table.starts[i] + "\t" + table.ends[i] + "\t" + table.labels[table.labelIds[i]]);
          w.newLine();
        }
      }
      try (PrintStream p =
          new PrintStream(
              new BufferedOutputStream(Files.newOutputStream(dir.resolve("ips.txt")), 1 << 20),
              false,
              StandardCharsets.US_ASCII)) {
        Queries.weighted(r, SEED)
            .limit(rows)
            .forEach(
                a ->
                    p.append(Integer.toString(a >>> 24))
                        .append('.')
                        .append(Integer.toString((a >>> 16) & 0xFF))
                        .append('.')
                        .append(Integer.toString((a >>> 8) & 0xFF))
                        .append('.')
                        .append(Integer.toString(a & 0xFF))
                        .append('\n'));
      }
      Files.delete(text);
      // As many realistic IPv6 ranges (their own index, with its prefix6 tables) and as many
      // addresses drawn by range, as text.
      Path text6 = BenchFiles.range6Text(dir, rangeCount);
      new IpRangeBuilder().createdMillis(0).build(Collections.singletonList(text6), d.index6);
      Address6Pool six =
          Address6Pool.inRanges(
              Range6Table.of(Loader.NIO.load(d.index6).asRanges()), SEED + 6, rows);
      try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("ips6.txt"))) {
        for (int i = 0; i < rows; i++) {
          w.write(Ipv6Text.format(six.hi[i], six.lo[i]));
          w.newLine();
        }
      }
      Files.delete(text6);
      return d;
    }

    /** Writes the Parquet tables from the text files (once), then marks the data complete. */
    void tables(SparkSession spark, int rows, int betweenRows) throws IOException {
      Path dir = index.getParent();
      if (Files.exists(dir.resolve("_complete"))) {
        return;
      }
      spark
          .read()
          .option("sep", "\t")
          .schema("start BIGINT, end BIGINT, label STRING")
          .csv(dir.resolve("ranges.tsv").toString())
          .coalesce(1)
          .write()
          .mode(SaveMode.Overwrite)
          .parquet(rangeTable.toString());
      addresses(spark, dir.resolve("ips.txt"), logs);
      sample(spark, logs, warm, Math.min(WARM_ROWS, rows));
      sample(spark, logs, few, Math.min(betweenRows, rows));
      addresses(spark, dir.resolve("ips6.txt"), logs6);
      sample(spark, logs6, warm6, Math.min(WARM_ROWS, rows));
      Files.delete(dir.resolve("ips.txt"));
      Files.delete(dir.resolve("ips6.txt"));
      Files.delete(dir.resolve("ranges.tsv"));
      Files.writeString(dir.resolve("_complete"), MADE_BY);
    }

    /** The addresses of {@code text}, one a line, as a table {@code (id, ip)} in 8 files. */
    private static void addresses(SparkSession spark, Path text, Path table) {
      spark
          .read()
          .text(text.toString())
          .selectExpr("monotonically_increasing_id() AS id", "value AS ip")
          .repartition(8)
          .write()
          .mode(SaveMode.Overwrite)
          .parquet(table.toString());
    }

    /** The first {@code n} rows of {@code table} as a table of their own, in 2 files. */
    private static void sample(SparkSession spark, Path table, Path out, int n) {
      spark
          .read()
          .parquet(table.toString())
          .limit(n)
          .repartition(2)
          .write()
          .mode(SaveMode.Overwrite)
          .parquet(out.toString());
    }
  }

  /**
   * The MaxMind UDF as users write it: a reader opened lazily once per JVM ({@code MEMORY_MAPPED}),
   * {@code InetAddress.getByName} on the text (an address literal: no DNS), the record as a map.
   */
  static final class MaxmindLabel implements UDF1<String, String> {
    private static final long serialVersionUID = 1L;
    static final Map<String, Reader> READERS = new ConcurrentHashMap<>();
    private final String path;

    MaxmindLabel(String path) {
      this.path = path;
    }

    @Override
    public String call(String ip) throws Exception {
      if (ip == null) {
        return null;
      }
      Reader reader = READERS.computeIfAbsent(path, MaxmindLabel::open);
      Map<?, ?> record = reader.get(InetAddress.getByName(ip), Map.class);
      return record == null ? null : (String) record.get("label");
    }

    static Reader open(String path) {
      try {
        return new Reader(new File(path), Reader.FileMode.MEMORY_MAPPED);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The STRUCT of {@link CityRecords#FIELDS}, of the types {@code spindex_lookup} gives them. */
  static final StructType CITY =
      new StructType()
          .add("country", DataTypes.StringType)
          .add("city", DataTypes.StringType)
          .add("subdivision", DataTypes.StringType)
          .add("latitude", DataTypes.DoubleType)
          .add("longitude", DataTypes.DoubleType)
          .add("accuracy_radius", DataTypes.LongType)
          .add("geoname_id", DataTypes.LongType);

  /**
   * The MaxMind UDF of the seven City fields: the reader opened as {@link MaxmindLabel} opens it,
   * the record as a map, the fields pulled out of it ({@link CityRecords#fields}) into a row of
   * {@link #CITY}; NULL where no network holds the address.
   */
  static final class MaxmindCity implements UDF1<String, Row> {
    private static final long serialVersionUID = 1L;
    private final String path;

    MaxmindCity(String path) {
      this.path = path;
    }

    @Override
    public Row call(String ip) throws Exception {
      if (ip == null) {
        return null;
      }
      Reader reader = MaxmindLabel.READERS.computeIfAbsent(path, MaxmindLabel::open);
      Map<?, ?> record = reader.get(InetAddress.getByName(ip), Map.class);
      if (record == null) {
        return null;
      }
      Object[] v = new Object[CityRecords.FIELDS.size()];
      CityRecords.fields(record, v);
      return RowFactory.create(CityRecords.normalized(v));
    }
  }

  /** The address text as a number, the way a SQL user writes it. */
  private static final String IP_NUMBER =
      "CAST(split(ip, '[.]')[0] AS BIGINT) * 16777216 + CAST(split(ip, '[.]')[1] AS BIGINT) * 65536"
          + " + CAST(split(ip, '[.]')[2] AS BIGINT) * 256 + CAST(split(ip, '[.]')[3] AS BIGINT)";

  private static final String AGG = "SELECT count(*), count(label), sum(hash(label)) FROM ";
  private static final String CITY_AGG = "SELECT count(*), count(g), sum(hash(g)) FROM ";

  /** The query of a method over the table {@code t}. */
  static String query(String method, String t) {
    switch (method) {
      case "scan":
        return "SELECT count(*), count(ip), sum(hash(ip)) FROM " + t;
      case "spindex":
        return AGG + "(SELECT spindex_label(ip, 'geo') AS label FROM " + t + ")";
      case "scan6":
        return query("scan", t + "6");
      case "spindex6":
        return AGG + "(SELECT spindex_label(ip, 'geo6') AS label FROM " + t + "6)";
      case "spindex-udf":
        return AGG + "(SELECT spindex_label_udf(ip, '${index}') AS label FROM " + t + ")";
      case "maxmind-udf":
        return AGG + "(SELECT maxmind_label(ip) AS label FROM " + t + ")";
      case "maxmind-city-udf":
        return AGG + "(SELECT maxmind_city_label(ip) AS label FROM " + t + ")";
      case "spindex-lookup":
        return CITY_AGG + "(SELECT spindex_lookup(ip, 'city') AS g FROM " + t + ")";
      case "maxmind-city-struct-udf":
        return CITY_AGG + "(SELECT maxmind_city(ip) AS g FROM " + t + ")";
      case "struct-only":
        return CITY_AGG
            + "(SELECT named_struct('country', ip, 'city', ip, 'subdivision', ip,"
            + " 'latitude', CAST(id AS DOUBLE), 'longitude', CAST(id AS DOUBLE),"
            + " 'accuracy_radius', id, 'geoname_id', id) AS g FROM "
            + t
            + ")";
      case "bucket-join":
        return AGG
            + "(SELECT a.id, min_by(r.label, r.end - r.start) AS label FROM"
            + " (SELECT id, n, shiftright(n, 16) AS bucket FROM (SELECT id, "
            + IP_NUMBER
            + " AS n FROM "
            + t
            + ")) a LEFT JOIN"
            + " (SELECT explode(sequence(shiftright(start, 16), shiftright(end, 16))) AS bucket,"
            + " start, end, label FROM ranges) r"
            + " ON a.bucket = r.bucket AND a.n BETWEEN r.start AND r.end GROUP BY a.id)";
      case "between-join":
        return AGG
            + "(SELECT /*+ BROADCAST(r) */ a.id, min_by(r.label, r.end - r.start) AS label FROM"
            + " (SELECT id, "
            + IP_NUMBER
            + " AS n FROM "
            + t
            + ") a LEFT JOIN ranges r ON a.n BETWEEN r.start AND r.end GROUP BY a.id)";
      default:
        throw new IllegalArgumentException(method);
    }
  }

  /**
   * The suffix of a query run with the lookups a row at a time ({@code spark.spindex.sql.batch}).
   */
  private static final String ROWS = "-rows";

  private static final List<String> FULL_TABLE =
      List.of(
          "scan",
          "spindex",
          "spindex-rows",
          "spindex-udf",
          "maxmind-udf",
          "maxmind-city-udf",
          "spindex-lookup",
          "spindex-lookup-rows",
          "maxmind-city-struct-udf",
          "struct-only",
          "bucket-join",
          "scan6",
          "spindex6");

  /** The queries whose answers are of the seven City fields, checked among themselves. */
  private static final List<String> CITY_QUERIES =
      List.of("spindex-lookup", "spindex-lookup-rows", "maxmind-city-struct-udf");

  /** The queries over the table of IPv6 addresses ({@code scan6}'s answer is not checked). */
  private static final List<String> IPV6_QUERIES = List.of("scan6", "spindex6");

  /**
   * Runs {@code queries} (some of {@link #FULL_TABLE}, all by default: {@code --queries} picks a
   * few to compare two builds quickly), then the {@code between-join}.
   */
  void run(Data d, int rows, int betweenRows, int rounds, Path csv, List<String> queries)
      throws IOException {
    SparkSession spark =
        SparkSession.builder()
            .appName("spindex-sql-bench")
            .master("local[2]")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "8")
            .config("spark.sql.extensions", "io.spindex.spark.sql.SpindexExtensions")
            .config("spark.spindex.index.geo", d.index.toString())
            .config("spark.spindex.index.city", d.cityIndex.toString())
            .config("spark.spindex.index.geo6", d.index6.toString())
            .getOrCreate();
    try {
      d.tables(spark, rows, betweenRows);
      spark.read().parquet(d.rangeTable.toString()).createOrReplaceTempView("ranges");
      spark.read().parquet(d.logs.toString()).createOrReplaceTempView("logs");
      spark.read().parquet(d.warm.toString()).createOrReplaceTempView("warm");
      spark.read().parquet(d.few.toString()).createOrReplaceTempView("few");
      spark.read().parquet(d.logs6.toString()).createOrReplaceTempView("logs6");
      spark.read().parquet(d.warm6.toString()).createOrReplaceTempView("warm6");
      spark
          .udf()
          .registerJava(
              "spindex_label_udf", "io.spindex.spark.sql.SpindexUdfs$Label", DataTypes.StringType);
      spark
          .udf()
          .register("maxmind_label", new MaxmindLabel(d.mmdb.toString()), DataTypes.StringType);
      spark
          .udf()
          .register(
              "maxmind_city_label", new MaxmindLabel(d.mmdbCity.toString()), DataTypes.StringType);
      spark.udf().register("maxmind_city", new MaxmindCity(d.cityMmdb.toString()), CITY);

      List<String> out = new ArrayList<>();
      out.add("method,rows,round,seconds,count,hits,hash");
      Map<String, List<Object>> answers = new LinkedHashMap<>();
      Map<String, List<Object>> cityAnswers = new LinkedHashMap<>();
      for (String m : queries) {
        time(spark, d, m, "warm");
      }
      for (int round = 1; round <= rounds; round++) {
        for (String m : queries) {
          Timed t = time(spark, d, m, "logs");
          out.add(t.csv(m, rows, round));
          if (m.equals("struct-only")) {
            // Another STRUCT than the lookups': only its counts are known.
            if (!t.answer.get(0).equals((long) rows) || !t.answer.get(1).equals((long) rows)) {
              throw new IllegalStateException("struct-only counted " + t.answer + " rows");
            }
          } else if (!IPV6_QUERIES.contains(m)) {
            check(
                CITY_QUERIES.contains(m) ? cityAnswers : answers,
                m,
                m.equals("scan") ? null : t.answer,
                "logs");
          } else if (m.equals("spindex6") && !t.answer.get(0).equals(t.answer.get(1))) {
            // Every address was drawn inside a range: every one must find its label.
            throw new IllegalStateException("spindex6 found " + t.answer + " of the IPv6 rows");
          }
        }
      }
      // The broadcast BETWEEN join, on the few rows it can finish in reasonable time, checked
      // against spindex_label on the same rows; one warm-up on a tenth of them.
      int n = Math.min(betweenRows, rows);
      spark.sql("SELECT * FROM few LIMIT " + Math.max(1, n / 10)).createOrReplaceTempView("fewer");
      time(spark, d, "between-join", "fewer");
      Timed ref = time(spark, d, "spindex", "few");
      Timed b = time(spark, d, "between-join", "few");
      out.add(b.csv("between-join", n, 1));
      if (!ref.answer.equals(b.answer)) {
        throw new IllegalStateException(
            "between-join answers " + b.answer + ", spindex_label " + ref.answer);
      }
      Files.write(csv, out, StandardCharsets.UTF_8);
    } finally {
      spark.stop();
    }
  }

  /** Fails unless every method but the scan gives the same answer on the table. */
  private static void check(Map<String, List<Object>> answers, String m, List<Object> a, String t) {
    if (a == null) {
      return;
    }
    answers.put(m, a);
    for (Map.Entry<String, List<Object>> e : answers.entrySet()) {
      if (!Objects.equals(e.getValue(), a)) {
        throw new IllegalStateException(
            String.format(
                Locale.ROOT,
                "%s answers %s on %s, but %s answers %s",
                m,
                a,
                t,
                e.getKey(),
                e.getValue()));
      }
    }
  }

  private static final class Timed {
    final double seconds;
    final List<Object> answer;

    Timed(double seconds, List<Object> answer) {
      this.seconds = seconds;
      this.answer = answer;
    }

    String csv(String method, int rows, int round) {
      return String.format(
          Locale.ROOT,
          "%s,%d,%d,%.4f,%s,%s,%s",
          method,
          rows,
          round,
          seconds,
          answer.get(0),
          answer.get(1),
          answer.get(2));
    }
  }

  private static Timed time(SparkSession spark, Data d, String method, String table) {
    boolean rows = method.endsWith(ROWS);
    String q =
        query(rows ? method.substring(0, method.length() - ROWS.length()) : method, table)
            .replace("${index}", d.index.toString());
    // The row-at-a-time lookups: the expression alone, without the batch operator.
    spark.conf().set("spark.spindex.sql.batch", String.valueOf(!rows));
    long t0 = System.nanoTime();
    Row r;
    try {
      r = spark.sql(q).collectAsList().get(0);
    } finally {
      spark.conf().unset("spark.spindex.sql.batch");
    }
    double s = (System.nanoTime() - t0) / 1e9;
    List<Object> answer = Arrays.asList(r.get(0), r.get(1), r.get(2));
    System.err.printf(Locale.ROOT, "sql: %-12s %-6s %8.3f s  %s%n", method, table, s, answer);
    return new Timed(s, answer);
  }
}
