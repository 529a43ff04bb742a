/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexLoader;
import io.spindex.index.IndexVerifier;
import io.spindex.index.IpRanges;
import io.spindex.index.Loader;
import io.spindex.index.ProductIndex;
import io.spindex.index.SpindexIndex;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Any file given to a loader or the verifier ends in an index or a {@link CorruptIndexException}
 * (the one documented exception); an index that passes {@code verify} answers lookups without
 * throwing. Seeds: the {@code bad/} fixtures and a valid index of each kind (products and
 * dual-stack set and ranges included).
 */
class IndexReaderFuzzTest {
  private static Path file;

  @BeforeAll
  static void setUp() throws IOException {
    file = Files.createTempFile("spindex-fuzz", ".spx");
  }

  @AfterAll
  static void tearDown() throws IOException {
    Files.deleteIfExists(file);
  }

  @FuzzTest(maxDuration = "")
  void anyFile(byte[] data) throws IOException {
    Files.write(file, data);
    for (IndexLoader l : new IndexLoader[] {Loader.IO, Loader.NIO, Loader.MAPPED}) {
      try {
        l.load(file);
      } catch (CorruptIndexException expected) {
        // the documented outcome for a broken file
      }
    }
    SpindexIndex index;
    try {
      IndexVerifier.verify(file);
      index = Loader.mappedUnchecked().load(file);
    } catch (CorruptIndexException expected) {
      return;
    }
    if (index instanceof ProductIndex) {
      ProductIndex p = (ProductIndex) index;
      for (String id : new String[] {"", "P001", "P1000000000"}) {
        byte[] b = id.getBytes(StandardCharsets.UTF_8);
        int row = p.rowOfId(b, 0, b.length);
        if (row != ProductIndex.NONE) {
          p.id(row);
        }
      }
      for (int row = 0; row < Math.min(p.size(), 3); row++) {
        p.id(row);
        p.pricePc(row);
        p.contentHash(row);
        p.row(p.idHashOf(row));
      }
      return;
    }
    for (int a : new int[] {0, -1, 0x0A000001, 0x7FFFFFFF, 0x80000000, 0x01000100}) {
      if (index instanceof IpRanges) {
        IpRanges r = (IpRanges) index;
        int id = r.labelId(a);
        if (id != IpRanges.NONE) {
          r.labelText(id);
        }
      } else {
        index.asSet().contains(a);
      }
    }
    long[][] v6 = {
      {0, 0},
      {-1L, -1L},
      {0, 0xFFFF_0A00_0001L},
      {0x20010DB800000000L, 1},
      {0x2A00_0000_0000_0000L, 0}
    };
    for (long[] a : v6) {
      if (index instanceof IpRanges) {
        IpRanges r = (IpRanges) index;
        int id = r.labelId(a[0], a[1]);
        if (id != IpRanges.NONE) {
          r.labelText(id);
        }
      } else {
        index.asSet().contains(a[0], a[1]);
      }
    }
  }
}
