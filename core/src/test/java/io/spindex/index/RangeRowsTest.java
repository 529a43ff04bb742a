/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import io.spindex.index.search.SearchInternals;
import io.spindex.index.search.Tiled6;
import io.spindex.text.Ipv4Text;
import io.spindex.text.Ipv6Text;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rows of a range index (docs/FORMAT.md: a row a range and a row a gap after one, each ending
 * where the next starts; IPv4 rows packed in {@code range_starts_low} and {@code row_label_ids},
 * IPv6 rows in {@code range6_starts_*} and {@code tiled6_rows}) against a {@link TreeMap}
 * reference: every loader, single and batch lookups, {@code row}, and the rows ({@code start},
 * {@code end}, {@code labelIdOfRow}) that tile the space; the bytes they take; and what {@code
 * verify} and the loaders refuse.
 */
class RangeRowsTest {
  @TempDir Path dir;

  /** A source range: first and last address (unsigned), label. */
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

  @Test
  void everyLoaderAnswersAsTheReference() throws IOException {
    // Touching runs, gaps of one address and wide gaps, the edges of the space, dense /16 blocks
    // (sub-tables), single addresses.
    List<Src> ranges = new ArrayList<>();
    ranges.add(new Src(0, 0, "zero"));
    ranges.add(new Src(1, 255, "low"));
    SplittableRandom rnd = new SplittableRandom(7);
    long at = 0x0100_0000L;
    while (at < 0xFF00_0000L) {
      // 10.0.0.0/8: short ranges close together, so dense /16 blocks with /24 sub-tables.
      boolean dense = at >>> 24 == 10;
      long len =
          dense || rnd.nextInt(4) == 0
              ? 1 + rnd.nextInt(dense ? 64 : 1)
              : 1 + rnd.nextLong(rnd.nextBoolean() ? 256 : 1 << 20);
      ranges.add(new Src(at, at + len - 1, "r" + rnd.nextInt(50)));
      int gap = rnd.nextInt(10);
      at += len + (gap < 6 ? 0 : gap < 8 || dense ? 1 : rnd.nextLong(1 << 22));
    }
    ranges.add(new Src(0xFFFF_FF00L, 0xFFFF_FFFFL, "top"));
    Path packed = build(ranges, "packed.spx");
    IndexHeader p = Loader.readHeader(packed);
    // 2 bytes a start, 1 a label id (50 labels and the gap's).
    assertEquals(2 * p.rowCount(), p.find(Section.RANGE_STARTS_LOW).length());
    assertEquals(p.rowCount(), p.find(Section.ROW_LABEL_IDS).length());
    assertNotNull(p.find(Section.PREFIX24), "dense blocks: sub-tables");
    IndexVerifier.verify(packed);

    TreeMap<Long, Src> ref = new TreeMap<>();
    for (Src s : ranges) {
      ref.put(s.start, s);
    }
    List<Long> queries = new ArrayList<>();
    for (Src s : ranges) {
      for (long q : new long[] {s.start - 1, s.start, s.start + 1, s.end - 1, s.end, s.end + 1}) {
        if (q >= 0 && q <= 0xFFFF_FFFFL) {
          queries.add(q);
        }
      }
    }
    for (int i = 0; i < 200_000; i++) {
      queries.add(rnd.nextLong(1L << 32));
    }
    int[] addresses = queries.stream().mapToInt(Long::intValue).toArray();
    String[] expected = new String[addresses.length];
    for (int i = 0; i < addresses.length; i++) {
      Map.Entry<Long, Src> e = ref.floorEntry(Integer.toUnsignedLong(addresses[i]));
      expected[i] =
          e != null && e.getValue().end >= Integer.toUnsignedLong(addresses[i])
              ? e.getValue().label
              : null;
    }
    for (IndexLoader l : Loaders.all()) {
      everyAnswer(l.load(packed).asRanges(), l.loaderName(), ranges, addresses, expected);
    }
  }

