/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.gen.AccessLogGenerator;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.Loader;
import io.spindex.text.AddressText;
import io.spindex.text.Ipv4Text;
import io.spindex.text.RejectReason;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LineLookupTest {
  private static final long SEED = 20240611L;
  @TempDir static Path dir;

  /** Reference: range start -> {end, label}; the answer is the floor entry if it covers. */
  private static final TreeMap<Long, Object[]> RANGES = new TreeMap<>();

  private static final Set<Long> SET = new HashSet<>();
  private static final List<String> LINES = new ArrayList<>();

  @BeforeAll
  static void indexes() throws Exception {
    Random rnd = new Random(SEED);
    List<long[]> ranges = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    long at = 0;
    while (true) {
      at += 1 + (long) (rnd.nextDouble() * 40_000_000L);
      long end = at + (long) (rnd.nextDouble() * 30_000_000L);
      if (end > 0xFFFF_FFFFL) {
        break;
      }
      String label = "region-" + rnd.nextInt(20) + (rnd.nextInt(10) == 0 ? "\tλ" : "");
      ranges.add(new long[] {at, end});
      labels.add(label);
      RANGES.put(at, new Object[] {end, label});
      at = end;
    }
    TestIndexes.writeRanges(
        dir.resolve("r.spx"), ranges.toArray(new long[0][]), labels.toArray(new String[0]));
    int[] set = new int[5000];
    for (int i = 0; i < set.length; i++) {
      set[i] = rnd.nextInt();
      SET.add(Integer.toUnsignedLong(set[i]));
    }
    TestIndexes.writeSet(dir.resolve("s.spx"), set);
    AccessLogGenerator gen = new AccessLogGenerator(SEED, 50);
    for (int i = 0; i < 20_000; i++) {
      // Some lines use addresses of the set so that set lookups hit.
      LINES.add(i % 7 == 0 ? Ipv4Text.format(set[i % set.length]) + " x" : gen.text(i));
    }
  }

  private static String referenceLabel(long a) {
    Map.Entry<Long, Object[]> e = RANGES.floorEntry(a);
    return e != null && (Long) e.getValue()[0] >= a ? (String) e.getValue()[1] : "\\N";
  }

  @ParameterizedTest
  @EnumSource(Loader.class)
  void annotateRangesMatchesTheTreeMap(Loader loader) throws Exception {
    SpindexIndex index = loader.load(dir.resolve("r.spx"));
    LineLookup lookup = new LineLookup(IpLocator.first(), index, LookupMode.ANNOTATE, true);
    long hits = 0;
    for (String line : LINES) {
      byte[] b = line.getBytes(StandardCharsets.UTF_8);
      int r = lookup.apply(b, 0, b.length);
      long a = IpLocator.first().locate(b, 0, b.length);
      if (a < 0) {
        assertEquals(LineLookup.REJECTED, r, line);
        assertEquals(RejectReason.ofCode(a), lookup.lastReject());
        continue;
      }
      String label = referenceLabel(a);
      hits += label.equals("\\N") ? 0 : 1;
      assertEquals(LineLookup.WRITE_OUT, r);
      String out = new String(lookup.out(), 0, lookup.outLength(), StandardCharsets.UTF_8);
      assertEquals(line + "\t" + label, out);
    }
    LookupCounts c = lookup.counts();
    assertTrue(c.balanced(), c.toString());
    assertEquals(LINES.size(), c.linesIn());
    assertEquals(hits, c.hits());
    assertTrue(c.rejected() > 0 && c.hits() > 0 && c.misses() > 0, c.toString());
  }

  @Test
  void filterSetKeepsHitsOrMisses() throws Exception {
    SpindexIndex index = Loader.NIO.load(dir.resolve("s.spx"));
    for (boolean keepHits : new boolean[] {true, false}) {
      LineLookup lookup =
          new LineLookup(IpLocator.parse("0", "space"), index, LookupMode.FILTER, keepHits);
      long kept = 0;
      for (String line : LINES) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        int r = lookup.apply(b, 0, b.length);
        long a = AddressText.parse(line.split(" ", -1)[0], AddressText.PLAIN, new long[2]);
        if (r == LineLookup.REJECTED) {
          assertTrue(a < 0 || line.trim().isEmpty(), line);
          continue;
        }
        boolean keep = SET.contains(a) == keepHits;
        assertEquals(keep ? LineLookup.WRITE_INPUT : LineLookup.FILTERED, r, line);
        kept += keep ? 1 : 0;
      }
      LookupCounts c = lookup.counts();
      assertEquals(kept, c.linesOut());
      assertTrue(c.balanced(), c.toString());
      assertTrue(c.linesOut() > 0 && c.filtered() > 0, c.toString());
    }
  }

  @Test
  void countPerLabelMatchesTheReference() throws Exception {
    SpindexIndex index = Loader.MAPPED.load(dir.resolve("r.spx"));
    LineLookup lookup = new LineLookup(IpLocator.first(), index, LookupMode.COUNT, true);
    Map<String, Long> want = new HashMap<>();
    for (String line : LINES) {
      byte[] b = line.getBytes(StandardCharsets.UTF_8);
      if (lookup.apply(b, 0, b.length) == LineLookup.COUNTED) {
        long a = IpLocator.first().locate(b, 0, b.length);
        want.merge(referenceLabel(a), 1L, Long::sum);
      }
    }
    Map<String, Long> got = new HashMap<>();
    lookup.drainCounts((label, n) -> got.put(new String(label, StandardCharsets.UTF_8), n));
    assertEquals(want, got);
    Map<String, Long> again = new HashMap<>();
    lookup.drainCounts((label, n) -> again.put(new String(label, StandardCharsets.UTF_8), n));
    assertTrue(again.isEmpty(), "drained counts are reset");
    assertTrue(lookup.counts().balanced());
  }

  @Test
  void rejectRecordNamesReasonAndPosition() throws Exception {
    SpindexIndex index = Loader.IO.load(dir.resolve("s.spx"));
    LineLookup lookup = new LineLookup(IpLocator.first(), index, LookupMode.ANNOTATE, true);
    byte[] b = "xx - no address here".getBytes(StandardCharsets.UTF_8);
    assertEquals(LineLookup.REJECTED, lookup.apply(b, 3, b.length));
    int n =
        lookup.rejectRecord(
            "hdfs://nn/logs/a.gz".getBytes(StandardCharsets.UTF_8), 1234, b, 3, b.length);
    assertArrayEquals(
        "hdfs://nn/logs/a.gz\t1234\tno-ip-found\t\t- no address here"
            .getBytes(StandardCharsets.UTF_8),
        java.util.Arrays.copyOf(lookup.out(), n));
    assertEquals(1, lookup.counts().rejects(RejectReason.NO_IP_FOUND));
  }

  /**
   * The batch path ({@link LineBatch} and {@link LineLookup#applyAll}, what the jobs run) against
   * the one-line path ({@link LineLookup#apply}, which the other tests check against references):
   * same result per line, same records, same counts, for both index kinds, every mode, batches of
   * every size, with rejects and lines longer than the batch's first buffer mixed in.
   */
  @Test
  void applyAllEqualsApplyLineByLine() throws Exception {
    List<String> lines = new ArrayList<>(LINES);
    for (int i = 0; i < lines.size(); i += 97) {
      lines.set(i, i % 2 == 0 ? "   " : "no address on this line");
    }
    // Long lines grow the batch's buffer: one annotated, one rejected.
    lines.set(5, "1.2.3.4 " + "x".repeat(70_000));
    lines.set(6, "no address " + "y".repeat(70_000));
    Random rnd = new Random(SEED);
    for (String file : new String[] {"r.spx", "s.spx"}) {
      SpindexIndex index = Loader.MAPPED.load(dir.resolve(file));
      for (LookupMode mode : LookupMode.values()) {
        for (boolean keepHits : new boolean[] {true, false}) {
          String what = file + " " + mode + " keep hits " + keepHits;
          LineLookup one = new LineLookup(IpLocator.first(), index, mode, keepHits);
          LineLookup batchLookup = new LineLookup(IpLocator.first(), index, mode, keepHits);
          byte[] source = "src".getBytes(StandardCharsets.US_ASCII);
          LineBatch batch = new LineBatch(); // reused: cleared before each batch
          int at = 0;
          while (at < lines.size()) {
            int n = Math.min(1 + rnd.nextInt(LineLookup.BATCH), lines.size() - at);
            batch.clear();
            for (int i = 0; i < n; i++) {
              // Each line after a few bytes of something else, as in a record reader's buffer.
              byte[] l = ("xyz" + lines.get(at + i)).getBytes(StandardCharsets.UTF_8);
              assertEquals(i == LineLookup.BATCH - 1, batch.add(l, 3, l.length - 3, at + i));
            }
            batch.lookUp(batchLookup);
            assertEquals(n, batch.count());
            for (int i = 0; i < n; i++) {
              byte[] l = lines.get(at + i).getBytes(StandardCharsets.UTF_8);
              int expected = one.apply(l, 0, l.length);
              assertEquals(expected, batch.result(i), what + ", line " + (at + i));
              assertArrayEquals(
                  l,
                  Arrays.copyOfRange(
                      batch.bytes(), batch.from(i), batch.from(i) + batch.length(i)));
              if (expected == LineLookup.WRITE_OUT) {
                batch.select(batchLookup, i);
                assertArrayEquals(
                    Arrays.copyOf(one.out(), one.outLength()),
                    Arrays.copyOf(batchLookup.out(), batchLookup.outLength()),
                    what + ", line " + (at + i));
              } else if (expected == LineLookup.REJECTED) {
                int m = one.rejectRecord(source, at + i, l, 0, l.length);
                byte[] oneRecord = Arrays.copyOf(one.out(), m);
                int k = batch.rejectRecord(batchLookup, source, i);
                assertEquals(one.lastReject(), batchLookup.lastReject(), what);
                assertArrayEquals(oneRecord, Arrays.copyOf(batchLookup.out(), k), what);
              }
            }
            at += n;
          }
          assertEquals(one.counts().toString(), batchLookup.counts().toString(), what);
          Map<String, Long> oneCounts = new HashMap<>();
          one.drainCounts(
              (label, c) -> oneCounts.put(new String(label, StandardCharsets.UTF_8), c));
          Map<String, Long> batchCounts = new HashMap<>();
          batchLookup.drainCounts(
              (label, c) -> batchCounts.put(new String(label, StandardCharsets.UTF_8), c));
          assertEquals(oneCounts, batchCounts, what);
          assertTrue(one.counts().rejected() > 0, what);
        }
      }
    }
  }
}
