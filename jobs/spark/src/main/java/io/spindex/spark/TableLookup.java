/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.when;

import io.spindex.hadoop.HadoopIo;
import io.spindex.index.IndexKind;
import io.spindex.job.Freshness;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.job.UsageException;
import io.spindex.lookup.LookupMode;
import io.spindex.lookup.Report;
import io.spindex.spark.side.SparkSides;
import io.spindex.spark.sql.JobColumns;
import io.spindex.spark.sql.functions;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.StringType;

/**
 * ip-lookup over a table ({@code --format parquet|orc|json|csv --ip-column COL}): the Spark SQL
 * functions on the address column, written as Parquet. Annotate adds {@code spindex_label} (range
 * index) or {@code spindex_hit} (set index); filter keeps the rows whose address is (or is not) in
 * the index; count writes {@code label, lines}. Rows whose address is NULL or does not parse go to
 * {@code OUT/_rejects} with a {@code spindex_reason} column ({@code null-address}, {@code
 * unparseable}), so that {@code rows in = rows out (or counted) + rejected}.
 */
final class TableLookup {
  private TableLookup() {}

  /**
   * The rows of a Parquet directory, read through its part files: Spark ignores a directory whose
   * own name starts with '_' (and says so in a warning on every run) when it is given as the path.
   */
  private static long rowsOf(SparkSession spark, String dir) throws java.io.IOException {
    org.apache.hadoop.fs.Path glob = new org.apache.hadoop.fs.Path(dir, "part-*");
    org.apache.hadoop.fs.FileStatus[] parts =
        glob.getFileSystem(spark.sparkContext().hadoopConfiguration()).globStatus(glob);
    return parts == null || parts.length == 0 ? 0 : spark.read().parquet(glob.toString()).count();
  }

