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
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.TextLoader;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.LoadInternals;
import io.spindex.index.load.Loader;
import io.spindex.text.AddressText;
import io.spindex.text.Ipv4Text;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Non-overlapping ranges loaded by every loader answer like a Guava RangeMap. */
class RangeRoundTripTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0} ranges")
  @ValueSource(ints = {1, 2, 50, 20_000})
  void everyLoaderAgreesWithRangeMap(int count) throws IOException {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    RangeMap<Long, String> reference = TreeRangeMap.create();
    List<String> lines = new ArrayList<>();
    // Cut the address space at random points; keep most pieces, leave gaps, include both ends.
    long[] cuts = new long[count + 1];
    for (int i = 1; i < count; i++) {
      cuts[i] = rnd.nextLong(1, 1L << 32);
    }
    cuts[count] = 1L << 32;
    java.util.Arrays.sort(cuts);
    for (int i = 0; i < count; i++) {
      long start = cuts[i];
      long end = cuts[i + 1] - 1;
      if (end < start || (i > 0 && i < count - 1 && rnd.nextInt(4) == 0)) {
        continue;
      }
      if (rnd.nextInt(10) == 0) {
        end = start; // single-address range
      }
      String label = rnd.nextInt(3) == 0 ? "" : "서울|" + rnd.nextInt(count / 2 + 1);
      reference.put(Range.closed(start, end), label);
      lines.add(
          (rnd.nextBoolean() ? Ipv4Text.format((int) start) : Long.toString(start))
              + "|"
              + Ipv4Text.format((int) end)
              + "|"
              + label);
    }
    Collections.shuffle(lines, new java.util.Random(seed));
    Path src = dir.resolve("ranges.txt");
    Files.write(src, lines, StandardCharsets.UTF_8);
    Path idx = dir.resolve("r.spx");
    new IpRangeBuilder().build(List.of(src), idx);
    List<IndexLoader> loaders = Loaders.all();
    loaders.add(TextLoader.ranges(new IpRangeBuilder()));
    for (IndexLoader l : loaders) {
      IpRanges r = l.load(l.loaderName().equals("text") ? src : idx).asRanges();
      String ctx = "seed " + seed + ", loader " + l.loaderName();
      assertEquals(reference.asMapOfRanges().size(), r.rangeCount(), ctx);
      List<Integer> probes = new ArrayList<>();
      for (Map.Entry<Range<Long>, String> e : reference.asMapOfRanges().entrySet()) {
        long s = e.getKey().lowerEndpoint();
        long t = e.getKey().upperEndpoint();
        Collections.addAll(probes, (int) s, (int) s - 1, (int) t, (int) t + 1, (int) ((s + t) / 2));
      }
      for (int i = 0; i < 20_000; i++) {
        probes.add(rnd.nextInt());
      }
      Collections.addAll(probes, 0, -1);
      int[] in = probes.stream().mapToInt(Integer::intValue).toArray();
      int[] ids = new int[in.length];
      int hits = r.labelIds(in, in.length, ids);
      int expectedHits = 0;
      for (int i = 0; i < in.length; i++) {
        String expected = reference.get(Integer.toUnsignedLong(in[i]));
        expectedHits += expected == null ? 0 : 1;
        String got = ids[i] == IpRanges.NONE ? null : r.labelText(ids[i]);
        assertEquals(expected, got, ctx + ", probe " + Ipv4Text.format(in[i]));
        assertEquals(expected, r.label(in[i]), ctx);
      }
      assertEquals(expectedHits, hits, ctx);
    }
  }

  /**
   * A mapped load maps the file once, not once per section: mappings are freed only by the garbage
   * collector and a process may hold about 65,000 of them (vm.max_map_count), which loading an
   * index over and over (a benchmark, a long-lived executor) reached when each of its sections was
   * a mapping of its own. Counted in /proc/self/maps (Linux).
   */
  @org.junit.jupiter.api.Test
  void aMappedLoadIsOneMapping() throws IOException {
    Path idx = twoRanges("one-mapping");
    String name = idx.toAbsolutePath().toString();
    List<SpindexIndex> held = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      held.add(Loader.MAPPED.load(idx));
      held.add(Loader.mappedUnchecked().load(idx));
    }
    List<String> lines = Files.readAllLines(MAPS);
    // The loads map the file's private snapshot (one version: one file), never the file.
    String snapshot = LoadInternals.snapshotPrefix(idx);
    long mapped = lines.stream().filter(l -> l.contains(snapshot)).count();
    assertEquals(held.size(), mapped, "mappings of the snapshot for " + held.size() + " loads");
    assertEquals(0, lines.stream().filter(l -> l.endsWith(name)).count(), "mappings of the file");
    assertEquals(
        "b",
        held.get(held.size() - 1)
            .asRanges()
            .label((int) AddressText.parse("2.0.0.5", AddressText.PLAIN, new long[2])));
  }

  private static final Path MAPS = Path.of("/proc/self/maps");

  /** NAME.spx of two ranges (2.0.0.5 is in "b"), for the tests that count mappings in MAPS. */
  private Path twoRanges(String name) throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(MAPS), "no /proc/self/maps");
    Path src = dir.resolve(name + ".txt");
    Files.write(src, List.of("1.0.0.0|1.0.0.255|a", "2.0.0.0|2.0.0.9|b"), StandardCharsets.UTF_8);
    Path idx = dir.resolve(name + ".spx");
    new IpRangeBuilder().build(List.of(src), idx);
    return idx;
  }

  /** A copy an engine made for the application is mapped as it is: no snapshot, no copy. */
  @org.junit.jupiter.api.Test
  void anEnginesPrivateCopyIsMappedWithoutASnapshot() throws IOException {
    Path idx = twoRanges("shipped-copy");
    Loader.privateCopy(idx);
    SpindexIndex held = Loader.MAPPED.load(idx);
    List<String> lines = Files.readAllLines(MAPS);
    String name = idx.toAbsolutePath().toString();
    assertEquals(1, lines.stream().filter(l -> l.endsWith(name)).count(), "mappings of the file");
    String snapshot = LoadInternals.snapshotPrefix(idx);
    assertEquals(0, lines.stream().filter(l -> l.contains(snapshot)).count(), "snapshots");
    assertEquals(
        "b",
        held.asRanges().label((int) AddressText.parse("2.0.0.5", AddressText.PLAIN, new long[2])));
  }
}
