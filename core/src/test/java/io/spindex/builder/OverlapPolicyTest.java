/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import io.spindex.text.InputException;
import io.spindex.text.Ipv4Text;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Overlapping ranges flattened by each policy agree, address by address, with a brute-force
 * reference that scans every source range for every probe.
 */
class OverlapPolicyTest {
  @TempDir Path dir;

  /** One source range in input order. */
  private static final class Src {
    final long start;
    final long end;
    final String label;

    Src(long start, long end, String label) {
      this.start = start;
      this.end = end;
      this.label = label;
    }
  }

  /** The label the policy gives {@code a}: obviously right, and slow. */
  private static String reference(List<Src> src, long a, OverlapPolicy policy) {
    Src best = null;
    for (Src s : src) {
      if (s.start <= a && a <= s.end) {
        boolean better;
        if (best == null) {
          better = true;
        } else if (policy == OverlapPolicy.FIRST) {
          better = false;
        } else if (policy == OverlapPolicy.LAST) {
          better = true;
        } else {
          better = s.end - s.start < best.end - best.start;
        }
        if (better) {
          best = s;
        }
      }
    }
    return best == null ? null : best.label;
  }

  @ParameterizedTest
  @EnumSource(
      value = OverlapPolicy.class,
      names = {"NARROWEST", "FIRST", "LAST"})
  void flatteningAgreesWithBruteForce(OverlapPolicy policy) throws IOException {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int round = 0; round < 20; round++) {
      // A small space (plus the ends of the real one) so that overlaps are dense.
      List<Src> src = new ArrayList<>();
      List<String> lines = new ArrayList<>();
      int n = rnd.nextInt(1, 60);
      for (int i = 0; i < n; i++) {
        long base = rnd.nextInt(4) == 0 ? (rnd.nextBoolean() ? 0 : 0xFFFF_FF00L) : 0x0A00_0000L;
        long s = base + rnd.nextInt(256);
        long e = Math.min(0xFFFF_FFFFL, s + (rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(200)));
        String label = "L" + i;
        src.add(new Src(s, e, label));
        lines.add(Ipv4Text.format((int) s) + "," + Ipv4Text.format((int) e) + "," + label);
      }
      Path in = dir.resolve("r" + round + ".csv");
      Files.write(in, lines, StandardCharsets.UTF_8);
      Path idx = dir.resolve("r" + round + ".spx");
      BuildReport report = new IpRangeBuilder().onOverlap(policy).build(List.of(in), idx);
      IpRanges r = Loader.NIO.load(idx).asRanges();
      TreeSet<Long> probes = new TreeSet<>();
      for (Src s : src) {
        for (long d = -1; d <= 1; d++) {
          probes.add(Math.max(0, Math.min(0xFFFF_FFFFL, s.start + d)));
          probes.add(Math.max(0, Math.min(0xFFFF_FFFFL, s.end + d)));
        }
      }
      for (long a = 0x0A00_0000L; a < 0x0A00_0000L + 512; a++) {
        probes.add(a);
      }
      String ctx = "seed " + seed + ", round " + round + ", " + policy;
      for (long a : probes) {
        assertEquals(reference(src, a, policy), r.label((int) a), ctx + ", " + a);
      }
      for (int i = 1; i < r.size(); i++) {
        assertTrue(
            Integer.toUnsignedLong(r.start(i)) > Integer.toUnsignedLong(r.end(i - 1)),
            ctx + ": sorted and disjoint");
        boolean adjacentSame =
            Integer.toUnsignedLong(r.start(i)) == Integer.toUnsignedLong(r.end(i - 1)) + 1
                && r.labelIdOfRow(i) == r.labelIdOfRow(i - 1);
        // Pieces of the same source range are merged, so two adjacent pieces with one label
        // must come from two source ranges that carry equal labels; ours are all distinct.
        assertTrue(!adjacentSame, ctx + ": adjacent pieces of one range are merged");
      }
      assertEquals(n, report.count("accepted"), ctx);
    }
  }

  @Test
  void failPolicyNamesBothLines() throws IOException {
    Path in = dir.resolve("o.txt");
    Files.write(
        in,
        List.of("1.0.0.0|1.0.0.255|a", "2.0.0.0|2.0.0.9|b", "1.0.0.128|1.0.1.0|c"),
        StandardCharsets.UTF_8);
    InputException e =
        assertThrows(
            InputException.class,
            () -> new IpRangeBuilder().build(List.of(in), dir.resolve("o.spx")));
    assertEquals(
        "overlapping ranges: "
            + in
            + ":1 (1.0.0.0-1.0.0.255) and "
            + in
            + ":3 (1.0.0.128-1.0.1.0); choose --on-overlap narrowest, first or last to flatten"
            + " them",
        e.getMessage());
    assertTrue(!Files.exists(dir.resolve("o.spx")), "no index is written");
  }
}
