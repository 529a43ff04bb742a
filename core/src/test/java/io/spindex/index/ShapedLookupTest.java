/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.collect.Range;
import com.google.common.collect.RangeMap;
import com.google.common.collect.TreeRangeMap;
import com.google.common.net.InetAddresses;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.gen.Queries;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Single and batch lookups on generated ranges of each shape, through every loader, against a Guava
 * {@code TreeRangeMap} built from the generated text: the real shape puts thousands of rows under
 * one /16 in its dense blocks and none in most, which is where the batch lookup's paths part (an
 * address of a block of at most two candidate rows is answered at once, the others in lock step).
 * Probes: addresses uniform over the space, drawn by range (with the first and last address of
 * their /24), every range's ends and their neighbours, and both ends of the space; two ranges
 * touching 0 and 2^32 - 1 are added. Each shape is built three ways: with the builder's /24
 * sub-tables as they come (few or none at this size), with one for every non-empty /16 block, and
 * with none; {@code verify} accepts each file.
 */
class ShapedLookupTest {
  @TempDir Path dir;

  /** Sub-tables as the builder makes them, for every non-empty block, or none. */
  enum Tables {
    DEFAULT,
    EVERY_BLOCK,
    NONE
  }

  static Stream<Arguments> cases() {
    return Stream.of(RangeGenerator.Shape.values())
        .flatMap(s -> Stream.of(Tables.values()).map(t -> Arguments.of(s, t)));
  }

  @ParameterizedTest(name = "{0}, sub-tables {1}")
  @MethodSource("cases")
  void singleAndBatchAgreeWithRangeMap(RangeGenerator.Shape shape, Tables tables)
      throws IOException {
    Path text = dir.resolve("ranges.txt");
    try (OutputStream o = Files.newOutputStream(text)) {
      new RangeGenerator(30_000, 7, RangeGenerator.Format.RANGE).shape(shape).writeTo(o);
    }
    RangeMap<Long, String> reference = TreeRangeMap.create();
    List<String> lines = new ArrayList<>(Files.readAllLines(text, StandardCharsets.UTF_8));
    for (String edge : new String[] {"0.0.0.0", "255.255.255.255"}) {
      if (reference.get(address(edge)) == null && !covered(lines, address(edge))) {
        lines.add(edge + "|" + edge + "|edge " + edge);
      }
    }
    Files.write(text, lines, StandardCharsets.UTF_8);
    for (String line : lines) {
      String[] f = line.split("\\|", 3);
      reference.put(Range.closed(address(f[0]), address(f[1])), f[2]);
    }
    Path idx = dir.resolve("ranges.spx");
    IpRangeBuilder builder = new IpRangeBuilder().delimiter('|');
    if (tables == Tables.EVERY_BLOCK) {
      builder.subTables(0, 1000);
    } else if (tables == Tables.NONE) {
      builder.subTables(0, 0);
    }
    builder.build(List.of(text), idx);
    SectionEntry sub = Loader.readHeader(idx).find(Section.PREFIX24);
    if (tables != Tables.DEFAULT) {
      assertEquals(tables == Tables.EVERY_BLOCK, sub != null, "prefix24 section");
    }
    IndexVerifier.verify(idx);
    for (IndexLoader l : Loaders.all()) {
      IpRanges r = l.load(idx).asRanges();
      String ctx = shape + ", sub-tables " + tables + ", loader " + l.loaderName();
      assertEquals(reference.asMapOfRanges().size(), r.rangeCount(), ctx);
      List<Integer> probes = new ArrayList<>();
      for (Map.Entry<Range<Long>, String> e : reference.asMapOfRanges().entrySet()) {
        long s = e.getKey().lowerEndpoint();
        long t = e.getKey().upperEndpoint();
        probes.add((int) s);
        probes.add((int) s - 1);
        probes.add((int) t);
        probes.add((int) t + 1);
      }
      for (int a : Queries.uniform(50_000, 11)) {
        probes.add(a);
      }
      for (int a : Queries.weighted(r, 50_000, 12)) {
        probes.add(a);
        probes.add(a & ~0xFF);
        probes.add(a | 0xFF);
      }
      probes.add(0);
      probes.add(-1);
      int[] in = probes.stream().mapToInt(Integer::intValue).toArray();
      int[] ids = new int[in.length];
      int hits = r.labelIds(in, in.length, ids);
      int expectedHits = 0;
      for (int i = 0; i < in.length; i++) {
        String expected = reference.get(Integer.toUnsignedLong(in[i]));
        expectedHits += expected == null ? 0 : 1;
        String where = ctx + ", address " + InetAddresses.fromInteger(in[i]).getHostAddress();
        assertEquals(expected, r.label(in[i]), where + " (single)");
        assertEquals(
            expected, ids[i] == IpRanges.NONE ? null : r.labelText(ids[i]), where + " (batch)");
      }
      assertEquals(expectedHits, hits, ctx);
    }
  }

  private static boolean covered(List<String> lines, long a) {
    for (String line : lines) {
      String[] f = line.split("\\|", 3);
      if (address(f[0]) <= a && a <= address(f[1])) {
        return true;
      }
    }
    return false;
  }

  private static long address(String quad) {
    return Integer.toUnsignedLong(InetAddresses.coerceToInteger(InetAddresses.forString(quad)));
  }
}
