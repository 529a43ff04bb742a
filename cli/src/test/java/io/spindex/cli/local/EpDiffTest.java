/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.ProductIndexBuilder;
import io.spindex.ep.RefEp;
import io.spindex.ep.feed.LineCheck;
import io.spindex.gen.EpGenerator;
import io.spindex.index.ProductIndex;
import io.spindex.index.load.Loader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ep-diff against a reference that compares two generated days as plain maps: I for ids only today,
 * U for ids whose price_pc, shipping or any other field (class and update_time aside) differs, D
 * for ids only yesterday. Generated pairs hold every class; yesterday may hold defects.
 */
class EpDiffTest {
  static final String TIME = "2024-05-01 12:00:00";

  @TempDir Path dir;

  @ParameterizedTest(name = "seed {0}, {1} rows, defects {2}, {3} threads")
  @CsvSource({"1, 3000, 0, 1", "2, 3000, 0, 2", "3, 5000, 0.03, 2", "4, 200, 0.2, 1"})
  void matchesTheReference(long seed, int rows, double defects, int threads) throws Exception {
    Path day1 = dir.resolve("day1.tsv");
    Path day2 = dir.resolve("day2.tsv");
    EpGenerator g = new EpGenerator(rows, seed, defects);
    EpGenerator.Stats s2;
    try (OutputStream o = Files.newOutputStream(day1)) {
      g.writeTo(o);
    }
    try (OutputStream o = Files.newOutputStream(day2)) {
      s2 = g.writeNextDay(o, 0.05, 0.1, 0.05);
    }
    Path index = dir.resolve("day1.spx");
    new ProductIndexBuilder().threads(threads).build(List.of(day1), index);
    ProductIndex p = Loader.NIO.load(index).asProducts();
    Path out = dir.resolve("summary.tsv");
    var r = LocalEpJobs.diff(day2, index, "nio", out, dir.resolve("rej.tsv"), TIME, 65536, threads);

    Map<String, RefEp.Product> before = RefEp.products(day1, List.of());
    Map<String, RefEp.Product> after = RefEp.products(day2, List.of());
    Map<String, String> expected = new TreeMap<>();
    for (RefEp.Product t : after.values()) {
      RefEp.Product y = before.get(t.id);
      if (y == null) {
        expected.put(t.id, "I");
      } else if (!withoutFeedFields(y.fields).equals(withoutFeedFields(t.fields))) {
        expected.put(t.id, "U");
      }
    }
    for (String id : before.keySet()) {
      if (!after.containsKey(id)) {
        expected.put(id, "D");
      }
    }
    Map<String, String> got = new TreeMap<>();
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    String[] header = lines.get(0).split("\t", -1);
    assertEquals("class", header[header.length - 2]);
    assertEquals("update_time", header[header.length - 1]);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split("\t", -1);
      assertEquals(header.length, f.length, line);
      assertEquals(TIME, f[f.length - 1]);
      got.put(f[0], f[f.length - 2]);
    }
    String where = "seed " + seed;
    assertEquals(expected, got, where);
    assertTrue(r.counts.reconciles(), where);
    assertEquals(count(expected, "I"), r.counts.inserted(), where);
    assertEquals(count(expected, "U"), r.counts.updated(), where);
    assertEquals(count(expected, "D"), r.counts.deleted(), where);
    assertTrue(r.counts.inserted() > 0 && r.counts.updated() > 0 && r.counts.deleted() > 0);
    if (defects == 0) {
      // With a clean first day the generator's own bookkeeping must agree too.
      assertEquals(s2.inserts, r.counts.inserted(), where);
      assertEquals(s2.updates, r.counts.updated(), where);
      assertEquals(s2.deletes, r.counts.deleted(), where);
    }
  }

  private static Map<String, String> withoutFeedFields(Map<String, String> f) {
    Map<String, String> m = new TreeMap<>(f);
    m.remove("class");
    m.remove("update_time");
    m.values().removeIf(String::isEmpty);
    return m;
  }

  private static long count(Map<String, String> m, String cls) {
    return Collections.frequency(new ArrayList<>(m.values()), cls);
  }

  /** A malformed row of a known id is not taken for a deletion; D rows carry the stored id. */
  @Test
  void malformedRowKeepsItsProductAndDRowsCarryTheId() throws Exception {
    Path day1 = dir.resolve("y.tsv");
    Files.write(
        day1,
        "id\tprice_pc\tshipping\ttitle\nK1\t100\t0\t가\nK2\t200\t0\t나\nK3\t300\t0\t다\n"
            .getBytes(StandardCharsets.UTF_8));
    Path index = dir.resolve("y.spx");
    new ProductIndexBuilder().build(List.of(day1), index);
    Path day2 = dir.resolve("t.tsv");
    Files.write(
        day2,
        // K1 unchanged but its columns reordered; K2 malformed (extra field); K3 gone; N1 new.
        "title\tid\tshipping\tprice_pc\n가\tK1\t0\t100\n나\tK2\t0\t200\textra\n라\tN1\t0\t5\n"
            .getBytes(StandardCharsets.UTF_8));
    Path out = dir.resolve("s.tsv");
    var r = LocalEpJobs.diff(day2, index, "nio", out, dir.resolve("r.tsv"), TIME, 1024, 1);
    assertEquals(
        "title\tid\tshipping\tprice_pc\tclass\tupdate_time\n"
            + "라\tN1\t0\t5\tI\t"
            + TIME
            + "\n"
            + "\tK3\t\t\tD\t"
            + TIME
            + "\n",
        Files.readString(out, StandardCharsets.UTF_8));
    assertEquals(1, r.counts.unchanged());
    assertEquals(1, r.counts.rejected());
    assertEquals(Map.of(LineCheck.FIELD_COUNT, 1L), r.counts.reasons());
    assertTrue(r.counts.reconciles());
  }
}
