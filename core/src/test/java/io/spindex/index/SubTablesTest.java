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

import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import io.spindex.index.search.SubTables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The /24 sub-tables ({@code prefix24}): which blocks get one, and the corrupt-file cases of the
 * section (the bad-fixture matrix for this section, made here rather than committed: every such
 * file carries the 256 KiB prefix table). The lookups through the sub-tables are checked against a
 * reference in {@code ShapedLookupTest}.
 */
class SubTablesTest {
  @TempDir Path dir;
  private Path text;

  /**
   * Block 10.1 holds 300 ranges of 100 addresses, each with a gap after it (dense: 600 rows); block
   * 10.2 holds 20 touching ones; two more ranges lie elsewhere.
   */
  @BeforeEach
  void ranges() throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("1.0.0.0|1.0.0.255|AU");
    for (int i = 0; i < 300; i++) {
      int a = (10 << 24 | 1 << 16) + i * 200;
      lines.add(quad(a) + "|" + quad(a + 99) + "|dense " + i % 7);
    }
    for (int i = 0; i < 20; i++) {
      int a = (10 << 24 | 2 << 16) + i * 1000;
      lines.add(quad(a) + "|" + quad(a + 999) + "|sparse " + i);
    }
    lines.add("200.0.0.0|200.255.255.255|last");
    text = dir.resolve("ranges.txt");
    Files.write(text, lines, StandardCharsets.UTF_8);
  }

  private Path build(IpRangeBuilder b) throws IOException {
    Path out = dir.resolve("ranges.spx");
    b.delimiter('|').createdMillis(0).build(List.of(text), out);
    return out;
  }

  @Test
  void denseBlocksGetTablesWithinTheBudget() throws IOException {
    // Defaults: 322 ranges are far too few to pay for the 128 KiB block map.
    Path plain = build(new IpRangeBuilder());
    assertNull(Loader.readHeader(plain).find(Section.PREFIX24));

    // Blocks of more than 64 ranges, counted in rows: 64 times the file's rows a range.
    Path dense = build(new IpRangeBuilder().subTables(64, 1000));
    IndexHeader h = Loader.readHeader(dense);
    IpRanges r = Loader.NIO.load(dense).asRanges();
    SubTables sub = r.subTables();
    assertEquals(1, sub.tables(), "only block 10.1 has more than 64 rows");
    assertEquals(SubTables.MAP_INTS + SubTables.TABLE_INTS, h.find(Section.PREFIX24).elements());
    int block = 10 << 8 | 1;
    assertEquals(1, sub.mapEntry(block));
    assertEquals(0, sub.mapEntry(10 << 8 | 2));
    // /24 q of block 10.1 starts at address q * 256 of the block; range i starts at i * 200,
    // the gap after it at i * 200 + 100.
    int table = sub.of(block);
    for (int q = 0; q < 256; q++) {
      int before = 0;
      for (int i = 0; i < 300; i++) {
        before += (i * 200 < q * 256 ? 1 : 0) + (i * 200 + 100 < q * 256 ? 1 : 0);
      }
      assertEquals(before, sub.before(table, q), "/24 " + q);
    }
    IndexVerifier.verify(dense);

    Path both = build(new IpRangeBuilder().subTables(10, 1000));
    assertEquals(2, Loader.NIO.load(both).asRanges().subTables().tables());
  }

  @Test
  void aWrongEntryIsFoundByVerify() throws IOException {
    Path dense = build(new IpRangeBuilder().subTables(64, 1000));
    IndexHeader h = Loader.readHeader(dense);
    // Element MAP_INTS + 3 holds entries 6 and 7 of the first sub-table: 16 and 18 rows before
    // 10.1.6.0 and 10.1.7.0; make entry 6 say 15 (still within the block: every loader opens it).
    byte[] bad =
        BadFixtures.setInt(
            Files.readAllBytes(dense), h, Section.PREFIX24, SubTables.MAP_INTS + 3, 18 << 16 | 15);
    Files.write(dense, bad);
    for (IndexLoader l : Loaders.all()) {
      assertNotNull(l.load(dense));
    }
    CorruptIndexException e =
        assertThrows(CorruptIndexException.class, () -> IndexVerifier.verify(dense));
    long at = h.find(Section.PREFIX24).offset() + 4L * SubTables.MAP_INTS + 2 * 6;
    assertEquals(
        dense
            + ": section 'prefix24' at offset "
            + at
            + ": expected block 2561, /24 6: 16 rows before 10.1.6.0, found 15",
        e.getMessage());
  }

  @Test
  void entriesOutsideTheirBlockAreRejectedAtOpen() throws IOException {
    Path dense = build(new IpRangeBuilder().subTables(64, 1000));
    IndexHeader h = Loader.readHeader(dense);
    long section = h.find(Section.PREFIX24).offset();
    byte[] good = Files.readAllBytes(dense);
    int block = 10 << 8 | 1;

    // A map entry naming sub-table 2 of 1 (block 10.1 is odd: the high half of element 1280).
    Files.write(dense, BadFixtures.setInt(good, h, Section.PREFIX24, block >>> 1, 2 << 16));
    Loaders.rejectedAtOpen(
        dense,
        dense
            + ": section 'prefix24' at offset "
            + (section + 2L * block)
            + ": expected block 2561: 0 or a sub-table number in [1, 1], found 2");

    // A sub-table entry beyond the block's 600 rows.
    Files.write(
        dense,
        BadFixtures.setInt(good, h, Section.PREFIX24, SubTables.MAP_INTS + 127, 601 << 16 | 600));
    Loaders.rejectedAtOpen(
        dense,
        dense
            + ": section 'prefix24' at offset "
            + (section + 4L * SubTables.MAP_INTS + 2 * 255)
            + ": expected block 2561, /24 255: at most the block's 600 rows, found 601");

    // A section of the wrong length: one sub-table element short.
    int entry = h.sections().indexOf(h.find(Section.PREFIX24));
    long length = h.find(Section.PREFIX24).length() - 4;
    Files.write(dense, BadFixtures.dirField(good, entry, 16, length));
    CorruptIndexException e =
        assertThrows(CorruptIndexException.class, () -> Loader.NIO.load(dense));
    assertEquals(
        dense
            + ": section 'prefix24' at offset "
            + section
            + ": expected 32768 + k x 128 elements (0 < k < 65536), found 32895 elements"
            + " (131580 bytes)",
        e.getMessage());
  }

  private static String quad(int a) {
    return (a >>> 24) + "." + (a >>> 16 & 0xFF) + "." + (a >>> 8 & 0xFF) + "." + (a & 0xFF);
  }
}
