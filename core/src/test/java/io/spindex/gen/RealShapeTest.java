/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code gen ranges --shape real}: deterministic, well-formed, outside the reserved space, with the
 * statistics {@link RangeGenerator.Shape#REAL} documents, and the same ranges in every format.
 */
class RealShapeTest {
  /** The documented statistics are measured at this count. */
  private static final int COUNT = 200_000;

  private static Ranges shape;

  @BeforeAll
  static void generate() throws IOException {
    shape = Ranges.parse(text(COUNT, 42, RangeGenerator.Format.RANGE, 4));
  }

  static String text(int count, long seed, RangeGenerator.Format format, int family)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new RangeGenerator(count, seed, format)
        .family(family)
        .shape(RangeGenerator.Shape.REAL)
        .writeTo(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Ranges parsed from {@code start|end|label} lines, without the code under test. */
  static final class Ranges {
    final long[] starts;
    final long[] ends;
    final String[] labels;

    Ranges(int n) {
      starts = new long[n];
      ends = new long[n];
      labels = new String[n];
    }

    static Ranges parse(String text) {
      String[] lines = text.split("\n");
      Ranges r = new Ranges(lines.length);
      for (int i = 0; i < lines.length; i++) {
        String[] f = lines[i].split("\\|", 3);
        r.starts[i] = quad(f[0]);
        r.ends[i] = quad(f[1]);
        r.labels[i] = f[2];
      }
      return r;
    }

    int size() {
      return starts.length;
    }

    long size(int i) {
      return ends[i] - starts[i] + 1;
    }

    /** The label at every address, by the last range starting at or before it. */
    TreeMap<Long, Integer> byStart() {
      TreeMap<Long, Integer> m = new TreeMap<>();
      for (int i = 0; i < size(); i++) {
        m.put(starts[i], i);
      }
      return m;
    }
  }

  static long quad(String s) {
    String[] p = s.split("\\.");
    assertEquals(4, p.length, s);
    long a = 0;
    for (String octet : p) {
      int v = Integer.parseInt(octet);
      assertTrue(v >= 0 && v <= 255 && String.valueOf(v).equals(octet), s);
      a = a << 8 | v;
    }
    return a;
  }

  /** The special-purpose blocks of RFC 6890 that the databases leave out, as address/len. */
  private static final String[] RESERVED = {
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.88.99.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "224.0.0.0/3"
  };

  @ParameterizedTest
  @EnumSource(RangeGenerator.Format.class)
  void theSameSeedGivesTheSameBytes(RangeGenerator.Format format) throws IOException {
    String a = text(20_000, 7, format, 4);
    assertEquals(a, text(20_000, 7, format, 4));
    assertNotEquals(a, text(20_000, 8, format, 4));
  }

  /** Same bytes on every machine and JVM: a change to the shape changes these on purpose. */
  @Test
  void theBytesArePinned() throws Exception {
    String[][] pinned = {
      {"RANGE", "75451aa191496b165c68eec4c12a6465350665c716339869e3aeb006bd1dd827"},
      {"CSV", "8853f871ecb67ee57a6cde2fab2badbb0709e57f7b03c9fd7bb23f9c937fe859"},
      {"CIDR", "238af43aba3a3491692f0781e018cb6a372f007c1899816d94f8d86e7d00d405"},
    };
    for (String[] p : pinned) {
      assertEquals(p[1], sha256(text(2_000, 42, RangeGenerator.Format.valueOf(p[0]), 4)), p[0]);
    }
  }

  /** The uniform shape (the default) is the generator's output from before there were shapes. */
  @Test
  void theUniformShapeIsUnchanged() throws Exception {
    String[][] pinned = {
      {"RANGE", "357f9082ea5da3102585b4395231969e41a5f35da54c04bbe876403428023f92"},
      {"CSV", "12bb9be38037fdb4db7c3c1e4ec0cb29529615f66928a35ca2eaf35040d4aebf"},
      {"CIDR", "202781ba7c045eefc9f11644150a9f50c02b32224a69153901fdb2f0c935a8d0"},
    };
    for (String[] p : pinned) {
      RangeGenerator.Format f = RangeGenerator.Format.valueOf(p[0]);
      ByteArrayOutputStream plain = new ByteArrayOutputStream();
      new RangeGenerator(1000, 42, f).family(46).writeTo(plain);
      ByteArrayOutputStream uniform = new ByteArrayOutputStream();
      new RangeGenerator(1000, 42, f)
          .family(46)
          .shape(RangeGenerator.Shape.UNIFORM)
          .writeTo(uniform);
      assertEquals(p[1], sha256(plain.toString(StandardCharsets.UTF_8)), p[0]);
      assertEquals(p[1], sha256(uniform.toString(StandardCharsets.UTF_8)), p[0]);
    }
  }

  @Test
  void rangesAreSortedDisjointAndOutsideTheReservedSpace() {
    assertEquals(COUNT, shape.size());
    long[][] reserved = new long[RESERVED.length][];
    for (int i = 0; i < RESERVED.length; i++) {
      String[] p = RESERVED[i].split("/");
      long s = quad(p[0]);
      reserved[i] = new long[] {s, s + (1L << (32 - Integer.parseInt(p[1]))) - 1};
    }
    long before = -1;
    for (int i = 0; i < shape.size(); i++) {
      long s = shape.starts[i];
      long e = shape.ends[i];
      assertTrue(s > before && e >= s && e < 1L << 32, "row " + i);
      for (long[] r : reserved) {
        assertTrue(e < r[0] || s > r[1], "row " + i + " in reserved space");
      }
      before = e;
    }
  }

  @Test
  void sizesAreAsDocumented() {
    int n = shape.size();
    int upTo24 = 0;
    int single = 0;
    int from29To24 = 0;
    int from23To16 = 0;
    int larger = 0;
    for (int i = 0; i < n; i++) {
      long size = shape.size(i);
      upTo24 += size <= 256 ? 1 : 0;
      single += size == 1 ? 1 : 0;
      from29To24 += size >= 8 && size <= 256 ? 1 : 0;
      from23To16 += size > 256 && size <= 65536 ? 1 : 0;
      larger += size > 65536 ? 1 : 0;
    }
    assertBetween("rows at most a /24", upTo24, n, 0.80, 0.84);
    assertBetween("single addresses", single, n, 0.03, 0.05);
    assertBetween("rows of /29 to /24 size", from29To24, n, 0.75, 0.80);
    assertBetween("rows of /23 to /16 size", from23To16, n, 0.14, 0.19);
    assertBetween("rows larger than /16", larger, n, 0.005, 0.02);
  }

  @Test
  void densityVariesStronglyBySlash8() {
    int n = shape.size();
    int[] per8 = new int[256];
    for (long s : shape.starts) {
      per8[(int) (s >>> 24)]++;
    }
    for (int b : new int[] {0, 10, 127}) {
      assertEquals(0, per8[b], b + "/8");
    }
    for (int b = 224; b < 256; b++) {
      assertEquals(0, per8[b], b + "/8");
    }
    int[] sorted = per8.clone();
    Arrays.sort(sorted);
    int top10 = 0;
    int top50 = 0;
    for (int i = 0; i < 50; i++) {
      top10 += i < 10 ? sorted[255 - i] : 0;
      top50 += sorted[255 - i];
    }
    int empty = 0;
    int sparse = 0;
    for (int c : per8) {
      empty += c == 0 ? 1 : 0;
      sparse += c > 0 && c < n / 1000 ? 1 : 0;
    }
    assertBetween("the ten densest /8s' rows", top10, n, 0.48, 0.52);
    assertBetween("the fifty densest /8s' rows", top50, n, 0.79, 0.84);
    assertEquals(35, empty, "empty /8s");
    assertTrue(sparse >= 80, sparse + " /8s with under 0.1% of the rows");
    // The densest are the documented very dense /8s.
    for (int b : new int[] {45, 103, 185, 192, 193, 194, 195, 212, 213, 217}) {
      assertTrue(per8[b] >= sorted[246], b + "/8: " + per8[b]);
    }
  }

  @Test
  void labelsRepeatWithALongTail() {
    int n = shape.size();
    Map<String, Integer> uses = new HashMap<>();
    for (String l : shape.labels) {
      assertEquals(4, l.split("\\|", -1).length, l);
      for (String field : l.split("\\|", -1)) {
        assertTrue(!field.isEmpty() && field.strip().equals(field), l);
      }
      assertTrue(l.indexOf(',') < 0 && l.indexOf('"') < 0 && l.indexOf('\t') < 0, l);
      uses.merge(l, 1, Integer::sum);
    }
    List<Integer> counts = new ArrayList<>(uses.values());
    counts.sort((a, b) -> b - a);
    int top10 = 0;
    for (int i = 0; i < 10; i++) {
      top10 += counts.get(i);
    }
    long fewUses = counts.stream().filter(c -> c <= 2).count();
    assertBetween("the most common label's rows", counts.get(0), n, 0.05, 0.09);
    assertBetween("the ten most common labels' rows", top10, n, 0.33, 0.43);
    assertTrue(uses.size() >= 4000 && uses.size() <= 6000, uses.size() + " distinct labels");
    assertBetween("labels on one or two rows", (int) fewUses, uses.size(), 0.40, 0.60);
  }

  /**
   * The ranges of every format, built into an index, answer like a TreeMap of the range format's
   * lines; the cidr format's lines are aligned blocks.
   */
  @Test
  void everyFormatBuildsTheSameIndex(@TempDir Path dir) throws IOException {
    int count = 50_000;
    Ranges ref = Ranges.parse(text(count, 3, RangeGenerator.Format.RANGE, 4));
    TreeMap<Long, Integer> byStart = ref.byStart();
    long[] probes = probes(ref);
    for (RangeGenerator.Format f : RangeGenerator.Format.values()) {
      String text = text(count, 3, f, 4);
      if (f == RangeGenerator.Format.CIDR) {
        for (String line : text.split("\n")) {
          String[] block = line.substring(0, line.indexOf(',')).split("/");
          long size = 1L << (32 - Integer.parseInt(block[1]));
          assertEquals(0, quad(block[0]) % size, line);
        }
      }
      Path src = dir.resolve(f + ".txt");
      Files.writeString(src, text, StandardCharsets.UTF_8);
      Path idx = dir.resolve(f + ".spx");
      new IpRangeBuilder().build(List.of(src), idx);
      IpRanges r = Loader.NIO.load(idx).asRanges();
      if (f == RangeGenerator.Format.CIDR) {
        assertTrue(r.rangeCount() > count, r.rangeCount() + " blocks");
      } else {
        assertEquals(count, r.rangeCount());
      }
      for (long p : probes) {
        Map.Entry<Long, Integer> e = byStart.floorEntry(p);
        String expected =
            e != null && ref.ends[e.getValue()] >= p ? ref.labels[e.getValue()] : null;
        assertEquals(expected, r.label((int) p), f + ", " + p);
      }
    }
  }

  /** Both ends, the middle and the neighbours of every range, and random addresses. */
  private static long[] probes(Ranges ref) {
    Set<Long> p = new HashSet<>();
    for (int i = 0; i < ref.size(); i++) {
      long s = ref.starts[i];
      long e = ref.ends[i];
      p.addAll(List.of(s, e, (s + e) / 2, s - 1, e + 1));
    }
    SplittableRandom rnd = new SplittableRandom(1);
    for (int i = 0; i < 50_000; i++) {
      p.add(rnd.nextLong(1L << 32));
    }
    p.removeIf(a -> a < 0 || a >= 1L << 32);
    return p.stream().mapToLong(Long::longValue).sorted().toArray();
  }

  @Test
  void bothFamiliesHaveTheSameIpv4LinesAndFamily6IsRefused() throws IOException {
    String v4 = text(3_000, 5, RangeGenerator.Format.CSV, 4);
    String both = text(3_000, 5, RangeGenerator.Format.CSV, 46);
    assertTrue(both.startsWith(v4) && both.length() > v4.length());
    assertTrue(both.substring(v4.length()).lines().allMatch(l -> l.contains(":")));
    assertThrows(
        IllegalArgumentException.class, () -> text(3_000, 5, RangeGenerator.Format.CSV, 6));
  }

  @Test
  void aCountBeyondTheShapesRoomIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> text(10_000_000, 5, RangeGenerator.Format.RANGE, 4));
    assertTrue(e.getMessage().contains("at most 9255635"), e.getMessage());
  }

  private static void assertBetween(String what, int part, int whole, double lo, double hi) {
    double share = (double) part / whole;
    assertTrue(share >= lo && share <= hi, what + ": " + part + " of " + whole + " = " + share);
  }

  private static String sha256(String s) throws NoSuchAlgorithmException {
    StringBuilder hex = new StringBuilder();
    for (byte b : MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8))) {
      hex.append(String.format("%02x", b));
    }
    return hex.toString();
  }
}