  /** Every answer of {@code r} against the reference. */
  private static void everyAnswer(
      IpRanges r, String where, List<Src> ranges, int[] addresses, String[] expected) {
    int[] out = new int[addresses.length];
    int hits = r.labelIds(addresses, addresses.length, out);
    int expectedHits = 0;
    for (int i = 0; i < addresses.length; i++) {
      String why = where + " " + Ipv4Text.format(addresses[i]);
      assertEquals(expected[i], r.label(addresses[i]), why);
      assertEquals(expected[i], out[i] == IpRanges.NONE ? null : r.labelText(out[i]), why);
      int row = r.row(addresses[i]);
      assertEquals(expected[i] == null, row == IpRanges.NONE, why);
      if (row != IpRanges.NONE) {
        assertEquals(expected[i], r.labelText(r.labelIdOfRow(row)), why);
      }
      expectedHits += expected[i] == null ? 0 : 1;
    }
    assertEquals(expectedHits, hits, where);
    assertRowsTile(r, ranges);
  }

  /**
   * The rows are the ranges, in order, and a gap row for each gap after one: each row ends where
   * the next starts, the last at 255.255.255.255.
   */
  private static void assertRowsTile(IpRanges r, List<Src> ranges) {
    int k = 0;
    for (int row = 0; row < r.size(); row++) {
      long start = Integer.toUnsignedLong(r.start(row));
      long end = Integer.toUnsignedLong(r.end(row));
      if (row + 1 < r.size()) {
        assertEquals(Integer.toUnsignedLong(r.start(row + 1)) - 1, end);
      } else {
        assertEquals(0xFFFF_FFFFL, end);
      }
      if (r.labelIdOfRow(row) == IpRanges.NONE) {
        assertTrue(row > 0 && r.labelIdOfRow(row - 1) != IpRanges.NONE, "gap row " + row);
        assertEquals(ranges.get(k - 1).end + 1, start, "gap row " + row);
        continue;
      }
      Src s = ranges.get(k++);
      assertEquals(s.start, start, "row " + row);
      assertEquals(s.label, r.labelText(r.labelIdOfRow(row)), "row " + row);
      // A gap row after it where the range ends before the next: its end is the range's.
      assertEquals(s.end, end, "row " + row);
    }
    assertEquals(ranges.size(), k);
  }

