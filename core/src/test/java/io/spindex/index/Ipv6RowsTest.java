/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static io.spindex.index.Ranges6.text;
import static io.spindex.index.Ranges6.v6;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.OverlapPolicy;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.Ranges6.Src;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import io.spindex.index.search.Prefix6;
import io.spindex.index.search.SearchInternals;
import io.spindex.index.search.Tiled6;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The IPv6 rows of a range index, on the heap ({@link Tiled6}) and read in place ({@code mapped}),
 * against a {@link TreeMap} over {@link BigInteger} addresses and against each other: single and
 * batch lookups, {@code ipv6Row} and the row accessors, on real-shaped ranges with many ranges
 * inside one /64 (ties of the high halves and of the rows' 32-bit keys), ranges whose low halves
 * are not a whole /64's, ranges wider than the bits a row keeps for them, few and many labels,
 * IPv4-mapped addresses of a dual-stack file, and damaged files that only {@code verify} refuses.
 */
class Ipv6RowsTest {
  private static final BigInteger MAX = Ranges6.MAX;
  private static final BigInteger LOW64 = Ranges6.LOW64;

  @TempDir Path dir;

  @Test
  void heapLoadersCopyTheRowsAndMappedReadsThemInPlace() throws IOException {
    Path file = Ranges6.build(dir, List.of(), tiesAndOddRanges(), OverlapPolicy.FAIL);
    for (Loader l : List.of(Loader.IO, Loader.NIO)) {
      assertNotNull(l.load(file).asRanges().tiled6Rows(), l.loaderName());
    }
    for (IndexLoader l : List.of(Loader.MAPPED, Loader.mappedUnchecked())) {
      assertNull(l.load(file).asRanges().tiled6Rows(), l.loaderName());
    }
  }

  /**
   * {@code prefix6} tables that put a row into a bucket it does not start in, or leave a row in no
   * bucket (files {@code verify} refuses, the loaders open): every loader searches the file's rows
   * through the file's tables, so that each answers as {@code mapped} does.
   */
  @Test
  void damagedTablesGiveEveryLoaderTheSameAnswers() throws IOException {
    List<Src> ranges = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      BigInteger s = v6("2a02::").add(BigInteger.valueOf(i).shiftLeft(90));
      ranges.add(new Src(s, s.add(BigInteger.valueOf(99)), "n" + i % 9));
    }
    // Three /64s at the top of the block, so that its table's last bucket has rows: the last of
    // them the gap after these.
    for (int k = 0; k < 3; k++) {
      BigInteger s = v6("2a02:ffff:ffff:fff0::").add(BigInteger.valueOf(k).shiftLeft(64));
      ranges.add(new Src(s, s.add(LOW64), "top" + k));
    }
    Path file = Ranges6.build(dir, List.of(), ranges, OverlapPolicy.FAIL);
    IndexHeader h = Loader.readHeader(file);
    byte[] good = Files.readAllBytes(file);
    Prefix6 t = Loader.NIO.load(file).asRanges().starts6().tables();
    int root = SearchInternals.root(t, 0x2a02);
    int q = 9;
    int first = SearchInternals.element(t, root + Prefix6.HEAD_INTS + q);
    assertTrue(first > 0, "bucket 9 is a row, not a table");
    List<long[]> keys = new ArrayList<>();
    IpRanges intact = Loader.MAPPED.load(file).asRanges();
    for (int row = 0; row < intact.ipv6Size(); row++) {
      long hi = intact.ipv6StartHi(row);
      long lo = intact.ipv6StartLo(row);
      for (long d : new long[] {-1, 0, 1, 1L << 40}) {
        keys.add(new long[] {hi, lo + d});
        keys.add(new long[] {hi + d, lo});
      }
    }
    // Bucket 9's rows begin with the last row of bucket 8; then, the table's last row one less:
    // the block's last row is in no bucket's rows.
    for (byte[] damaged :
        List.of(
            BadFixtures.setInt(good, h, Section.PREFIX6, root + 3 + q, first - 1),
            BadFixtures.setInt(
                good, h, Section.PREFIX6, root + 2, SearchInternals.element(t, root + 2) - 1))) {
      Files.write(file, damaged);
      assertThrows(CorruptIndexException.class, () -> IndexVerifier.verify(file));
      IpRanges mapped = Loader.MAPPED.load(file).asRanges();
      for (Loader l : List.of(Loader.IO, Loader.NIO)) {
        sameAnswers(mapped, l.load(file).asRanges(), keys, l.loaderName());
      }
    }
  }

  private static void sameAnswers(IpRanges want, IpRanges r, List<long[]> keys, String loader) {
    for (long[] k : keys) {
      assertEquals(want.labelId(k[0], k[1]), r.labelId(k[0], k[1]), loader);
      assertEquals(want.ipv6Row(k[0], k[1]), r.ipv6Row(k[0], k[1]), loader);
    }
  }

  /**
   * A file whose IPv6 starts are out of order opens (only {@code verify} refuses it), and every
   * loader answers as {@code mapped} does.
   */
  @Test
  void startsOutOfOrderGiveEveryLoaderTheSameAnswers() throws Exception {
    Path file = Ranges6.build(dir, List.of(), tiesAndOddRanges(), OverlapPolicy.FAIL);
    IndexHeader h = Loader.readHeader(file);
    IpRanges intact = Loader.MAPPED.load(file).asRanges();
    long last = intact.ipv6StartHi(intact.ipv6Size() - 1);
    // The first row's start high half made the last row's.
    Files.write(
        file,
        BadFixtures.setLong(
            Files.readAllBytes(file), h, Section.RANGE6_STARTS_HI, 0, SearchInternals.flip(last)));
    assertThrows(CorruptIndexException.class, () -> IndexVerifier.verify(file));
    IpRanges mapped = Loader.MAPPED.load(file).asRanges();
    int n = mapped.ipv6Size();
    for (Loader l : List.of(Loader.IO, Loader.NIO)) {
      IpRanges r = l.load(file).asRanges();
      for (int row = 0; row < n; row++) {
        for (long d : new long[] {-1, 0, 1}) {
          long hi = mapped.ipv6StartHi(row);
          long lo = mapped.ipv6StartLo(row) + d;
          assertEquals(mapped.labelId(hi, lo), r.labelId(hi, lo), l.loaderName());
        }
      }
    }
  }

  /** Few labels; the starts inside one /64 go to the heap rows' list of other low halves. */
  @Test
  void tiesAndOtherLowHalvesWithFewLabels() throws IOException {
    List<Src> ranges = tiesAndOddRanges();
    Path file = build(ranges, List.of());
    Tiled6 rows = Loader.NIO.load(file).asRanges().tiled6Rows();
    assertTrue(
        SearchInternals.oddCount(rows) > 1000,
        "the ranges inside one /64 are odd: " + SearchInternals.oddCount(rows));
    check(file, ranges, List.of(), 1);
  }

  /**
   * Real-shaped ranges with a label each (17-bit label ids), and ranges wider than 2^46 /64s: the
   * heap rows' bytes, and how few rows need their full start.
   */
  @Test
  void realShapedRangesWithManyLabels() throws IOException {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    new RangeGenerator(40_000, 13, RangeGenerator.Format.RANGE).family(6).writeTo(text);
    List<Src> ranges = new ArrayList<>();
    int i = 0;
    for (String line : text.toString(StandardCharsets.UTF_8).split("\n")) {
      String[] f = line.split("\\|", 3);
      ranges.add(new Src(v6(f[0]), v6(f[1]), "r" + i++));
    }
    // Past the generated ones (2000::/3), labels up to 2^17: ids need 17 bits.
    for (int k = 0; k < 100_000; k++) {
      BigInteger s = v6("4000::").add(BigInteger.valueOf(k).shiftLeft(64));
      ranges.add(new Src(s, s.add(LOW64), "n" + k));
    }
    // Wider than 2^46 /64s: /17 and /12 ranges, and one of half the space.
    ranges.add(new Src(v6("5000::"), v6("5000:7fff:ffff:ffff:ffff:ffff:ffff:ffff"), "a-/17"));
    ranges.add(new Src(v6("6000::"), v6("600f:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), "a-/12"));
    ranges.add(new Src(v6("8000::"), MAX, "upper-half"));
    Path file = Ranges6.build(dir, List.of(), ranges, OverlapPolicy.FAIL);
    // 8 bytes a row (a range or a gap) packed, 8 its start's high half, 12 bytes a 64 rows for the
    // rank of the low halves other than 0 and 8 for each of those (none here), and the walk of
    // the file's tables: 8 bytes a /16 block and 8 a bucket.
    IpRanges t = Loader.NIO.load(file).asRanges();
    Tiled6 packed = t.tiled6Rows();
    assertEquals(0, SearchInternals.oddCount(packed));
    int n = t.ipv6Size();
    long buckets = buckets(t.starts6().tables());
    assertEquals(
        16L * n + 12L * (n / 64 + 1) + 8L * Prefix6.MAP_INTS + 8L * buckets,
        SearchInternals.bytes(packed));
    assertTrue(
        SearchInternals.inexactCount(packed) < t.ipv6Size() / 30,
        "a row's 32 bits tell its start: "
            + SearchInternals.inexactCount(packed)
            + " of "
            + t.ipv6Size());
    check(file, ranges, List.of(), 2);
  }

  /** A dual-stack file: IPv4-mapped addresses answer as IPv4 on the rows too. */
  @Test
  void ipv4MappedAddressesOfADualStackFile() throws IOException {
    List<Src> ranges = tiesAndOddRanges();
    List<String> v4 = List.of("10.0.0.0|10.255.255.255|ten", "192.0.2.0|192.0.2.255|doc");
    Path file = build(ranges, v4);
    check(file, ranges, v4, 3);
    BigInteger mapped = BigInteger.valueOf(0xFFFF_0A01_0203L);
    for (IndexLoader l : Loaders.all()) {
      IpRanges r = l.load(file).asRanges();
      assertEquals("ten", r.label(0, mapped.longValue()), l.loaderName());
      assertEquals("doc", r.label(0, 0xFFFF_C000_0201L), l.loaderName());
      assertNull(r.label(0, 0xFFFF_0B00_0001L), l.loaderName());
      long[] hi = {0, 0, 0};
      long[] lo = {mapped.longValue(), 0xFFFF_C000_0201L, 0xFFFF_0B00_0001L};
      int[] out = new int[3];
      assertEquals(2, r.labelIds(hi, lo, 3, out), l.loaderName());
      assertEquals("ten", r.labelText(out[0]));
      assertEquals(IpRanges.NONE, out[2]);
    }
  }

  /**
   * Ranges of whole /64s with a few labels, then 1,500 single addresses and short runs inside one
   * /64 (rows that differ only in their low halves), ranges that start or end inside a /64, one
   * from the middle of a /64 to the middle of a later one, and the edges of the space.
   */
  private static List<Src> tiesAndOddRanges() {
    List<Src> ranges = new ArrayList<>();
    ranges.add(new Src(BigInteger.ZERO, BigInteger.valueOf(255), "low"));
    // Just before the IPv4-mapped block, which answers as IPv4.
    ranges.add(new Src(v6("::fffe:0:0"), v6("::fffe:ffff:ffff"), "before-mapped"));
    for (int i = 0; i < 2000; i++) {
      BigInteger s = v6("2001:db8::").add(BigInteger.valueOf(i * 3L).shiftLeft(64));
      BigInteger end = s.add(LOW64).add(BigInteger.valueOf(i % 2).shiftLeft(64));
      ranges.add(new Src(s, end, "w" + i % 5));
    }
    for (int i = 0; i < 1500; i++) {
      BigInteger s = v6("2a02:1:2:3::").add(BigInteger.valueOf(i * 7L));
      ranges.add(new Src(s, s.add(BigInteger.valueOf(i % 4)), "h" + i % 3));
    }
    // Starts inside a /64 and ends at its last address; starts at a /64 and ends inside the next.
    ranges.add(new Src(v6("2a02:1:2:4::8000"), v6("2a02:1:2:4:ffff:ffff:ffff:ffff"), "tail"));
    ranges.add(new Src(v6("2a02:1:2:5::"), v6("2a02:1:2:6::ff"), "into-next"));
    ranges.add(new Src(v6("2a02:1:2:7:8000::"), v6("2a02:1:2:9:7fff::"), "mid-to-mid"));
    ranges.add(new Src(v6("2a02:1:2:a::"), v6("2a02:1:2:a::"), "one-address"));
    // /64s that differ only below bit 16 of the high half, in a /16 block of few rows (no
    // tables): tiled rows' 32-bit keys tie there, and the full starts settle.
    for (int i = 1; i <= 12; i += 3) {
      BigInteger s = v6("2a03::").add(BigInteger.valueOf(i).shiftLeft(64));
      ranges.add(new Src(s, s.add(LOW64), "t" + i));
    }
    ranges.add(new Src(v6("3fff:ffff:ffff:ffff::"), v6("4000::ffff"), "across-/3"));
    ranges.add(new Src(v6("ffff:ffff:ffff:ffff::"), MAX, "last-/64"));
    return ranges;
  }

  /**
   * Every loader, single and batch lookups and {@code ipv6Row}, against the reference: every start
   * and end and the addresses beside them, random addresses in the ranges and in the whole space;
   * and every loader's row accessors equal to {@code mapped}'s for every row.
   */
  private void check(Path file, List<Src> ranges, List<String> v4, long seed) throws IOException {
    IndexVerifier.verify(file);
    TreeMap<BigInteger, Src> starts = new TreeMap<>();
    for (Src s : ranges) {
      starts.put(s.start, s);
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<BigInteger> queries = new ArrayList<>();
    for (Src s : ranges) {
      queries.add(s.start);
      queries.add(s.end);
      queries.add(s.start.subtract(BigInteger.ONE).max(BigInteger.ZERO));
      queries.add(s.end.add(BigInteger.ONE).min(MAX));
      BigInteger span = s.end.subtract(s.start).add(BigInteger.ONE);
      queries.add(s.start.add(new BigInteger(128, new Random(rnd.nextLong())).mod(span)));
    }
    for (int i = 0; i < 20_000; i++) {
      queries.add(new BigInteger(128, new Random(rnd.nextLong())));
      // Every address of the dense /64 and the /64s around it is a tie of the high halves.
      queries.add(v6("2a02:1:2:3::").add(BigInteger.valueOf(rnd.nextInt(1500 * 7 + 8))));
      queries.add(v6("2a02:1:2:3::").add(new BigInteger(72, new Random(rnd.nextLong()))));
    }
    // The IPv4-mapped block answers as IPv4: checked apart.
    queries.removeIf(a -> a.shiftRight(32).equals(BigInteger.valueOf(0xFFFFL)));
    int n = queries.size();
    long[] hi = new long[n];
    long[] lo = new long[n];
    String[] want = new String[n];
    for (int i = 0; i < n; i++) {
      BigInteger a = queries.get(i);
      hi[i] = a.shiftRight(64).longValue();
      lo[i] = a.longValue();
      Map.Entry<BigInteger, Src> f = starts.floorEntry(a);
      want[i] = f != null && f.getValue().end.compareTo(a) >= 0 ? f.getValue().label : null;
    }
    IpRanges columns = Loader.MAPPED.load(file).asRanges();
    for (IndexLoader l : Loaders.all()) {
      IpRanges r = l.load(file).asRanges();
      assertEquals(ranges.size(), r.ipv6RangeCount());
      assertEquals(v4.size(), r.rangeCount());
      int[] batch = new int[n];
      r.labelIds(hi, lo, n, batch);
      for (int i = 0; i < n; i++) {
        BigInteger a = queries.get(i);
        Supplier<String> where = () -> l.loaderName() + " " + text(a);
        assertEquals(want[i], r.label(hi[i], lo[i]), where);
        assertEquals(want[i], batch[i] < 0 ? null : r.labelText(batch[i]), where);
        int row = r.ipv6Row(hi[i], lo[i]);
        assertEquals(columns.ipv6Row(hi[i], lo[i]), row, where);
        assertEquals(want[i], row < 0 ? null : r.labelText(r.ipv6LabelIdOfRow(row)), where);
      }
      for (int row = 0; row < r.ipv6Size(); row++) {
        int at = row;
        Supplier<String> where = () -> l.loaderName() + " row " + at;
        assertEquals(columns.ipv6StartHi(row), r.ipv6StartHi(row), where);
        assertEquals(columns.ipv6StartLo(row), r.ipv6StartLo(row), where);
        assertEquals(columns.ipv6EndHi(row), r.ipv6EndHi(row), where);
        assertEquals(columns.ipv6EndLo(row), r.ipv6EndLo(row), where);
        assertEquals(columns.ipv6LabelIdOfRow(row), r.ipv6LabelIdOfRow(row), where);
      }
    }
  }

  /** Buckets of all the tables. */
  private static long buckets(Prefix6 tables) {
    long n = 0;
    for (int p = 0; p < Prefix6.MAP_INTS; p++) {
      n +=
          SearchInternals.root(tables, p) == 0
              ? 0
              : bucketsUnder(tables, SearchInternals.root(tables, p));
    }
    return n;
  }

  /** Buckets of the table at element {@code o} and of the tables under it. */
  private static long bucketsUnder(Prefix6 tables, int o) {
    int buckets = 1 << (SearchInternals.element(tables, o) & 0xFF);
    long n = buckets;
    for (int q = 0; q < buckets; q++) {
      int e = SearchInternals.element(tables, o + Prefix6.HEAD_INTS + q);
      n += e < 0 ? bucketsUnder(tables, ~e) : 0;
    }
    return n;
  }

  private Path build(List<Src> ranges, List<String> v4) throws IOException {
    return Ranges6.build(dir, v4, ranges, OverlapPolicy.FAIL);
  }
}
