/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.maxmind.db.Reader;
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
    try (RangeData d = RangeData.create(3_000, true)) {
      d.check(BenchFiles.randomAddresses(50_000, 99));
      RangeTable t = RangeTable.of(io.spindex.index.Loader.MAPPED.load(d.indexNoPrefix).asRanges());
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
    try (RangeData d = RangeData.create(2_000, false)) {
      RangeTable t = RangeTable.of(io.spindex.index.Loader.NIO.load(d.index).asRanges());
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
  void naiveParserMatchesTheArticle() {
    assertEquals(Integer.MIN_VALUE, NaiveIpText.ip2integer("0.0.0.0"));
    assertEquals(Integer.MAX_VALUE, NaiveIpText.ip2integer("255.255.255.255"));
    assertEquals(0x01020304 ^ 0x80000000, NaiveIpText.ip2integer("1.2.3.4"));
  }
}
