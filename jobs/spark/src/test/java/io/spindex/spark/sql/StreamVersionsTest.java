/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.KeptVersions;
import io.spindex.spark.SparkTests;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Structured Streaming query keeps running while its index is replaced by rename, as README
 * advises: each micro-batch answers from one version (no batch mixes two), and the first batch
 * planned after a rename answers from the new one. Row by row (a text source) and a batch at a time
 * (a Parquet source, {@link SpindexBatchExec}), through SQL and the DataFrame functions. Each
 * version labels every range with its own number, so a row's label says which version answered.
 */
class StreamVersionsTest {
  @TempDir Path dir;

  private final SparkSession spark = SparkTests.session();
  private StreamingQuery query;

  @AfterEach
  void stop() throws TimeoutException {
    if (query != null) {
      query.stop();
    }
    IndexHolder.clear();
  }

  /**
   * Version {@code v}: 10.0.0.0/16 in 256 ranges, each labelled {@code v<v>}, renamed over {@code
   * index}; with {@code kept}, also kept beside it as {@code spindex update} keeps versions.
   */
  private void publish(Path index, int v, boolean kept) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 256; i++) {
      sb.append("10.0.").append(i).append(".0|10.0.").append(i).append(".255|v").append(v);
      sb.append('\n');
    }
    Path text = dir.resolve("v" + v + ".txt");
    Files.write(text, sb.toString().getBytes(StandardCharsets.UTF_8));
    Path built = dir.resolve("built-" + v + ".spx");
    new IpRangeBuilder().build(List.of(text), built);
    if (kept) {
      int crc = io.spindex.index.load.Loader.readHeader(built).headerCrc32c();
      Path dir = Files.createDirectories(KeptVersions.dir(index));
      Files.copy(
          built, dir.resolve(KeptVersions.fileName(java.time.Instant.ofEpochSecond(v), crc)));
    }
    Files.move(built, index, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static List<String> addresses(int batch) {
    List<String> ips = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      ips.add("10.0." + ((batch * 37 + i) % 256) + "." + (i % 250));
    }
    return ips;
  }

  @Test
  void aTextStreamRowByRowSeesEachVersionFromTheNextBatchOn() throws Exception {
    run("text", false, false);
  }

  @Test
  void aParquetStreamABatchAtATimeSeesEachVersionFromTheNextBatchOn() throws Exception {
    run("parquet", true, false);
  }

  /** Versions kept beside the file: each batch's tasks read the immutable copy of its version. */
  @Test
  void aStreamOverKeptVersionsReadsEachBatchsVersionFromItsCopy() throws Exception {
    run("text", true, true);
  }

  private void run(String format, boolean dataFrameFunctions, boolean kept) throws Exception {
    Path index = dir.resolve("geo.spx");
    publish(index, 1, kept);
    Path in = Files.createDirectories(dir.resolve("in"));
    spark.conf().set("spark.spindex.index.geo", index.toString());
    Dataset<Row> stream =
        format.equals("text")
            ? spark.readStream().text(in.toString())
            : spark.readStream().schema("value STRING, batch INT").parquet(in.toString());
    Dataset<Row> out =
        dataFrameFunctions
            ? stream.select(
                stream.col("value"), functions.try_label(stream.col("value"), "geo").alias("label"))
            : stream.selectExpr("value", "try_spindex_label(value, 'geo') AS label");
    String name = "versions_" + format;
    query = out.writeStream().format("memory").queryName(name).start();
    int versions = 6;
    Map<Integer, String> expected = new TreeMap<>();
    for (int b = 0; b < versions; b++) {
      writeBatch(in, format, b);
      query.processAllAvailable();
      expected.put(b, "v" + (b + 1));
      publish(index, b + 2, kept); // the next batch must answer from this one
    }
    assertTrue(query.exception().isEmpty(), () -> query.exception().get().getMessage());
    assertTrue(query.isActive(), "the query is still running");
    List<Row> rows = spark.sql("SELECT value, label FROM " + name).collectAsList();
    assertEquals(200 * versions, rows.size());
    // Each batch's rows: every label the one version that was published when it was planned.
    Map<Integer, java.util.Set<String>> seen = new TreeMap<>();
    for (Row r : rows) {
      int batch = batchOf(r.getString(0));
      seen.computeIfAbsent(batch, k -> new java.util.TreeSet<>()).add(r.getString(1));
    }
    for (Map.Entry<Integer, String> e : expected.entrySet()) {
      assertEquals(java.util.Set.of(e.getValue()), seen.get(e.getKey()), "batch " + e.getKey());
    }
    assertTrue(
        IndexHolder.versions() <= IndexHolder.DEFAULT_VERSIONS,
        IndexHolder.versions() + " versions held after " + versions + " updates");
  }

  /** The batch a row came from: its address's third octet tells (see {@link #addresses}). */
  private static int batchOf(String ip) {
    for (int b = 0; b < 64; b++) {
      if (addresses(b).contains(ip)) {
        return b;
      }
    }
    throw new AssertionError("no batch has " + ip);
  }

  private void writeBatch(Path in, String format, int batch)
      throws IOException, StreamingQueryException {
    List<String> ips = addresses(batch);
    Path tmp = dir.resolve("staging-" + batch);
    if (format.equals("text")) {
      Files.write(tmp, String.join("\n", ips).getBytes(StandardCharsets.UTF_8));
      Files.move(tmp, in.resolve("batch-" + batch + ".txt"), StandardCopyOption.ATOMIC_MOVE);
    } else {
      List<Row> rows = new ArrayList<>();
      for (String ip : ips) {
        rows.add(org.apache.spark.sql.RowFactory.create(ip, batch));
      }
      spark
          .createDataFrame(
              rows, org.apache.spark.sql.types.StructType.fromDDL("value STRING, batch INT"))
          .coalesce(1)
          .write()
          .parquet(tmp.toString());
      Path part;
      try (java.util.stream.Stream<Path> s = Files.list(tmp)) {
        part = s.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().get();
      }
      Files.move(part, in.resolve("batch-" + batch + ".parquet"), StandardCopyOption.ATOMIC_MOVE);
    }
  }
}
