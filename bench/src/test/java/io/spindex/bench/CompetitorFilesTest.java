/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.maxmind.db.Reader;
import io.spindex.index.IpRanges;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lionsoul.ip2region.xdb.Searcher;

/**
 * The competitors' files are written by code in this module (see {@link Ip2RegionXdb} and {@link
 * MmdbWriter}); these tests hold them to the libraries' own readers, edges included.
 */
class CompetitorFilesTest {
  @Test
  void allLibrariesAgreeOnRandomAndEdgeAddresses() throws IOException {
    try (RangeData d = RangeData.create(3_000)) {
      d.check(BenchFiles.randomAddresses(50_000, 99));
      RangeTable t = RangeTable.of(io.spindex.index.load.Loader.MAPPED.load(d.index).asRanges());
      int[] edges = new int[t.size() * 4 + 2];
      int k = 0;
      for (int i = 0; i < t.size(); i++) {
        edges[k++] = (int) t.starts[i];
        edges[k++] = (int) t.ends[i];
        edges[k++] = (int) t.starts[i] - 1;
        edges[k++] = (int) t.ends[i] + 1;
      }
      edges[k++] = 0;
      edges[k] = -1;
      d.check(edges);
    }
  }

  @Test
  void gapsAreUnknownToEveryLibrary() throws IOException {
    try (RangeData d = RangeData.create(2_000)) {
      RangeTable t = RangeTable.of(io.spindex.index.load.Loader.NIO.load(d.index).asRanges());
      Searcher ip2r = Searcher.newWithBuffer(Searcher.loadContentFromFile(d.xdb.toString()));
      try (Reader mm = new Reader(d.mmdb.toFile(), Reader.FileMode.MEMORY)) {
        int gaps = 0;
        for (int i = 1; i < t.size(); i++) {
          if (t.starts[i] > t.ends[i - 1] + 1) {
            int a = (int) (t.ends[i - 1] + 1);
            assertEquals(Ip2RegionXdb.GAP, ip2r.search(a & 0xFFFFFFFFL));
            assertNull(mm.get(RangeData.inet(a), Map.class));
            gaps++;
          }
        }
        assertEquals(true, gaps > 50, "generated ranges should have gaps: " + gaps);
      }
    }
  }

  @Test
  void allLibrariesAgreeOnIpv6RandomAndEdgeAddresses() throws IOException {
    // Chunks of 1,000 rows: the text stacks five generator runs in five /12s of each registry.
    try (Range6Data d = Range6Data.create(5_000, 1_000)) {
      d.check(d.pool("ranges"), AddressPool.SIZE);
      d.check(d.pool("uniform"), AddressPool.SIZE);
      Range6Table t = d.table;
      int n = t.size() * 4 + 4;
      long[] hi = new long[n];
      long[] lo = new long[n];
      int k = 0;
      for (int i = 0; i < t.size(); i++) {
        hi[k] = t.startHi[i];
        lo[k++] = t.startLo[i];
        hi[k] = t.endHi[i];
        lo[k++] = t.endLo[i];
        hi[k] = t.startLo[i] == 0 ? t.startHi[i] - 1 : t.startHi[i]; // start - 1
        lo[k++] = t.startLo[i] - 1;
        hi[k] = t.endLo[i] == -1L ? t.endHi[i] + 1 : t.endHi[i]; // end + 1
        lo[k++] = t.endLo[i] + 1;
      }
      hi[k] = 0x2000_0000_0000_0000L; // 2000::
      lo[k++] = 0;
      hi[k] = 0x3FFF_FFFF_FFFF_FFFFL; // the last address of 2000::/3
      lo[k++] = -1L;
      hi[k] = 0; // ::
      lo[k++] = 0;
      hi[k] = -1L; // ffff:...:ffff
      lo[k] = -1L;
      d.check(hi, lo, n);
      Ip2Region3.verify(d.xdb);
    }
  }

  @Test
  void ipv6TextIsStackedInDisjointRegistryBlocks() throws IOException {
    try (Range6Data d = Range6Data.create(5_000, 1_000)) {
      Range6Table t = d.table;
      assertEquals(5_000, t.size());
      java.util.Set<Long> blocks = new java.util.TreeSet<>();
      for (int i = 0; i < t.size(); i++) {
        assertEquals(1, t.startHi[i] >>> 61, "in 2000::/3");
        if (i > 0) {
          assertEquals(
              true,
              Range6Table.compare(t.endHi[i - 1], t.endLo[i - 1], t.startHi[i], t.startLo[i]) < 0);
        }
        blocks.add(t.startHi[i] >>> 52); // the /12
      }
      assertEquals(
          true, blocks.contains(0x2a0L) && blocks.contains(0x2a4L), "chunks 0 and 4: " + blocks);
    }
  }

  @Test
  void everyIpv6RecordSizeReadsTheSame() throws IOException {
    try (Range6Data d = Range6Data.create(2_000)) {
      Address6Pool pool = d.pool("ranges");
      Address6Pool misses = d.pool("uniform");
      for (int size : new int[] {24, 28, 32}) {
        java.nio.file.Path f = d.dir.resolve("r" + size + ".mmdb");
        MmdbWriter.writeIpv6(d.table, f, size);
        try (Reader mm = new Reader(f.toFile(), Reader.FileMode.MEMORY)) {
          for (int i = 0; i < 20_000; i++) {
            for (Address6Pool p : new Address6Pool[] {pool, misses}) {
              assertEquals(
                  d.table.label(p.hi[i], p.lo[i]),
                  RangeData.labelOf(mm.get(Address6Pool.inet(p.hi[i], p.lo[i]), Map.class)),
                  "record size " + size);
            }
          }
        }
      }
    }
  }

  /**
   * The City-shaped database ({@link MmdbWriter#writeRecords}: pointers of every size up to 4
   * bytes, the smallest record size, 24 bits at this size) reads back through MaxMind's reader with
   * the same seven values as the index built from it, at every row's edges and around them.
   */
  @Test
  void cityDatabaseAndItsIndexAgreeAtEveryEdge() throws IOException {
    CityData d = CityData.open(60_000, true);
    try {
      assertTrue(d.stats.networks > d.stats.rows && d.stats.rows > 4 * d.stats.records);
      IpRanges spx = Loader.MAPPED.load(d.index).asRanges();
      RangeTable t = RangeTable.of(spx);
      int[] edges = new int[t.size() * 4];
      for (int i = 0; i < t.size(); i++) {
        edges[4 * i] = (int) t.starts[i];
        edges[4 * i + 1] = (int) t.ends[i];
        edges[4 * i + 2] = (int) t.starts[i] - 1;
        edges[4 * i + 3] = (int) t.ends[i] + 1;
      }
      d.check(spx, edges);
      try (Reader mm = new Reader(d.mmdb.toFile())) {
        assertEquals("Spindex-Bench-City", mm.getMetadata().getDatabaseType());
        assertTrue(
            mm.getMetadata().toString().contains("recordSize=24"), mm.getMetadata()::toString);
      }
      assertTrue(d.stats.mmdbBytes > 1 << 20, "data past the 3-byte pointers' reach");
    } finally {
      BenchFiles.delete(d.dir);
    }
  }

  @Test
  void naiveParserMatchesTheArticle() {
    assertEquals(Integer.MIN_VALUE, NaiveIpText.ip2integer("0.0.0.0"));
    assertEquals(Integer.MAX_VALUE, NaiveIpText.ip2integer("255.255.255.255"));
    assertEquals(0x01020304 ^ 0x80000000, NaiveIpText.ip2integer("1.2.3.4"));
  }
}