  /** A row a range, a row a gap after one: 3 bytes a row here (2 a start, 1 a label id). */
  @Test
  void aRowARangeAndARowAGap() throws IOException {
    List<Src> touching = new ArrayList<>();
    List<Src> apart = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      touching.add(new Src(256L * i, 256L * i + 255, "t" + i % 3));
      apart.add(new Src(512L * i, 512L * i + 255, "a" + i % 3));
    }
    Path t = build(touching, "touching.spx");
    Path a = build(apart, "apart.spx");
    // 100 touching ranges and a gap to the top: 101 rows of 2 + 1 bytes; 200 rows apart.
    assertEquals(101, Loader.readHeader(t).rowCount());
    assertEquals(101, Loader.readHeader(t).find(Section.ROW_LABEL_IDS).length());
    assertEquals(200, Loader.readHeader(a).rowCount());
    assertEquals(2 * 200, Loader.readHeader(a).find(Section.RANGE_STARTS_LOW).length());
    for (Path p : List.of(t, a)) {
      IpRanges r = Loader.MAPPED.load(p).asRanges();
      List<Src> want = p == t ? touching : apart;
      for (Src s : want) {
        assertEquals(s.label, r.label((int) s.start), p + " " + s.start);
        assertEquals(s.label, r.label((int) s.end), p + " " + s.end);
      }
      assertNull(r.label(0x7000_0000), p.toString());
      assertEquals(100, r.rangeCount());
      IndexVerifier.verify(p);
    }
    // The whole space as one range: no gap row at all.
    Path whole = build(List.of(new Src(0, 0xFFFF_FFFFL, "all")), "whole.spx");
    IpRanges r = Loader.NIO.load(whole).asRanges();
    assertEquals(1, r.size());
    assertEquals("all", r.label(0));
    assertEquals("all", r.label(-1));
  }

  /**
   * IPv6 rows: a row a range and a row a gap; the starts' low halves are left out when every one is
   * 0 (networks of /64 or wider, and the gaps after them), and kept otherwise.
   */
  @Test
  void ipv6RowsKeepLowHalvesOnlyWhenOneIsNotZero() throws IOException {
    for (int bits : new int[] {64, 96}) {
      for (int gapsInFive : new int[] {3, 5}) {
        List<String> lines = new ArrayList<>();
        long at = 0;
        for (int i = 0; i < 100; i++) {
          String network =
              bits == 64
                  ? String.format("2001:db8:0:%x::/64", at)
                  : String.format("2001:db8::%x:0:0/96", at);
          lines.add(network + "|r" + i % 7);
          at += i % 5 < gapsInFive ? 2 : 1;
        }
        String what = "/" + bits + ", " + gapsInFive + " gaps in 5";
        Path in = dir.resolve("gaps" + bits + "-" + gapsInFive + ".txt");
        Files.write(in, lines, StandardCharsets.UTF_8);
        Path out = dir.resolve("gaps" + bits + "-" + gapsInFive + ".spx");
        new IpRangeBuilder().createdMillis(0).build(List.of(in), out);
        IpRanges r = Loader.NIO.load(out).asRanges();
        IndexHeader h = Loader.readHeader(out);
        assertEquals(bits == 96, h.find(Section.RANGE6_STARTS_LO) != null, what);
        // A gap after every range that leaves one, and after the last (up to the top).
        assertEquals(100 + 20 * gapsInFive + (gapsInFive < 5 ? 1 : 0), r.ipv6Size(), what);
        assertEquals(8L * r.ipv6Size(), h.find(Section.RANGE6_ROWS).length(), what);
        assertEquals(100, r.ipv6RangeCount());
        long sixth = bits == 64 ? 0x2001_0db8_0000_0006L : 0x2001_0db8_0000_0000L;
        long lo = bits == 64 ? 7 : 6L << 32 | 7;
        long first = bits == 64 ? 0x2001_0db8_0000_0001L : 0x2001_0db8_0000_0000L;
        assertEquals("r3", r.label(sixth, lo), what);
        assertNull(r.label(first, bits == 64 ? 7 : 1L << 32 | 7), what);
        IndexVerifier.verify(out);
      }
    }
  }

  /**
   * IPv6 rows ({@code tiled6_rows}): every loader, single and batch, answers as a {@link TreeMap}
   * of the ranges, at every range's edges and at random addresses, on ranges that straddle the
   * tables' buckets and on runs of small ranges inside one /64 (rows whose 32-bit keys are equal,
   * flagged). A label id outside the dictionary is refused at open; a key that its start does not
   * give is refused by {@code verify}, and every checking loader answers alike on that file.
   */
  @Test
  void packedTiled6RowsAgreeWithATreeMap() throws IOException {
    SplittableRandom rnd = new SplittableRandom(29);
    TreeMap<java.math.BigInteger, Object[]> reference = new TreeMap<>();
    List<String> lines = new ArrayList<>();
    List<long[]> edges = new ArrayList<>();
    long hi = 0x2001_0db8_0000_0000L;
    for (int i = 0; i < 6000; i++) {
      long startHi = hi;
      long startLo = 0;
      long endHi;
      long endLo;
      if (i % 10 < 3) {
        // A run of small ranges inside one /64: equal keys, told apart by their low halves.
        startLo = (long) (i % 10) << 40;
        endHi = hi;
        endLo = startLo + rnd.nextInt(1 << 20);
        if (i % 10 == 2) {
          hi += 1;
        }
      } else {
        long len = 1 + rnd.nextInt(i % 97 == 0 ? 1 << 20 : 64);
        endHi = hi + len - 1;
        endLo = -1L;
        hi += len + (rnd.nextInt(4) == 0 ? rnd.nextInt(1 << 16) : 0);
      }
      String label = "n" + i % 211;
      lines.add(
          Ipv6Text.format(startHi, startLo) + "|" + Ipv6Text.format(endHi, endLo) + "|" + label);
      reference.put(unsigned128(startHi, startLo), new Object[] {unsigned128(endHi, endLo), label});
      edges.add(new long[] {startHi, startLo});
      edges.add(new long[] {endHi, endLo});
      edges.add(new long[] {endHi, endLo + 1});
    }
    Path in = dir.resolve("rows6.txt");
    Files.write(in, lines, StandardCharsets.UTF_8);
    Path file = dir.resolve("rows6.spx");
    new IpRangeBuilder().createdMillis(0).ipv6Tables(100).build(List.of(in), file);
    IndexHeader h = Loader.readHeader(file);
    assertNotNull(h.find(Section.RANGE6_ROWS));
    assertNotNull(h.find(Section.PREFIX6), "tables over the dense block");
    IndexVerifier.verify(file);
    Tiled6 heapRows = Loader.NIO.load(file).asRanges().tiled6Rows();
    assertTrue(
        SearchInternals.inexactCount(heapRows) >= 1800, "the runs inside one /64 are flagged");
    long[][] probes =
        probes6(
            edges,
            30_000,
            rnd,
            hi + 2,
            i -> i % 3 == 0 ? (long) rnd.nextInt(4) << 40 : rnd.nextLong());
    long[] his = probes[0];
    long[] los = probes[1];
    int n = his.length;
    for (IndexLoader l : Loaders.all()) {
      IpRanges r = l.load(file).asRanges();
      int[] batch = new int[n];
      r.labelIds(his, los, n, batch);
      for (int i = 0; i < n; i++) {
        String where = l.loaderName() + " " + Ipv6Text.format(his[i], los[i]);
        Map.Entry<java.math.BigInteger, Object[]> f =
            reference.floorEntry(unsigned128(his[i], los[i]));
        String want =
            f != null
                    && ((java.math.BigInteger) f.getValue()[0])
                            .compareTo(unsigned128(his[i], los[i]))
                        >= 0
                ? (String) f.getValue()[1]
                : null;
        assertEquals(want, r.label(his[i], los[i]), where);
        assertEquals(r.labelId(his[i], los[i]), batch[i], where + " (batch)");
      }
    }
    // Damage: a label id beyond the dictionary (refused at open), a key its start does not give
    // (verify), every checking loader answering alike on the latter.
    byte[] b = Files.readAllBytes(file);
    long rows = h.find(Section.RANGE6_ROWS).offset();
    long row5 = Loader.MAPPED.load(file).asRanges().packedRows6().get(5);
    int labels = Loader.MAPPED.load(file).asRanges().labelCount();
    Path badId =
        write(
            "rows6-bad-id.spx",
            BadFixtures.setLong(b, h, Section.RANGE6_ROWS, 5, row5 & ~0x7FFF_FFFFL | labels + 1));
    Loaders.rejectedAtOpen(
        badId,
        badId
            + ": section 'range6_rows' at offset "
            + (rows + 40)
            + ": expected a label id in [0, "
            + labels
            + ") or -1 (a gap), found "
            + labels);
    Path badKey =
        write(
            "rows6-bad-key.spx",
            BadFixtures.setLong(b, h, Section.RANGE6_ROWS, 5, row5 ^ 1L << 40));
    assertTrue(
        verifyMessage(badKey)
            .startsWith(
                badKey + ": section 'range6_rows' at offset " + (rows + 40) + ": expected 0x"),
        verifyMessage(badKey));
    IpRanges mapped = Loader.MAPPED.load(badKey).asRanges();
    for (IndexLoader l : Loader.values()) {
      IpRanges r = l.load(badKey).asRanges();
      int[] batch = new int[n];
      r.labelIds(his, los, n, batch);
      for (int i = 0; i < n; i++) {
        int want = mapped.labelId(his[i], los[i]);
        assertEquals(want, r.labelId(his[i], los[i]), l.loaderName());
        assertEquals(want, batch[i], l.loaderName() + " (batch)");
      }
    }
  }

  /**
   * IPv6 addresses to look up, as high and low halves: the {@code edges}, then {@code random} ones
   * with high halves in {@code [2001:db8::, end)} and low halves from {@code lo} (given the index).
   */
  private static long[][] probes6(
      List<long[]> edges,
      int random,
      SplittableRandom rnd,
      long end,
      java.util.function.IntToLongFunction lo) {
    int n = edges.size() + random;
    long[] his = new long[n];
    long[] los = new long[n];
    for (int i = 0; i < n; i++) {
      long[] e = i < edges.size() ? edges.get(i) : null;
      his[i] =
          e != null ? e[0] : 0x2001_0db8_0000_0000L + rnd.nextLong(end - 0x2001_0db8_0000_0000L);
      los[i] = e != null ? e[1] : lo.applyAsLong(i);
    }
    return new long[][] {his, los};
  }

  private static java.math.BigInteger unsigned128(long hi, long lo) {
    return new java.math.BigInteger(Long.toUnsignedString(hi))
        .shiftLeft(64)
        .or(new java.math.BigInteger(Long.toUnsignedString(lo)));
  }

  /** IPv6 rows {@code verify} refuses: a gap first; every loader answers alike on that file too. */
  @Test
  void damagedIpv6RowsAreRefused() throws IOException {
    Path in = dir.resolve("six.txt");
    Files.write(
        in,
        List.of("2001:db8::/48|a", "2001:db8:1::/48|b", "2001:db8:3::/48|a", "2a00::/16|c"),
        StandardCharsets.UTF_8);
    Path file = dir.resolve("six.spx");
    new IpRangeBuilder().createdMillis(0).build(List.of(in), file);
    IndexHeader h = Loader.readHeader(file);
    // Rows: a, b, gap, a, gap, c, gap.
    assertEquals(7, Loader.MAPPED.load(file).asRanges().ipv6Size());
    assertEquals(4, Loader.MAPPED.load(file).asRanges().ipv6RangeCount());
    IndexVerifier.verify(file);
    byte[] b = Files.readAllBytes(file);
    long rows = h.find(Section.RANGE6_ROWS).offset();
    long row0 = Loader.MAPPED.load(file).asRanges().packedRows6().get(0);
    Path gapFirst =
        write(
            "six-gap-first.spx",
            BadFixtures.setLong(b, h, Section.RANGE6_ROWS, 0, row0 & ~0x7FFF_FFFFL));
    assertEquals(
        gapFirst
            + ": section 'range6_rows' at offset "
            + rows
            + ": expected a label id in [0, 3) (the first row is not a gap), found -1",
        verifyMessage(gapFirst));
    // Every loader answers alike, on the file verify refuses too.
    IpRanges mapped = Loader.MAPPED.load(gapFirst).asRanges();
    long[] hi = {0x2001_0db8_0000_0000L, 0x2001_0db8_0002_0000L, 0x2a00_0000_0000_0000L, 1L};
    long[] lo = {5, 5, 5, 5};
    for (IndexLoader l : Loaders.all()) {
      IpRanges r = l.load(gapFirst).asRanges();
      int[] out = new int[hi.length];
      r.labelIds(hi, lo, hi.length, out);
      for (int i = 0; i < hi.length; i++) {
        assertEquals(mapped.labelId(hi[i], lo[i]), r.labelId(hi[i], lo[i]), l.loaderName());
        assertEquals(mapped.labelId(hi[i], lo[i]), out[i], l.loaderName());
      }
      assertEquals(IpRanges.NONE, r.labelId(hi[0], lo[0]), "row 0 is now a gap");
      assertEquals("c", r.label(hi[2], lo[2]));
    }
  }

  /**
   * A packed row's label id takes the bytes the labels' count and the gap's need: 1 for 255 labels,
   * 2 for 256 (the gap's all ones would be a label's id in 1 byte), 3 for 70,000; every loader
   * reads the rows the ranges make.
   */
  @Test
  void packedLabelIdsTakeTheBytesTheirCountNeeds() throws IOException {
    for (int[] c : new int[][] {{255, 1}, {256, 2}, {70_000, 3}}) {
      List<Src> ranges = new ArrayList<>();
      for (int i = 0; i < c[0]; i++) {
        // Every third range leaves a gap of one /24 after it.
        long at = 0x0100_0000L + 256L * (i + i / 3);
        ranges.add(new Src(at, at + 255, "l" + i));
      }
      Path packed = build(ranges, "p" + c[0] + ".spx");
      IndexHeader h = Loader.readHeader(packed);
      assertEquals((long) c[1] * h.rowCount(), h.find(Section.ROW_LABEL_IDS).length(), "" + c[0]);
      for (IndexLoader l : Loaders.all()) {
        assertRowsTile(l.load(packed).asRanges(), ranges);
      }
    }
  }

  /**
   * IPv6 rows whose starts all have a low half of 0 (networks of /64 or wider, and the gaps after
   * them) keep no column for the low halves; every loader answers as a {@link TreeMap} of the
   * ranges, single and batch, at every range's edges and at random addresses. One start with a low
   * half of 1 keeps the column.
   */
  @Test
  void ipv6RowsWithoutLowHalves() throws IOException {
    SplittableRandom rnd = new SplittableRandom(17);
    TreeMap<java.math.BigInteger, Object[]> reference = new TreeMap<>();
    List<String> lines = new ArrayList<>();
    List<long[]> edges = new ArrayList<>();
    long hi = 0x2001_0db8_0000_0000L;
    for (int i = 0; i < 3000; i++) {
      long len = 1 + rnd.nextInt(i % 50 == 0 ? 1 << 16 : 4); // /64s, a few /48s and wider
      lines.add(
          String.format(
              "%s|%s|n%d", Ipv6Text.format(hi, 0), Ipv6Text.format(hi + len - 1, -1L), i % 97));
      reference.put(
          unsigned128(hi, 0), new Object[] {unsigned128(hi + len - 1, -1L), "n" + i % 97});
      edges.add(new long[] {hi, 0});
      edges.add(new long[] {hi + len - 1, -1L});
      hi += len + (rnd.nextInt(3) == 0 ? rnd.nextInt(1 << 20) : 0);
    }
    Path in = dir.resolve("six64.txt");
    Files.write(in, lines, StandardCharsets.UTF_8);
    Path packed = dir.resolve("six64-packed.spx");
    new IpRangeBuilder().createdMillis(0).build(List.of(in), packed);
    IndexHeader h = Loader.readHeader(packed);
    assertNull(h.find(Section.RANGE6_STARTS_LO));
    assertEquals(8L * h.ipv6Rows(), h.find(Section.RANGE6_ROWS).length());
    IndexVerifier.verify(packed);
    long[][] probes = probes6(edges, 20_000, rnd, hi, i -> rnd.nextLong());
    long[] his = probes[0];
    long[] los = probes[1];
    int n = his.length;
    for (IndexLoader l : Loaders.all()) {
      IpRanges r = l.load(packed).asRanges();
      int[] batch = new int[n];
      r.labelIds(his, los, n, batch);
      for (int i = 0; i < n; i++) {
        String where = l.loaderName() + " " + Ipv6Text.format(his[i], los[i]);
        Map.Entry<java.math.BigInteger, Object[]> f =
            reference.floorEntry(unsigned128(his[i], los[i]));
        String want =
            f != null
                    && ((java.math.BigInteger) f.getValue()[0])
                            .compareTo(unsigned128(his[i], los[i]))
                        >= 0
                ? (String) f.getValue()[1]
                : null;
        assertEquals(want, r.label(his[i], los[i]), where);
        assertEquals(r.labelId(his[i], los[i]), batch[i], where + " (batch)");
      }
    }
    lines.add("2001:db9::1|2001:db9::ff|odd");
    Files.write(in, lines, StandardCharsets.UTF_8);
    Path odd = dir.resolve("six64-odd.spx");
    new IpRangeBuilder().createdMillis(0).build(List.of(in), odd);
    assertNotNull(Loader.readHeader(odd).find(Section.RANGE6_STARTS_LO), "a low half of 1");
    assertEquals("odd", Loader.MAPPED.load(odd).asRanges().label(0x2001_0db9_0000_0000L, 7));
  }

  /**
   * What the loaders and {@code verify} refuse in packed rows: a label id neither in the dictionary
   * nor a gap's (at open), a gap first, starts not ascending within their block ({@code verify}),
   * and a prefix table whose entries go down (at open, by every checking loader; unchecked, the
   * rows read in place are searched within their bounds).
   */
  @Test
  void damagedPackedFilesAreRefused() throws IOException {
    List<Src> ranges =
        List.of(
            new Src(0x0A00_0000L, 0x0A00_00FFL, "ten"),
            new Src(0x0A00_0100L, 0x0A00_01FFL, "eleven"),
            new Src(0xC000_0200L, 0xC000_02FFL, "doc"));
    Path file = build(ranges, "small-packed.spx");
    byte[] b = Files.readAllBytes(file);
    IndexHeader h = Loader.readHeader(file);
    long ids = h.find(Section.ROW_LABEL_IDS).offset();
    long lows = h.find(Section.RANGE_STARTS_LOW).offset();
    // Rows: ten, eleven, gap, doc, gap; 1 byte a label id.
    assertEquals(5, h.rowCount());
    assertEquals(5, h.find(Section.ROW_LABEL_IDS).length());

    Path badId = write("packed-bad-id.spx", setByte(b, h, Section.ROW_LABEL_IDS, 1, 3));
    Loaders.rejectedAtOpen(
        badId,
        badId
            + ": section 'row_label_ids' at offset "
            + (ids + 1)
            + ": expected a label id in [0, 3) or -1 (a gap), found 3");
    Path gapFirst = write("packed-gap-first.spx", setByte(b, h, Section.ROW_LABEL_IDS, 0, 0xFF));
    assertEquals(
        gapFirst
            + ": section 'row_label_ids' at offset "
            + ids
            + ": expected a label id in [0, 3) (the first row is not a gap), found -1",
        verifyMessage(gapFirst));
    // Row 1's start 10.0.1.0 made 10.0.0.0 (its low byte 1 made 0).
    Path unordered = write("packed-unordered.spx", setByte(b, h, Section.RANGE_STARTS_LOW, 3, 0));
    assertEquals(
        unordered
            + ": section 'range_starts_low' at offset "
            + (lows + 2)
            + ": expected row 1 after the start of the previous row (10.0.0.0 at row 0), found"
            + " 10.0.0.0",
        verifyMessage(unordered));
    // Block 10.2/16 said to start at row 0, after block 10.1/16 started at row 3: entries going
    // down.
    long prefix = h.find(Section.PREFIX16).offset();
    Path down = write("packed-down.spx", BadFixtures.setInt(b, h, Section.PREFIX16, 0x0A02, 0));
    String message =
        down
            + ": section 'prefix16' at offset "
            + (prefix + 4L * 0x0A02)
            + ": expected entries in ascending order, at least 3, found 0";
    for (IndexLoader l : Loader.values()) {
      CorruptIndexException e = assertThrows(CorruptIndexException.class, () -> l.load(down));
      assertTrue(
          e.getMessage().startsWith(down + ": section 'prefix16' at offset "), l.loaderName());
    }
    assertEquals(message, verifyMessage(down));
    // Read in place unchecked, the rows are searched between entries that go down: answers no
    // check vouches for, but every read within the rows.
    IpRanges unchecked = Loader.mappedUnchecked().load(down).asRanges();
    for (int block : new int[] {0x0A00, 0x0A01, 0x0A02, 0x0A03, 0xC000}) {
      int address = block << 16 | 0x0105;
      int id = unchecked.labelId(address);
      assertTrue(id >= IpRanges.NONE && id < 3, Ipv4Text.format(address) + ": " + id);
      int[] batch = new int[1];
      unchecked.labelIds(new int[] {address}, 1, batch);
      assertEquals(id, batch[0], Ipv4Text.format(address));
    }
  }

  private static byte[] setByte(byte[] b, IndexHeader h, Section s, int i, int v) {
    byte[] c = b.clone();
    c[(int) h.find(s).offset() + i] = (byte) v;
    return BadFixtures.fixSectionCrc(c, h, s);
  }

  private static String verifyMessage(Path file) {
    try {
      IndexVerifier.verify(file);
      return "verified";
    } catch (IOException e) {
      return e.getMessage();
    }
  }

  private Path write(String name, byte[] bytes) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, bytes);
    return p;
  }

  private Path build(List<Src> ranges, String name) throws IOException {
    return build(ranges, new IpRangeBuilder().subTables(16, 0.4), name);
  }

  /** The ranges as text, built by {@code builder}. */
  private Path build(List<Src> ranges, IpRangeBuilder builder, String name) throws IOException {
    StringBuilder text = new StringBuilder();
    for (Src s : ranges) {
      text.append(Ipv4Text.format((int) s.start))
          .append('|')
          .append(Ipv4Text.format((int) s.end))
          .append('|')
          .append(s.label)
          .append('\n');
    }
    Path in = dir.resolve(name + ".txt");
    Files.write(in, text.toString().getBytes(StandardCharsets.UTF_8));
    Path out = dir.resolve(name);
    builder.createdMillis(0).build(List.of(in), out);
    return out;
  }
}
