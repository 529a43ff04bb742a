/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.BuildReport;
import io.spindex.builder.ProductIndexBuilder;
import io.spindex.ep.RefEp;
import io.spindex.gen.EpGenerator;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import io.spindex.text.InputException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A product index built from a generated feed answers like a plain map built from the same text by
 * {@link RefEp} (String splitting, Guava's Murmur3), over every loader and the text loader.
 */
class ProductRoundTripTest {
  @TempDir static Path dir;

  static Path feed;
  static Path index;

  static synchronized void build() throws Exception {
    if (index != null) {
      return;
    }
    feed = dir.resolve("feed.tsv");
    try (OutputStream o = Files.newOutputStream(feed)) {
      new EpGenerator(5000, 77, 0.02).writeTo(o);
    }
    index = dir.resolve("products.spx");
    BuildReport r =
        new ProductIndexBuilder()
            .threads(2)
            .extraIntFields(List.of("review_count"))
            .prefixTableMinRows(0)
            .createdMillis(0)
            .build(List.of(feed), index);
    assertEquals(r.count("lines"), r.count("skipped") + r.count("accepted") + r.count("rejected"));
    assertEquals(r.count("accepted"), r.count("products"));
  }

  static List<IndexLoader> loaders() throws Exception {
    build();
    List<IndexLoader> l = new ArrayList<>(Loaders.all());
    return l;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("loaders")
  void answersLikeTheReference(IndexLoader loader) throws Exception {
    ProductIndex p = loader.load(index).asProducts();
    check(p);
  }

  @Test
  void inMemoryBuildIsTheSame() throws Exception {
    build();
    check(
        new ProductIndexBuilder()
            .extraIntFields(List.of("review_count"))
            .buildInMemory(List.of(feed)));
  }

  private static void check(ProductIndex p) throws Exception {
    Map<String, RefEp.Product> ref = RefEp.products(feed, List.of("review_count"));
    assertEquals(ref.size(), p.size());
    assertEquals(List.of("price_pc", "shipping", "content_hash", "review_count"), p.columnNames());
    for (RefEp.Product x : ref.values()) {
      byte[] id = x.id.getBytes(StandardCharsets.UTF_8);
      int row = p.rowOfId(id, 0, id.length);
      assertTrue(row >= 0, x.id);
      assertEquals(x.id, p.id(row));
      assertEquals(x.pricePc, p.pricePc(row), x.id);
      assertEquals(x.shipping, p.shipping(row), x.id);
      assertEquals(x.contentHash, p.contentHash(row), x.id);
      assertEquals(x.extra[0], p.value(row, 3), x.id);
    }
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < 1000; i++) {
      byte[] id = ("Q" + r.nextInt()).getBytes(StandardCharsets.UTF_8);
      assertEquals(ProductIndex.NONE, p.rowOfId(id, 0, id.length));
    }
    for (int i = 1; i < p.size(); i++) {
      assertTrue(Long.compareUnsigned(p.idHashOf(i - 1), p.idHashOf(i)) < 0);
    }
  }

  @Test
  void verifiesClean() throws Exception {
    build();
    assertEquals(IndexKind.PRODUCTS, IndexVerifier.verify(index).kind());
    assertTrue(Loader.readHeader(index).find(Section.PREFIX16) != null, "prefix table written");
  }

  @Test
  void repeatedIdKeepsTheFirstRow() throws Exception {
    Path f = dir.resolve("dup.tsv");
    Files.write(
        f,
        "id\tprice_pc\tshipping\nA\t100\t0\nB\t200\t0\nA\t300\t0\n"
            .getBytes(StandardCharsets.UTF_8));
    Path out = dir.resolve("dup.spx");
    BuildReport r = new ProductIndexBuilder().build(List.of(f), out);
    assertEquals(1, r.count("duplicates"));
    assertEquals(Map.of("duplicate-id", 1L), r.rejectsByReason());
    assertEquals(List.of(f + ":4: duplicate-id: 'A'"), r.rejectSamples());
    ProductIndex p = Loader.NIO.load(out).asProducts();
    assertEquals(100, p.pricePc(p.rowOfId(new byte[] {'A'}, 0, 1)));
  }

  @Test
  void missingExtraFieldIsAnError() throws Exception {
    Path f = dir.resolve("small.tsv");
    Files.write(f, "id\tprice_pc\nA\t1\n".getBytes(StandardCharsets.UTF_8));
    InputException e =
        assertThrows(
            InputException.class,
            () ->
                new ProductIndexBuilder()
                    .extraIntFields(List.of("point"))
                    .build(List.of(f), dir.resolve("x.spx")));
    assertEquals(f + ": the header has no field 'point' (fields: id\\tprice_pc)", e.getMessage());
  }
}
