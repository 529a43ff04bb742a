/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import io.spindex.spark.SparkTests;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream says which version answered each micro-batch: {@code spindex_version(index)} moves with
 * the other functions from batch to batch (it is never folded into a constant), and {@code
 * Dataset.observe} puts it into each batch's {@link StreamingQueryProgress#observedMetrics()}. Each
 * version is published by rename between batches, with its own source time and label, so the
 * expected version of every batch is known from the files themselves.
 */
class StreamProvenanceTest {
  @TempDir Path dir;

  private final SparkSession spark = SparkTests.session();
  private StreamingQuery query;

  private static final Instant SOURCE = Instant.parse("2026-11-01T00:00:00Z");

  @AfterEach
  void stop() throws TimeoutException {
    if (query != null) {
      query.stop();
    }
    spark.conf().unset("spark.spindex.index.geo");
    IndexHolder.clear();
  }

  /** Version {@code v}: labels {@code v<v>}, source built {@code v} hours after SOURCE. */
  private String publish(Path index, int v) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 256; i++) {
      sb.append("10.0.").append(i).append(".0|10.0.").append(i).append(".255|v").append(v);
      sb.append('\n');
    }
    Path text = dir.resolve("v" + v + ".txt");
    Files.write(text, sb.toString().getBytes(StandardCharsets.UTF_8));
    Path built = dir.resolve("built-" + v + ".spx");
    new IpRangeBuilder().sourceMillis(sourceOf(v).toEpochMilli()).build(List.of(text), built);
    String crc = String.format(Locale.ROOT, "%08x", Loader.readHeader(built).headerCrc32c());
    Files.move(built, index, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return crc;
  }

  private static Instant sourceOf(int v) {
    return SOURCE.plusSeconds(3600L * v);
  }

  @Test
  void eachBatchsProgressShowsTheVersionThatAnsweredIt() throws Exception {
    Path index = dir.resolve("geo.spx");
    Map<Integer, String> crcOf = new TreeMap<>();
    crcOf.put(1, publish(index, 1));
    Path in = Files.createDirectories(dir.resolve("in"));
    spark.conf().set("spark.spindex.index.geo", index.toString());
    Dataset<Row> stream = spark.readStream().text(in.toString());
    Dataset<Row> out =
        stream
            .selectExpr(
                "value",
                "try_spindex_label(value, 'geo') AS label",
                "spindex_version('geo').header_crc AS crc")
            .observe(
                "spindex",
                max(expr("spindex_version('geo')")).alias("geo"),
                count(lit(1)).alias("rows"));
    query = out.writeStream().format("memory").queryName("provenance").start();
    int batches = 4;
    for (int b = 0; b < batches; b++) {
      Path tmp = dir.resolve("staging-" + b);
      List<String> ips = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        ips.add("10.0." + (b * 50 + i) % 256 + "." + i);
      }
      Files.write(tmp, String.join("\n", ips).getBytes(StandardCharsets.UTF_8));
      Files.move(tmp, in.resolve("batch-" + b + ".txt"), StandardCopyOption.ATOMIC_MOVE);
      query.processAllAvailable();
      crcOf.put(b + 2, publish(index, b + 2)); // the next batch must answer from this one
    }
    assertTrue(query.exception().isEmpty(), () -> query.exception().get().getMessage());

    // The progress of batch b: version b + 1, the one published before it was planned.
    Map<Long, Row> observed = new TreeMap<>();
    for (StreamingQueryProgress p : query.recentProgress()) {
      Row m = p.observedMetrics().get("spindex");
      if (m != null && p.numInputRows() > 0) {
        observed.put(p.batchId(), m);
      }
    }
    assertEquals(batches, observed.size(), observed::toString);
    for (Map.Entry<Long, Row> e : observed.entrySet()) {
      int version = (int) (e.getKey() + 1);
      Row geo = e.getValue().getStruct(e.getValue().fieldIndex("geo"));
      assertEquals(crcOf.get(version), geo.getAs("header_crc"), "batch " + e.getKey());
      assertEquals(
          sourceOf(version), ((Timestamp) geo.getAs("source_time")).toInstant(), "source time");
      assertEquals(50L, e.getValue().<Long>getAs("rows"));
    }
    // And every row of a batch carries the version whose label it got.
    Map<String, Set<String>> crcsByLabel = new TreeMap<>();
    for (Row r : spark.sql("SELECT label, crc FROM provenance").collectAsList()) {
      crcsByLabel.computeIfAbsent(r.getString(0), k -> new TreeSet<>()).add(r.getString(1));
    }
    assertEquals(batches, crcsByLabel.size(), crcsByLabel::toString);
    for (Map.Entry<String, Set<String>> e : crcsByLabel.entrySet()) {
      int version = Integer.parseInt(e.getKey().substring(1));
      assertEquals(Set.of(crcOf.get(version)), e.getValue(), e.getKey());
    }
  }
}
