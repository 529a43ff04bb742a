/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spindex.builder.IpSetBuilder;
import io.spindex.builder.TextLoader;
import io.spindex.index.load.IndexLoader;
import io.spindex.text.Ipv4Text;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Sets built from text and loaded by every loader answer like a TreeSet of the same addresses. */
class SetRoundTripTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0} addresses")
  @ValueSource(ints = {0, 1, 2, 1000, 300_000})
  void everyLoaderAgreesWithTreeSet(int count) throws IOException {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    TreeSet<Long> reference = new TreeSet<>();
    StringBuilder text = new StringBuilder("# generated\n");
    int[] edges = {0, -1, 1, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFF0000, 0x0000FFFF};
    for (int i = 0; i < count; i++) {
      // Clustered addresses give full /16 buckets as well as empty ones.
      int a =
          i < edges.length
              ? edges[i]
              : rnd.nextBoolean() ? rnd.nextInt() : 0x0A000000 | rnd.nextInt(1 << 18);
      reference.add(Integer.toUnsignedLong(a));
      text.append(Ipv4Text.format(a)).append(rnd.nextInt(10) == 0 ? " \r\n" : "\n");
      if (rnd.nextInt(20) == 0) {
        text.append(Ipv4Text.format(a)).append('\n'); // a duplicate
      }
    }
    Path src = dir.resolve("ips.txt");
    Files.write(src, text.toString().getBytes(StandardCharsets.UTF_8));
    for (boolean prefix : new boolean[] {true, false}) {
      Path idx = dir.resolve("ips-" + prefix + ".spx");
      new IpSetBuilder().prefixTable(prefix).allowEmpty(true).build(List.of(src), idx);
      List<IndexLoader> loaders = Loaders.all();
      loaders.add(TextLoader.ips());
      for (IndexLoader l : loaders) {
        IpSet set = l.load(l.loaderName().equals("text") ? src : idx).asSet();
        String ctx = "seed " + seed + ", loader " + l.loaderName() + ", prefix " + prefix;
        assertEquals(reference.size(), set.size(), ctx);
        int row = 0;
        for (long a : reference) {
          assertEquals(a, Integer.toUnsignedLong(set.address(row++)), ctx);
        }
        int[] probes = probes(rnd, reference);
        boolean[] got = new boolean[probes.length];
        int hits = set.containsAll(probes, probes.length, got);
        int expectedHits = 0;
        for (int i = 0; i < probes.length; i++) {
          boolean expected = reference.contains(Integer.toUnsignedLong(probes[i]));
          expectedHits += expected ? 1 : 0;
          assertEquals(expected, got[i], ctx + ", probe " + Ipv4Text.format(probes[i]));
          assertEquals(expected, set.contains(probes[i]), ctx);
        }
        assertEquals(expectedHits, hits, ctx);
      }
    }
  }

  /** Members, their neighbours, the ends of the address space and random addresses. */
  static int[] probes(SplittableRandom rnd, TreeSet<Long> reference) {
    List<Integer> p = new ArrayList<>();
    for (long a : reference) {
      p.add((int) a);
      p.add((int) a + 1);
      p.add((int) a - 1);
    }
    for (int i = 0; i < 20_000; i++) {
      p.add(rnd.nextInt());
    }
    p.add(0);
    p.add(-1);
    return p.stream().mapToInt(Integer::intValue).toArray();
  }

  @org.junit.jupiter.api.Test
  void loadersProduceIdenticalKeys() throws IOException {
    Path src = dir.resolve("ips.txt");
    Files.write(src, "10.0.0.1\n10.0.0.3\n10.0.0.2\n".getBytes(StandardCharsets.UTF_8));
    Path idx = dir.resolve("ips.spx");
    new IpSetBuilder().build(List.of(src), idx);
    int[] expected = {0x0A000001, 0x0A000002, 0x0A000003};
    for (IndexLoader l : Loaders.all()) {
      IpSet s = l.load(idx).asSet();
      int[] got = new int[s.size()];
      for (int i = 0; i < got.length; i++) {
        got[i] = s.address(i);
      }
      assertArrayEquals(expected, got, l.loaderName());
    }
  }
}
