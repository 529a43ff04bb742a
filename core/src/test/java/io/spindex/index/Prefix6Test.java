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

import com.google.common.net.InetAddresses;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.builder.OverlapPolicy;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.Ranges6.Src;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import io.spindex.index.search.Prefix6;
import io.spindex.index.search.SearchInternals;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The IPv6 tables of the dense /16 blocks ({@code prefix6}): lookups through them on every loader,
 * single and batch, against a {@link TreeMap} over {@link BigInteger} addresses (text from Guava's
 * {@link InetAddresses}, not Spindex's formatter), on real-shaped IPv6 ranges, on ranges made to
 * straddle every level of the tables, and on the edges of the space; the budget rules; and the
 * corrupt-file cases of the section (made here: each file carries two 256 KiB tables).
 */
class Prefix6Test {
  private static final BigInteger MAX = Ranges6.MAX;
  private static final BigInteger LOW64 = Ranges6.LOW64;

  @TempDir Path dir;

  @Test
  void realShapedRangesAgreeWithTreeMap() throws IOException {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    new RangeGenerator(60_000, 7, RangeGenerator.Format.RANGE).family(6).writeTo(text);
    List<Src> ranges = new ArrayList<>();
    for (String line : text.toString(StandardCharsets.UTF_8).split("\n")) {
      String[] f = line.split("\\|", 3);
      ranges.add(new Src(v6(f[0]), v6(f[1]), f[2]));
    }
    checkAgainstReference(ranges, OverlapPolicy.FAIL, 1);
  }

  @Test
  void rangesAcrossEveryLevelAndTheEdgesOfTheSpace() throws IOException {
    List<Src> ranges = new ArrayList<>();
    BigInteger block = v6("2a02::");
    // A range from the block before into this one: addresses before the first row of the block's
    // first bucket belong to it (the row before the bucket).
    ranges.add(new Src(v6("2a01:ffff:ffff:ff00::"), v6("2a02::ff"), "into-2a02"));
    // One /24 bucket covered by a single range, then rows after it.
    ranges.add(new Src(v6("2a02:8000::"), v6("2a02:80ff:ffff:ffff:ffff:ffff:ffff:ffff"), "a-/24"));
    // 1,500 /64s in one /40: a table under a table under the block's.
    for (int i = 0; i < 1500; i++) {
      BigInteger s = v6("2a02:1234:5600::").add(BigInteger.valueOf(i * 3L).shiftLeft(64));
      ranges.add(new Src(s, s.add(LOW64), "net64-" + i % 97));
    }
    // 1,200 single addresses and short runs in one /64: the tables end at bit 0 (a leaf of many
    // rows that differ only in their low halves).
    for (int i = 0; i < 1200; i++) {
      BigInteger s = v6("2a02:1:2:3::").add(BigInteger.valueOf(i * 5L));
      ranges.add(new Src(s, s.add(BigInteger.valueOf(i % 3)), "host-" + i % 13));
    }
    // 600 /48s spread over the block, some across bucket boundaries of any table.
    SplittableRandom rnd = new SplittableRandom(11);
    BigInteger at = block.add(BigInteger.ONE.shiftLeft(100));
    for (int i = 0; i < 600; i++) {
      at = at.add(BigInteger.valueOf(1 + rnd.nextInt(1 << 12)).shiftLeft(80));
      BigInteger end =
          at.add(BigInteger.valueOf(1 + rnd.nextInt(3)).shiftLeft(80)).subtract(BigInteger.ONE);
      if (at.compareTo(v6("2a02:1234::")) >= 0) {
        break;
      }
      ranges.add(new Src(at, end, "site-" + i % 31));
      at = end.add(BigInteger.ONE);
    }
    // A range to the end of the block and into the next.
    ranges.add(new Src(v6("2a02:ffff:ffff:ffff::"), v6("2a03::1"), "out-of-2a02"));
    // The edges: the first and last addresses, and both edges of 2000::/3.
    ranges.add(new Src(BigInteger.ZERO, BigInteger.valueOf(255), "low"));
    ranges.add(new Src(v6("1fff:ffff:ffff:ffff:ffff:ffff:ffff:fff0"), v6("2000::f"), "2000::/3"));
    ranges.add(new Src(v6("3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), v6("4000::"), "end-/3"));
    ranges.add(new Src(MAX, MAX, "last"));
    checkAgainstReference(ranges, OverlapPolicy.FAIL, 3);
  }

  /** {@code ::/0} under everything (narrowest wins): every address answers. */
  @Test
  void theWholeSpaceUnderDenseRanges() throws IOException {
    List<Src> ranges = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      BigInteger s = v6("2600:1f00::").add(BigInteger.valueOf(i * 7L).shiftLeft(72));
      ranges.add(new Src(s, s.add(BigInteger.ONE.shiftLeft(70)), "r" + i % 50));
    }
    ranges.add(new Src(BigInteger.ZERO, MAX, "everywhere"));
    checkAgainstReference(ranges, OverlapPolicy.NARROWEST, 5);
  }

  @Test
  void setsLookUpThroughTheTablesToo() throws IOException {
    Set<BigInteger> want = new HashSet<>();
    List<String> lines = new ArrayList<>();
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < 5000; i++) {
      BigInteger a = v6("2001:db8::").add(BigInteger.valueOf(rnd.nextLong(1L << 40)).shiftLeft(40));
      if (i % 4 == 0) {
        a = v6("2001:db8:0:1::").add(BigInteger.valueOf(i));
      }
      want.add(a);
      lines.add(text(a));
    }
    Path in = dir.resolve("ips.txt");
    Files.write(in, lines, StandardCharsets.UTF_8);
    Path out = dir.resolve("ips.spx");
    new IpSetBuilder().ipv6Tables(50).createdMillis(0).build(List.of(in), out);
    IndexHeader h = Loader.readHeader(out);
    assertNotNull(h.find(Section.PREFIX6), "5,000 addresses in one /16, with a budget to spare");
    IndexVerifier.verify(out);
    List<BigInteger> queries = new ArrayList<>(want);
    for (BigInteger a : want) {
      queries.add(a.add(BigInteger.ONE));
      queries.add(a.subtract(BigInteger.ONE));
    }
    for (IndexLoader l : Loaders.all()) {
      IpSet s = l.load(out).asSet();
      long[] hi = new long[queries.size()];
      long[] lo = new long[queries.size()];
      for (int i = 0; i < queries.size(); i++) {
        hi[i] = queries.get(i).shiftRight(64).longValue();
        lo[i] = queries.get(i).longValue();
      }
      boolean[] batch = new boolean[queries.size()];
      s.containsAll(hi, lo, queries.size(), batch);
      for (int i = 0; i < queries.size(); i++) {
        boolean expected = want.contains(queries.get(i));
        assertEquals(expected, s.contains(hi[i], lo[i]), l.loaderName() + " " + queries.get(i));
        assertEquals(expected, batch[i], l.loaderName() + " batch " + queries.get(i));
      }
    }
  }

  @Test
  void smallIndexesAndDisabledTablesHaveNoSection() throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      BigInteger s = v6("2a00::").add(BigInteger.valueOf(i).shiftLeft(80));
      lines.add(text(s) + "|" + text(s.add(BigInteger.TEN)) + "|x" + i % 9);
    }
    Path in = dir.resolve("r.txt");
    Files.write(in, lines, StandardCharsets.UTF_8);
    Path plain = dir.resolve("plain.spx");
    new IpRangeBuilder().delimiter('|').createdMillis(0).build(List.of(in), plain);
    IndexHeader h = Loader.readHeader(plain);
    assertNull(h.find(Section.PREFIX6), "3,000 rows are too few to pay for the 256 KiB map");
    Path off = dir.resolve("off.spx");
    new IpRangeBuilder().delimiter('|').ipv6Tables(0).build(List.of(in), off);
    assertNull(Loader.readHeader(off).find(Section.PREFIX6), "a budget of 0");
    Path on = dir.resolve("on.spx");
    new IpRangeBuilder().delimiter('|').ipv6Tables(50).build(List.of(in), on);
    assertNotNull(Loader.readHeader(on).find(Section.PREFIX6), "a budget to spare");
  }

  @Test
  void damagedTablesAreRejectedAtOpenOrByVerify() throws IOException {
    List<Src> ranges = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      BigInteger s = v6("2a02::").add(BigInteger.valueOf(i).shiftLeft(90));
      ranges.add(new Src(s, s.add(BigInteger.valueOf(99)), "n" + i % 9));
    }
    Path file = build(ranges, OverlapPolicy.FAIL);
    IndexHeader h = Loader.readHeader(file);
    SectionEntry e = h.find(Section.PREFIX6);
    long section = e.offset();
    byte[] good = Files.readAllBytes(file);
    int root = SearchInternals.root(Loader.NIO.load(file).asRanges().starts6().tables(), 0x2a02);
    assertTrue(root >= Prefix6.MAP_INTS);
    int rows = Loader.NIO.load(file).asRanges().ipv6Size(); // the ranges and the gaps after them

    // A bucket's first row beyond the rows: every checking loader refuses the file.
    Files.write(file, BadFixtures.setInt(good, h, Section.PREFIX6, root + 3 + 5, rows + 1));
    Loaders.rejectedAtOpen(
        file,
        file
            + ": section 'prefix6' at offset "
            + (section + 4L * (root + 3 + 5))
            + ": expected block 10754, table at element "
            + root
            + ", bucket 5: a row in [0, "
            + rows
            + "], found "
            + (rows + 1));

    // A table that names itself as its child: a walk would never end.
    Files.write(file, BadFixtures.setInt(good, h, Section.PREFIX6, root + 3 + 7, ~root));
    Loaders.rejectedAtOpen(
        file,
        file
            + ": section 'prefix6' at offset "
            + (section + 4L * (root + 3 + 7))
            + ": expected block 10754, table at element "
            + root
            + ", bucket 7: a row in [0, "
            + rows
            + "] or a table after it, found "
            + ~root);

    // A first row still within the rows but wrong: the loaders open it, verify finds it.
    Files.write(file, good);
    Prefix6 t = Loader.NIO.load(file).asRanges().starts6().tables();
    int q = 9;
    int value = SearchInternals.element(t, root + 3 + q);
    assertTrue(value > 0, "bucket 9 is a row, not a table");
    Files.write(file, BadFixtures.setInt(good, h, Section.PREFIX6, root + 3 + q, value - 1));
    for (IndexLoader l : Loaders.all()) {
      assertNotNull(l.load(file));
    }
    CorruptIndexException ex =
        assertThrows(CorruptIndexException.class, () -> IndexVerifier.verify(file));
    assertEquals(
        file
            + ": section 'prefix6' at offset "
            + (section + 4L * (root + 3 + q))
            + ": expected block 10754, table at element "
            + root
            + ", bucket "
            + q
            + ": row "
            + value
            + ", found "
            + (value - 1),
        ex.getMessage());
  }

  private Path build(List<Src> ranges, OverlapPolicy policy) throws IOException {
    return Ranges6.build(dir, List.of(), ranges, policy);
  }

  /**
   * Builds the ranges, checks the file has the tables and passes verify, then looks up, on every
   * loader, single and batch: every start and end and the addresses beside them, random addresses
   * in the ranges, random addresses of 2000::/3, and the edges of the space.
   */
  private void checkAgainstReference(List<Src> ranges, OverlapPolicy policy, long seed)
      throws IOException {
    Path file = build(ranges, policy);
    IndexHeader h = Loader.readHeader(file);
    assertNotNull(h.find(Section.PREFIX6), "the dense blocks have tables");
    IndexVerifier.verify(file);

    // Reference: narrowest wins for the one nesting case; else no two ranges overlap.
    TreeMap<BigInteger, Src> starts = new TreeMap<>();
    Src everywhere = null;
    for (Src s : ranges) {
      if (s.start.signum() == 0 && s.end.equals(MAX)) {
        everywhere = s;
      } else {
        starts.put(s.start, s);
      }
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<BigInteger> queries = new ArrayList<>();
    for (Src s : ranges) {
      queries.add(s.start);
      queries.add(s.end);
      queries.add(s.start.subtract(BigInteger.ONE).max(BigInteger.ZERO));
      queries.add(s.end.add(BigInteger.ONE).min(MAX));
      BigInteger span = s.end.subtract(s.start);
      queries.add(
          s.start.add(
              new BigInteger(128, new java.util.Random(rnd.nextLong()))
                  .mod(span.add(BigInteger.ONE))));
    }
    for (int i = 0; i < 20_000; i++) {
      queries.add(v6("2000::").add(new BigInteger(125, new java.util.Random(rnd.nextLong()))));
    }
    for (String edge :
        new String[] {
          "::",
          "::1",
          "1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
          "2000::",
          "2000::1",
          "3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
          "4000::",
          "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"
        }) {
      queries.add(v6(edge));
    }
    // The IPv4-mapped block answers as IPv4 (no IPv4 ranges here): leave it out of the reference.
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
      Src in = f != null && f.getValue().end.compareTo(a) >= 0 ? f.getValue() : null;
      want[i] = in != null ? in.label : everywhere != null ? everywhere.label : null;
    }
    for (IndexLoader l : Loaders.all()) {
      IpRanges r = l.load(file).asRanges();
      int[] batch = new int[n];
      r.labelIds(hi, lo, n, batch);
      for (int i = 0; i < n; i++) {
        String where = l.loaderName() + " " + text(queries.get(i));
        assertEquals(want[i], r.label(hi[i], lo[i]), where);
        assertEquals(want[i], batch[i] < 0 ? null : r.labelText(batch[i]), where + " (batch)");
      }
    }
  }
}
