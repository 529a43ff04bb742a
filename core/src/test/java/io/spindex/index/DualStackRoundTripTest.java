/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.collect.Range;
import com.google.common.collect.RangeMap;
import com.google.common.collect.TreeRangeMap;
import com.google.common.net.InetAddresses;
import io.spindex.builder.BuildReport;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.builder.OverlapPolicy;
import io.spindex.builder.TextLoader;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Dual-stack indexes (IPv4 and IPv6 in one file) built from mixed text and loaded by every loader
 * answer like independent references: a Guava {@link TreeRangeMap} over {@link BigInteger}
 * addresses (filled in the order that makes each overlap policy's winner the one left standing) and
 * a {@link HashSet}. Text of the addresses comes from Guava's {@link InetAddresses}, not from
 * Spindex's formatter.
 */
class DualStackRoundTripTest {
  private static final BigInteger MAX = BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE);
  private static final BigInteger MAPPED = BigInteger.valueOf(0xFFFFL).shiftLeft(32);

  @TempDir Path dir;

  /** One source range: bounds, label, input position. */
  private static final class Src {
    final BigInteger start;
    final BigInteger end;
    final String label;
    final int order;

    Src(BigInteger start, BigInteger end, String label, int order) {
      this.start = start;
      this.end = end;
      this.label = label;
      this.order = order;
    }
  }

  @ParameterizedTest(name = "on overlap: {0}")
  @EnumSource(
      value = OverlapPolicy.class,
      names = {"NARROWEST", "FIRST", "LAST"})
  void rangesAgreeWithRangeMap(OverlapPolicy policy) throws IOException {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Src> v6 = new ArrayList<>();
    List<Src> v4 = new ArrayList<>();
    int order = 0;
    // Nested and partly overlapping IPv6 blocks in a few /16s, as real data clusters.
    for (int i = 0; i < 3000; i++) {
      BigInteger base = BigInteger.valueOf(0x2a00 + rnd.nextInt(4)).shiftLeft(112);
      int len = 20 + rnd.nextInt(109);
      BigInteger size = BigInteger.ONE.shiftLeft(128 - len);
      BigInteger start =
          base.add(new BigInteger(112, new java.util.Random(rnd.nextLong())))
              .divide(size)
              .multiply(size);
      BigInteger end = start.add(size).subtract(BigInteger.ONE);
      if (rnd.nextInt(5) == 0) {
        end = start.add(BigInteger.valueOf(rnd.nextInt(1000))); // not a CIDR block
      }
      v6.add(new Src(start, end, "v6-" + rnd.nextInt(200), order++));
    }
    // The edges of the space, and ranges across the IPv4-mapped block (stored as IPv4 there).
    v6.add(new Src(BigInteger.ZERO, BigInteger.TEN, "low", order++));
    v6.add(new Src(MAX.subtract(BigInteger.TEN), MAX, "high", order++));
    v6.add(
        new Src(MAPPED.subtract(BigInteger.TWO), MAPPED.add(BigInteger.valueOf(5)), "x", order++));
    v6.add(
        new Src(
            MAPPED.add(BigInteger.valueOf(0xFFFF_FFF0L)),
            MAPPED.add(BigInteger.ONE.shiftLeft(32)).add(BigInteger.ONE),
            "y",
            order++));
    for (int i = 0; i < 500; i++) {
      long s = rnd.nextLong(1L << 32);
      long e = Math.min((1L << 32) - 1, s + rnd.nextLong(1L << 20));
      v4.add(new Src(BigInteger.valueOf(s), BigInteger.valueOf(e), "v4-" + i % 50, order++));
    }
    // Mixed lines: one file with both families, one with IPv6 only.
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    for (Src s : v4) {
      a.add(v4Text(s.start) + "," + v4Text(s.end) + "," + s.label);
    }
    for (Src s : v6) {
      String line = text(s.start, rnd) + "," + text(s.end, rnd) + "," + s.label;
      (rnd.nextBoolean() ? a : b).add(line);
    }
    Collections.shuffle(a, new java.util.Random(seed));
    Path fa = dir.resolve("a.csv");
    Path fb = dir.resolve("b.csv");
    Files.write(fa, a, StandardCharsets.UTF_8);
    Files.write(fb, b, StandardCharsets.UTF_8);
    // The sources in input order (file a, then file b), in one 128-bit space: an IPv4 range at
    // ::ffff:a.b.c.d, where the index answers IPv4-mapped addresses. A range across the edge of
    // that block is, as the build stores it, a range per side.
    List<Src> sources = new ArrayList<>();
    int n = 0;
    for (List<String> file : List.of(a, b)) {
      for (String line : file) {
        String[] f = line.split(",", 3);
        BigInteger start = parse(f[0]);
        BigInteger end = parse(f[1]);
        if (!f[0].contains(":")) {
          sources.add(new Src(MAPPED.add(start), MAPPED.add(end), f[2], n++));
          continue;
        }
        BigInteger[] cuts = {BigInteger.ZERO, MAPPED, MAPPED.add(BigInteger.ONE.shiftLeft(32))};
        for (int c = 0; c < cuts.length; c++) {
          BigInteger from = start.max(cuts[c]);
          BigInteger to = c + 1 < cuts.length ? end.min(cuts[c + 1].subtract(BigInteger.ONE)) : end;
          if (from.compareTo(to) <= 0) {
            sources.add(new Src(from, to, f[2], n));
          }
        }
        n++;
      }
    }
    // TreeRangeMap.put overwrites: put the policy's losers first and its winners last.
    Comparator<Src> putOrder;
    switch (policy) {
      case LAST:
        putOrder = Comparator.comparingInt(s -> s.order);
        break;
      case FIRST:
        putOrder = Comparator.<Src>comparingInt(s -> s.order).reversed();
        break;
      default:
        putOrder =
            Comparator.<Src, BigInteger>comparing(s -> s.end.subtract(s.start))
                .reversed()
                .thenComparing(Comparator.<Src>comparingInt(s -> s.order).reversed());
    }
    RangeMap<BigInteger, String> reference = TreeRangeMap.create();
    sources.sort(putOrder);
    for (Src s : sources) {
      reference.put(Range.closed(s.start, s.end), s.label);
    }
    Path idx = dir.resolve("dual.spx");
    new IpRangeBuilder().onOverlap(policy).build(List.of(fa, fb), idx);
    IndexVerifier.verify(idx);
    List<IndexLoader> loaders = Loaders.all();
    loaders.add(TextLoader.ranges(new IpRangeBuilder().onOverlap(policy)));
    for (IndexLoader l : loaders) {
      IpRanges r =
          l.loaderName().equals("text")
              ? new IpRangeBuilder().onOverlap(policy).buildInMemory(List.of(fa, fb))
              : l.load(idx).asRanges();
      String ctx = "seed " + seed + ", loader " + l.loaderName() + ", " + policy;
      List<BigInteger> probes = new ArrayList<>();
      for (Range<BigInteger> k : reference.asMapOfRanges().keySet()) {
        for (BigInteger p : List.of(k.lowerEndpoint(), k.upperEndpoint())) {
          for (int d = -1; d <= 1; d++) {
            BigInteger q = p.add(BigInteger.valueOf(d));
            if (q.signum() >= 0 && q.compareTo(MAX) <= 0) {
              probes.add(q);
            }
          }
        }
      }
      for (int i = 0; i < 5000; i++) {
        probes.add(new BigInteger(128, new java.util.Random(rnd.nextLong())));
        probes.add(
            BigInteger.valueOf(0x2a00 + rnd.nextInt(4))
                .shiftLeft(112)
                .add(new BigInteger(112, new java.util.Random(rnd.nextLong()))));
      }
      long[] his = new long[probes.size()];
      long[] los = new long[probes.size()];
      for (int i = 0; i < his.length; i++) {
        his[i] = probes.get(i).shiftRight(64).longValue();
        los[i] = probes.get(i).longValue();
      }
      int[] batch = new int[his.length];
      int hits = r.labelIds(his, los, his.length, batch);
      int expectedHits = 0;
      for (int i = 0; i < his.length; i++) {
        String expected = reference.get(probes.get(i));
        expectedHits += expected == null ? 0 : 1;
        String got = batch[i] == IpRanges.NONE ? null : r.labelText(batch[i]);
        assertEquals(expected, got, ctx + ", batch probe " + probes.get(i).toString(16));
      }
      assertEquals(expectedHits, hits, ctx + ", batch hits");
      for (BigInteger p : probes) {
        long hi = p.shiftRight(64).longValue();
        long lo = p.longValue();
        String expected = reference.get(p);
        assertEquals(expected, r.label(hi, lo), ctx + ", probe " + p.toString(16));
        if (SpindexIndex.isIpv4Mapped(hi, lo)) {
          assertEquals(expected, r.label((int) lo), ctx + ", as IPv4 " + p.toString(16));
        }
      }
    }
  }

  @Test
  void setAgreesWithHashSet() throws IOException {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    Set<BigInteger> members = new HashSet<>();
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      BigInteger a;
      String text;
      int kind = rnd.nextInt(10);
      if (kind < 4) {
        a = BigInteger.valueOf(rnd.nextLong(1L << 32));
        text = v4Text(a);
        a = MAPPED.add(a);
      } else if (kind == 4) {
        a = MAPPED.add(BigInteger.valueOf(rnd.nextLong(1L << 32)));
        text = "::ffff:" + v4Text(a.subtract(MAPPED));
      } else {
        a = BigInteger.valueOf(0x2001 + rnd.nextInt(3)).shiftLeft(112);
        a = a.add(BigInteger.valueOf(rnd.nextInt(1000)).shiftLeft(64));
        a = a.add(BigInteger.valueOf(rnd.nextInt(50)));
        text = text(a, rnd);
      }
      members.add(a);
      lines.add(text);
    }
    lines.add("::");
    members.add(BigInteger.ZERO);
    lines.add(text(MAX, rnd));
    members.add(MAX);
    Collections.shuffle(lines, new java.util.Random(seed));
    Path src = dir.resolve("ips.txt");
    Files.write(src, lines, StandardCharsets.UTF_8);
    Path idx = dir.resolve("set.spx");
    BuildReport report = new IpSetBuilder().build(List.of(src), idx);
    assertEquals(0L, report.counts().get("rejected"), report.toString());
    IndexVerifier.verify(idx);
    for (IndexLoader l : Loaders.all()) {
      IpSet set = l.load(idx).asSet();
      String ctx = "seed " + seed + ", loader " + l.loaderName();
      List<BigInteger> all = new ArrayList<>();
      for (BigInteger m : members) {
        for (BigInteger p :
            new BigInteger[] {m, m.add(BigInteger.ONE), m.subtract(BigInteger.ONE)}) {
          if (p.signum() >= 0 && p.compareTo(MAX) <= 0) {
            all.add(p);
          }
        }
      }
      long[] his = new long[all.size()];
      long[] los = new long[all.size()];
      for (int i = 0; i < his.length; i++) {
        his[i] = all.get(i).shiftRight(64).longValue();
        los[i] = all.get(i).longValue();
      }
      boolean[] batch = new boolean[his.length];
      set.containsAll(his, los, his.length, batch);
      for (int i = 0; i < his.length; i++) {
        assertEquals(members.contains(all.get(i)), batch[i], ctx + ", batch " + all.get(i));
      }
      for (BigInteger m : members) {
        BigInteger[] near = {m, m.add(BigInteger.ONE), m.subtract(BigInteger.ONE)};
        for (BigInteger p : near) {
          if (p.signum() < 0 || p.compareTo(MAX) > 0) {
            continue;
          }
          long hi = p.shiftRight(64).longValue();
          long lo = p.longValue();
          assertEquals(members.contains(p), set.contains(hi, lo), ctx + ", " + p.toString(16));
        }
      }
    }
  }

  @Test
  void ipv4MappedAddressesAreStoredAsIpv4() throws IOException {
    Path src = dir.resolve("v4.txt");
    Files.write(src, List.of("1.2.3.4", "::ffff:5.6.7.8"), StandardCharsets.UTF_8);
    Path idx = dir.resolve("v4.spx");
    IndexHeader h = new IpSetBuilder().build(List.of(src), idx).header();
    assertEquals(null, h.find(Section.KEYS6_HI), "no IPv6 sections");
    IpSet set = Loader.NIO.load(idx).asSet();
    assertEquals(2, set.size());
    assertEquals(0, set.ipv6Size());
    assertTrue(set.contains(0, 0xFFFF_0506_0708L));
  }

  /** IPv6 text by Guava, written with random case, as the builds must take either. */
  private static String text(BigInteger a, SplittableRandom rnd) {
    byte[] sixteen = new byte[16];
    byte[] raw = a.toByteArray();
    int n = Math.min(raw.length, 16);
    System.arraycopy(raw, raw.length - n, sixteen, 16 - n, n);
    String s;
    try {
      InetAddress addr = InetAddress.getByAddress(sixteen);
      // Java turns IPv4-mapped bytes into an Inet4Address: write those the RFC 5952 way.
      s =
          addr instanceof java.net.Inet4Address
              ? "::ffff:" + InetAddresses.toAddrString(addr)
              : InetAddresses.toAddrString(addr);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
    return rnd.nextBoolean() ? s.toUpperCase(java.util.Locale.ROOT) : s;
  }

  private static String v4Text(BigInteger a) {
    long v = a.longValue();
    return (v >>> 24) + "." + ((v >>> 16) & 255) + "." + ((v >>> 8) & 255) + "." + (v & 255);
  }

  /** Guava's value of address text; it reads {@code ::ffff:a.b.c.d} as the IPv4 address. */
  private static BigInteger parse(String s) {
    InetAddress addr = InetAddresses.forString(s);
    BigInteger v = new BigInteger(1, addr.getAddress());
    return addr instanceof java.net.Inet4Address && s.contains(":") ? MAPPED.add(v) : v;
  }
}