  static JobResult run(SparkSession spark, JobArgs a) throws Exception {
    String format = a.get(IpLookupDefinition.FORMAT);
    String column = a.get(IpLookupDefinition.IP_COLUMN);
    String name = IpLookupDefinition.NAME;
    if (column.isEmpty()) {
      throw new UsageException(name + ": --format " + format + " needs --ip-column COL");
    }
    String input = a.get(LineJob.INPUT);
    String output = a.get(LineJob.OUTPUT);
    HadoopIo.requireNoOutput(spark.sparkContext().hadoopConfiguration(), output);
    String index = a.get(IpLookupDefinition.INDEX_OPTION);
    LookupMode mode = a.get(IpLookupDefinition.MODE_OPTION);
    long t0 = System.nanoTime();
    Dataset<Row> in =
        spark
            .read()
            .format(format)
            .option("header", "true") // csv: the first line names the columns
            .load(input);
    // A column is named as it is (a dot is part of the name), or back-quoted as in SQL.
    String exact =
        column.length() >= 2 && column.startsWith("`") && column.endsWith("`")
            ? column.substring(1, column.length() - 1).replace("``", "`")
            : column;
    if (!Arrays.asList(in.columns()).contains(exact)) {
      throw new UsageException(
          name
              + ": --ip-column "
              + column
              + ": no such column in "
              + input
              + " (columns: "
              + String.join(", ", in.columns())
              + ")");
    }
    Column ip = in.col("`" + exact.replace("`", "``") + "`");
    DataType type = in.schema().apply(exact).dataType();
    if (!(type instanceof StringType
        || type instanceof IntegerType
        || type instanceof LongType
        || type instanceof BinaryType)) {
      throw new UsageException(
          name
              + ": --ip-column "
              + column
              + " is "
              + type.sql()
              + "; an address column is STRING (text), INT or BIGINT (an IPv4 value) or BINARY"
              + " (4 or 16 bytes)");
    }
    // The try_ forms: an unparseable address is a reject with its reason, not a failed query,
    // whatever spark.sql.ansi.enabled says (Spark 4's default is true).
    Column valid = functions.try_ip(ip).isNotNull();
    io.spindex.index.IndexHeader header = SparkSides.resolve(spark, index).header;
    IndexKind kind = header.kind();
    // As the text path's plan: an index older than --max-age is refused, --warn-age is one line.
    String warning =
        Freshness.check(
            index,
            header,
            a.get(Freshness.MAX_AGE),
            a.get(Freshness.WARN_AGE),
            System.currentTimeMillis());
    if (warning != null) {
      System.err.println("spindex " + name + ": warning: " + warning);
    }
    String added = kind == IndexKind.IPV4_SET ? "spindex_hit" : "spindex_label";
    Column answer = answer(kind, ip, index, a.get(IpLookupDefinition.LOADER_OPTION));
    Dataset<Row> good = in.where(valid).withColumn(added, answer);
    Dataset<Row> rejects =
        in.where(functions.try_ip(ip).isNull())
            .withColumn(
                "spindex_reason",
                when(ip.isNull(), lit("null-address")).otherwise(lit("unparseable")));
    Column hit = kind == IndexKind.IPV4_SET ? col(added) : col(added).isNotNull();
    Dataset<Row> out;
    Dataset<Row> left = null; // filter mode: the rows the filter leaves out, counted on their own
    switch (mode) {
      case FILTER:
        boolean keepHits = a.get(IpLookupDefinition.KEEP_OPTION).equals("hits");
        Column kept = keepHits ? coalesce(hit, lit(false)) : notHit(hit);
        out = good.where(kept).drop(added);
        left = good.where(not(kept));
        break;
      case COUNT:
        out = good.groupBy(col(added).alias("label")).count().withColumnRenamed("count", "lines");
        break;
      default:
        out = good;
    }
    out.write().parquet(output);
    rejects.write().parquet(output + "/_rejects");
    long rowsIn = in.count();
    Dataset<Row> written = spark.read().parquet(output);
    long rowsOut =
        mode == LookupMode.COUNT
            ? written.agg(org.apache.spark.sql.functions.sum("lines")).first().isNullAt(0)
                ? 0
                : written.agg(org.apache.spark.sql.functions.sum("lines")).first().getLong(0)
            : written.count();
    long rejected = rowsOf(spark, output + "/_rejects");
    long filtered = left == null ? 0 : left.count();
    boolean balanced = balanced(rowsIn, rowsOut, filtered, rejected);
    Report r = new Report(name);
    r.put("input", input).put("format", format).put("ip column", column).put("index", index);
    r.put("index version", header.versionText());
    r.put("index kind", kind.toString()).put("loader", a.get(IpLookupDefinition.LOADER_OPTION));
    r.put("mode", mode.optionName()).put("output", output);
    r.put("rows in", rowsIn).put(mode == LookupMode.COUNT ? "rows counted" : "rows out", rowsOut);
    if (mode == LookupMode.FILTER) {
      r.put("rows filtered out", filtered);
    }
    r.put("rows rejected", rejected).put("balanced", balanced);
    r.put("seconds", String.format(Locale.ROOT, "%.2f", (System.nanoTime() - t0) / 1e9));
    HadoopIo.writeSummary(spark.sparkContext().hadoopConfiguration(), output, r);
    Map<String, Long> totals = new LinkedHashMap<>();
    totals.put("rows in", rowsIn);
    totals.put("rows out", rowsOut);
    totals.put("rows filtered out", filtered);
    totals.put("rows rejected", rejected);
    return new JobResult(r, totals, Collections.emptyList(), Collections.emptyMap(), balanced);
  }

  /**
   * The call of the SQL function for {@code kind}, its index loaded with {@code loader}: the job's
   * {@code --loader}, given to the call as a value (the session's {@code spark.spindex.loader} is
   * the queries', not the job's).
   */
  private static Column answer(IndexKind kind, Column ip, String index, String loader) {
    return kind == IndexKind.IPV4_SET
        ? JobColumns.tryContains(ip, index, loader)
        : JobColumns.tryLabel(ip, index, loader);
  }

  /**
   * Whether {@code rows in = rows out (or counted) + rows filtered out + rows rejected}, each side
   * counted on its own: a filter's left-out rows are counted, not derived from the other counts
   * (which would make every filter run balance, whatever it lost).
   */
  static boolean balanced(long rowsIn, long rowsOut, long filtered, long rejected) {
    return rowsIn == rowsOut + filtered + rejected;
  }

  /** Rows that are not hits: a NULL answer (no range) is a miss. */
  private static Column notHit(Column hit) {
    return not(coalesce(hit, lit(false)));
  }
}
