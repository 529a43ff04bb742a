/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.IpRanges;
import io.spindex.index.ProductIndex;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Any file given to a loader or the verifier ends in an index or a {@link CorruptIndexException}
 * (the one documented exception); an index that passes {@code verify} answers lookups without
 * throwing. Seeds: the {@code bad/} fixtures and a valid index of each kind, all made at time 0 by
 * the builders ({@code IpSetBuilder} with the prefix tables off for the small sets): {@code
 * valid-set} (8.8.8.8, 10.0.0.1, 10.0.0.2), {@code v6-set} (1.2.3.4, 10.0.0.1, 2001:db8::1,
 * 2001:db8::2; {@code snapshot-same-header-other-sections}, a finding of the snapshot loader, is
 * the same file), {@code v6-set-optional-section} ({@code v6-set} with an optional section of id
 * 40, format 1.1), {@code valid-set-prefix6} (2001:db8:0::, 2001:db8:3:: … 2001:db8:75:: and
 * 2a00::, {@code ipv6Tables(10000)}: one IPv6 table tree, for block 2001::/16, which 2001:db8:: and
 * 2001:db8:3:: below walk), {@code valid-products} (P001, P002), {@code valid-ranges} (1.0.0.0/24
 * AU, 1.0.1.0–1.0.3.255 CN), {@code v6-ranges} (1.0.0.0/24, 2001:db8::/48, 2001:db8:1::–
 * 2001:db8:1::ff, 2a00::/16), {@code valid-ranges-fields} ({@code --label-fields name,tag} over
 * {@code 0.0.0.0,0.0.0.0,zero|a}, {@code 10.0.0.0/8,ten|"x|y"}, {@code 1.0.1.0/24,one|s} and {@code
 * 2001:db8::/48,v6|b}: labels by field, whose labels 0x0A000001 and 2001:db8:: below read), {@code
 * valid-ranges-gaps} (0.0.0.0, 10.0.0.0/8, 11.0.0.0/24, 11.0.1.0/24, 192.0.2.0/24, ::fffe:0:0/96
 * and three /48s of 2001:db8::/32: eight IPv4 rows and seven IPv6 rows, three of each gaps, one
 * IPv6 gap starting at ::ffff:0:0), {@code valid-ranges-packed} (0.0.0.0, 1.0.1.0/24, 10.0.0.0/20,
 * 10.0.59.0/24, 255.255.255.255 and 2001:db8::/48: nine IPv4 rows of which four gaps, which
 * 0x0A003BC8 below finds in its block, and two IPv6 rows without a column of low halves), {@code
 * valid-ranges-prefix24} ({@code subTables(2, 1000)} over 123 ranges: 0.0.0.0, the 120 /25s of
 * 10.0.0.0–10.0.59.255, 1.0.1.0/24, 255.255.255.255; one sub-table, for 10.0.0.0/16, which
 * 0x0A000001 and 0x0A003BC8 below look up through; {@code prefix16-not-ascending}, a finding of the
 * checksum-fixing target, is it with prefix16 entry 257 made 364) and {@code valid-ranges-rows6}
 * ({@code ipv6Tables(10000)} over the 200 /48s 2001:db8:0::/48, 2001:db8:3::/48 …
 * 2001:db8:255::/48, three small ranges inside 2001:db9::/64 and 2a00::/32: a table for block
 * 2001::/16, three rows flagged).
 */
class IndexReaderFuzzTest {
  private static Path file;

  @BeforeAll
  static void setUp() throws IOException {
    file = Files.createTempFile("spindex-fuzz", ".spx");
    // Every input is written over this one path, faster than its modification time moves: the
    // zero-copy loaders map it as they are (the snapshots have tests of their own).
    Loader.privateCopy(file);
  }

  @AfterAll
  static void tearDown() throws IOException {
    Files.deleteIfExists(file);
  }

  @FuzzTest(maxDuration = "")
  void anyFile(byte[] data) throws IOException {
    Files.write(file, data);
    loadersAgree();
    lookUpIfVerified();
  }

  /**
   * Any bytes with every checksum made right (section CRCs from the directory, then the header's),
   * so that mutations reach the structural checks behind them: every loader ends in an index or a
   * {@link CorruptIndexException}, and the indexes they make give the same answers.
   */
  @FuzzTest(maxDuration = "")
  void checksumsFixed(byte[] data) throws IOException {
    Files.write(file, fixChecksums(data.clone()));
    loadersAgree();
    lookUpIfVerified();
  }

  private static void loadersAgree() throws IOException {
    String first = null;
    for (IndexLoader l : new IndexLoader[] {Loader.IO, Loader.NIO, Loader.MAPPED}) {
      String answers;
      try {
        answers = answers(l.load(file));
      } catch (CorruptIndexException expected) {
        answers = "corrupt"; // the documented outcome for a broken file
      }
      if (first == null) {
        first = answers;
      }
      assertEquals(first, answers, "loader " + l.loaderName());
    }
  }

  /** The answers of an index to a few lookups, as text (any exception fails the target). */
  private static String answers(SpindexIndex index) {
    StringBuilder sb = new StringBuilder(index.kind() + " " + index.size());
    if (index instanceof ProductIndex) {
      return sb.toString();
    }
    for (int a : new int[] {0, -1, 0x0A000001, 0x0A003BC8, 0x01000100}) {
      sb.append(' ')
          .append(
              index instanceof IpRanges ? index.asRanges().label(a) : index.asSet().contains(a));
    }
    for (long hi : new long[] {0, 0x20010DB800000000L, 0x20010DB800030000L, -1L}) {
      sb.append(' ')
          .append(
              index instanceof IpRanges
                  ? index.asRanges().label(hi, 1)
                  : index.asSet().contains(hi, 1));
    }
    return sb.toString();
  }

  /** Recomputes every in-bounds section CRC32C named by the directory, then the header's. */
  private static byte[] fixChecksums(byte[] b) {
    if (b.length < 128) {
      return b;
    }
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    long n = Integer.toUnsignedLong(bb.getInt(40));
    if (n > 64 || 128 + 32 * n > b.length) {
      return b;
    }
    for (int i = 0; i < n; i++) {
      int at = 128 + 32 * i;
      long offset = bb.getLong(at + 8);
      long length = bb.getLong(at + 16);
      if (offset >= 0 && length >= 0 && offset <= b.length && length <= b.length - offset) {
        CRC32C crc = new CRC32C();
        crc.update(b, (int) offset, (int) length);
        bb.putInt(at + 24, (int) crc.getValue());
      }
    }
    CRC32C crc = new CRC32C();
    crc.update(b, 0, 124);
    crc.update(b, 128, (int) (32 * n));
    bb.putInt(124, (int) crc.getValue());
    return b;
  }

  private static void lookUpIfVerified() throws IOException {
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
    for (int a : new int[] {0, -1, 0x0A000001, 0x0A003BC8, 0x7FFFFFFF, 0x80000000, 0x01000100}) {
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
      {0x20010DB800030000L, 5},
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
