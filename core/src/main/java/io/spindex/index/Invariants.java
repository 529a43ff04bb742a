/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import io.spindex.index.search.Encoding;
import io.spindex.index.search.IntColumn;
import io.spindex.index.search.Keys128;
import io.spindex.index.search.LongColumn;
import io.spindex.index.search.Malformed;
import io.spindex.index.search.Prefix6;
import io.spindex.index.search.SubTables;
import io.spindex.index.search.Tiled6;
import io.spindex.text.Ipv4Text;
import io.spindex.text.Ipv6Text;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The invariants lookups rely on, checked over a loaded index: keys strictly ascending, rows of
 * ranges with starts strictly ascending and gap rows where a gap can be, label ids and offsets
 * within the dictionary, product id hashes strictly ascending and equal to the hashes of the stored
 * ids, the prefix tables (/16, and the /24 sub-tables of a range index) equal to the ones the keys
 * imply, and zero padding between sections. The deep half of {@code spindex verify} ({@link
 * io.spindex.index.load.IndexVerifier}), after everything the loaders check at open; reads through
 * the index it is given, so a mapped one needs no heap for the data.
 */
@Internal
public final class Invariants {
  private Invariants() {}

  /**
   * Checks {@code index} (and the padding of the file it was loaded from).
   *
   * @throws CorruptIndexException naming the file, section, offset, expected and found
   */
  public static void check(SpindexIndex index) throws IOException {
    IndexHeader h = index.header();
    checkPadding(h);
    if (index instanceof IpSet) {
      IpSet set = (IpSet) index;
      SectionEntry keys = h.require(Section.KEYS);
      for (int i = 1; i < set.size(); i++) {
        if (Encoding.flip(set.address(i - 1)) >= Encoding.flip(set.address(i))) {
          throw unordered(
              h, keys, i, set.size(), set.address(i - 1), set.address(i), "strictly ascending");
        }
      }
      checkPrefix(
          h, Section.PREFIX16, set.prefixTable(), set.size(), row -> set.address(row) >>> 16);
      Keys128 k = set.keys6();
      for (int i = 0; i < k.size(); i++) {
        if (i > 0 && compare(k, i - 1, k, i) >= 0) {
          throw unordered6(h, Section.KEYS6_HI, i, k, i - 1, k, "strictly ascending");
        }
        requireNotMapped(h, Section.KEYS6_HI, i, k.hi(i), k.lo(i), k.hi(i), k.lo(i));
      }
      checkPrefix(
          h, Section.PREFIX16_V6, k.prefixTable(), k.size(), row -> (int) (k.hi(row) >>> 48));
      checkTables6(h, k);
    } else if (index instanceof ProductIndex) {
      verifyProducts(h, (ProductIndex) index);
    } else {
      IpRanges r = (IpRanges) index;
      // The starts and label ids of the IPv4 rows, as the loader read them from their sections.
      SectionEntry starts = h.require(Section.RANGE_STARTS_LOW);
      SectionEntry labels = h.require(Section.ROW_LABEL_IDS);
      for (int i = 0; i < r.size(); i++) {
        verifyRow(h, r, starts, labels, i);
      }
      r.dictionary().check();
      checkPrefix(h, Section.PREFIX16, r.prefixTable(), r.size(), row -> r.start(row) >>> 16);
      checkSubTables(h, r);
      verifyRanges6(h, r);
    }
  }

  /**
   * IPv4 row {@code i}: its start after the previous row's (so that each row ends where the next
   * starts, at or after its own start), its label id in the dictionary or a gap's, and a gap row
   * neither first nor after another gap (the writer never stores those).
   */
  private static void verifyRow(
      IndexHeader h, IpRanges r, SectionEntry starts, SectionEntry labels, int i)
      throws CorruptIndexException {
    if (i > 0 && Encoding.flip(r.start(i)) <= Encoding.flip(r.start(i - 1))) {
      throw unordered(
          h,
          starts,
          i,
          r.size(),
          r.start(i - 1),
          r.start(i),
          "after the start of the previous row");
    }
    rowLabel(h, labels, r.size(), i, r.labelIdOfRow(i), i == 0 ? 0 : r.labelIdOfRow(i - 1), r);
  }

  /**
   * The label id {@code id} of row {@code i} ({@code before}: the previous row's): in the
   * dictionary, or a gap's if the row is neither the first nor after a gap.
   */
  private static void rowLabel(
      IndexHeader h, SectionEntry labels, int rows, int i, int id, int before, IpRanges r)
      throws CorruptIndexException {
    boolean gap = id == Encoding.GAP_LABEL;
    String wrong =
        !gap && (id < 0 || id >= r.labelCount())
            ? "a label id in [0, " + r.labelCount() + ") or -1 (a gap)"
            : gap && i == 0
                ? "a label id in [0, " + r.labelCount() + ") (the first row is not a gap)"
                : gap && before == Encoding.GAP_LABEL
                    ? "a label id in [0, " + r.labelCount() + ") (row " + (i - 1) + " is a gap)"
                    : null;
    if (wrong != null) {
      throw CorruptIndexException.at(
          h.file(),
          "section '" + labels.name() + "'",
          rowAt(labels, i, rows),
          wrong,
          String.valueOf(id));
    }
  }

  /**
   * IPv6 rows: each starts after the previous one, its label id is in the dictionary (or a gap's,
   * neither first nor after another gap), a range lies outside the IPv4-mapped block (whose
   * addresses are looked up as IPv4); the prefix table and the tables are the ones the starts
   * imply, and each row's element the one its start and label id give.
   */
  private static void verifyRanges6(IndexHeader h, IpRanges r) throws CorruptIndexException {
    Keys128 s = r.starts6();
    SectionEntry rows = h.find(Section.RANGE6_ROWS);
    for (int i = 0; i < s.size(); i++) {
      // A gap row may span the IPv4-mapped block.
      if (i > 0 && compare(s, i - 1, s, i) >= 0) {
        throw unordered6(
            h, Section.RANGE6_STARTS_HI, i, s, i - 1, s, "after the start of the previous row");
      }
      int id = r.ipv6LabelIdOfRow(i);
      rowLabel(h, rows, r.ipv6Size(), i, id, i == 0 ? 0 : r.ipv6LabelIdOfRow(i - 1), r);
      if (id != Encoding.GAP_LABEL) {
        requireNotMapped(
            h,
            Section.RANGE6_STARTS_HI,
            i,
            r.ipv6StartHi(i),
            r.ipv6StartLo(i),
            r.ipv6EndHi(i),
            r.ipv6EndLo(i));
      }
    }
    checkPrefix(h, Section.PREFIX16_V6, s.prefixTable(), s.size(), row -> (int) (s.hi(row) >>> 48));
    checkTables6(h, s);
    if (rows != null) {
      checkRows6(h, rows, r, s);
    }
  }

  /**
   * The IPv6 rows: each row's key and flag are the ones its start gives in the bucket of the file's
   * tables whose rows it is in (the tables were checked against the starts first).
   */
  private static void checkRows6(IndexHeader h, SectionEntry e, IpRanges r, Keys128 s)
      throws CorruptIndexException {
    LongColumn rows = r.packedRows6();
    long[] expected = Tiled6.pack(s, r.labelIds6(), s);
    for (int i = 0; i < s.size(); i++) {
      long found = rows.get(i);
      if (expected == null || found != expected[i]) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'range6_rows'",
            e.offset() + 8L * i,
            expected == null
                ? "every row inside the bucket of the tables whose rows it is in"
                : String.format(
                    "0x%016x (the row's key, flag and label id from its start)", expected[i]),
            String.format("0x%016x", found));
      }
    }
  }

  /**
   * The IPv6 tables of the dense /16 blocks: each covers exactly its block's or bucket's rows, each
   * entry is the first row of its bucket, and every element is reached from the block map.
   */
  private static void checkTables6(IndexHeader h, Keys128 k) throws CorruptIndexException {
    Prefix6 tables = k.tables();
    if (tables != null) {
      try {
        tables.check(k.prefixTable(), k.size(), k::hi);
      } catch (Malformed m) {
        throw CorruptIndexException.at(h.file(), h.require(Section.PREFIX6), m);
      }
    }
  }

  /** Unsigned 128-bit comparison of row {@code i} of {@code a} with row {@code j} of {@code b}. */
  private static int compare(Keys128 a, int i, Keys128 b, int j) {
    int c = Long.compareUnsigned(a.hi(i), b.hi(j));
    return c != 0 ? c : Long.compareUnsigned(a.lo(i), b.lo(j));
  }

  /**
   * IPv6 row {@code row}, from {@code from} to {@code to}, must not touch {@code ::ffff:0:0/96}.
   */
  private static void requireNotMapped(
      IndexHeader h, Section section, int row, long fromHi, long fromLo, long toHi, long toLo)
      throws CorruptIndexException {
    // The block is [0:0:0:0:0:ffff::, ...ffff:ffff]: high half 0, low half 0x0000ffff_xxxxxxxx.
    boolean startsAfter = fromHi != 0 || Long.compareUnsigned(fromLo, 0xFFFF_FFFF_FFFFL) > 0;
    boolean endsBefore = toHi == 0 && Long.compareUnsigned(toLo, 0xFFFF_0000_0000L) < 0;
    if (!startsAfter && !endsBefore) {
      throw CorruptIndexException.at(
          h.file(),
          "section '" + section.displayName() + "'",
          h.require(section).offset() + 8L * row,
          "row " + row + " outside ::ffff:0:0/96 (IPv4-mapped addresses are stored as IPv4)",
          Ipv6Text.format(fromHi, fromLo) + " - " + Ipv6Text.format(toHi, toLo));
    }
  }

  private static CorruptIndexException unordered6(
      IndexHeader h, Section section, int row, Keys128 a, int i, Keys128 b, String rule)
      throws CorruptIndexException {
    return CorruptIndexException.at(
        h.file(),
        "section '" + section.displayName() + "'",
        h.require(section).offset() + 8L * row,
        "row " + row + " " + rule + " (" + Ipv6Text.format(a.hi(i), a.lo(i)) + ")",
        Ipv6Text.format(b.hi(row), b.lo(row)));
  }

  /**
   * Products: hashes strictly ascending in unsigned order (sorted, no two rows for one hash), id
   * offsets non-decreasing, every stored hash equal to the hash of the stored id, prefix table.
   */
  private static void verifyProducts(IndexHeader h, ProductIndex p) throws CorruptIndexException {
    SectionEntry hashes = h.require(Section.ID_HASHES);
    SectionEntry offsets = h.require(Section.ID_OFFSETS);
    for (int i = 0; i < p.size(); i++) {
      if (i > 0 && Long.compareUnsigned(p.idHashOf(i - 1), p.idHashOf(i)) >= 0) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'id_hashes'",
            hashes.offset() + 8L * i,
            "row " + i + " strictly ascending (unsigned) after " + hex(p.idHashOf(i - 1)),
            hex(p.idHashOf(i)));
      }
      if (p.idOffset(i + 1) < p.idOffset(i)) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'id_offsets'",
            offsets.offset() + 4L * (i + 1),
            "offsets in ascending order, at least " + p.idOffset(i),
            String.valueOf(p.idOffset(i + 1)));
      }
    }
    // Order first: a swapped pair of rows reads as unsorted, not as two wrong hashes.
    for (int i = 0; i < p.size(); i++) {
      byte[] id = p.idBytes(i);
      long expected = ProductIndex.idHash(id, 0, id.length);
      if (expected != p.idHashOf(i)) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'id_hashes'",
            hashes.offset() + 8L * i,
            "row " + i + " = the hash of its id '" + p.id(i) + "', " + hex(expected),
            hex(p.idHashOf(i)));
      }
    }
    checkPrefix(
        h, Section.PREFIX16, p.prefixTable(), p.size(), row -> (int) (p.idHashOf(row) >>> 48));
  }

  private static String hex(long v) {
    return String.format("%016x", v);
  }

  /** Bytes outside the header, directory and sections are zero: no checksum covers them. */
  private static void checkPadding(IndexHeader h) throws IOException {
    List<SectionEntry> byOffset = new ArrayList<>(h.sections());
    byOffset.sort(Comparator.comparingLong(SectionEntry::offset));
    long from = Layout.HEADER_BYTES + (long) Layout.DIR_ENTRY_BYTES * byOffset.size();
    try (FileChannel ch = FileChannel.open(h.file(), StandardOpenOption.READ)) {
      for (int i = 0; i <= byOffset.size(); i++) {
        long to = i < byOffset.size() ? byOffset.get(i).offset() : h.fileLength();
        if (to > from) {
          ByteBuffer gap = ByteBuffer.allocate((int) (to - from));
          while (gap.hasRemaining() && ch.read(gap, from + gap.position()) > 0) {
            // read the whole gap (at most 63 bytes, or the space before the first section)
          }
          for (int k = 0; k < gap.position(); k++) {
            if (gap.get(k) != 0) {
              throw CorruptIndexException.at(
                  h.file(),
                  "padding",
                  from + k,
                  "zero bytes between sections",
                  String.format("0x%02x", gap.get(k) & 0xFF));
            }
          }
        }
        if (i < byOffset.size()) {
          from = byOffset.get(i).offset() + byOffset.get(i).length();
        }
      }
    }
  }

  /** The 16-bit prefix (0..65535) of a row's key, in the order the rows are sorted. */
  private interface Rows {
    int prefix(int row);
  }

  private static void checkPrefix(
      IndexHeader h, Section section, IntColumn prefix, int rows, Rows keys)
      throws CorruptIndexException {
    SectionEntry e = h.find(section);
    if (e == null) {
      return;
    }
    int row = 0;
    for (int p = 0; p < Encoding.PREFIX16_ENTRIES; p++) {
      while (row < rows && keys.prefix(row) < p) {
        row++;
      }
      if (prefix.get(p) != row) {
        throw CorruptIndexException.at(
            h.file(),
            "section '" + section.displayName() + "'",
            e.offset() + 4L * p,
            "entry " + p + " = " + row + " (first row at or after prefix " + p + ")",
            String.valueOf(prefix.get(p)));
      }
    }
  }

  /**
   * The /24 sub-tables: numbered in block order, each used once, and entry q of block p's table the
   * number of the block's rows that start before address p.q.0.
   */
  private static void checkSubTables(IndexHeader h, IpRanges r) throws CorruptIndexException {
    SubTables sub = r.subTables();
    if (sub == null) {
      return;
    }
    SectionEntry e = h.require(Section.PREFIX24);
    IntColumn prefix = r.prefixTable();
    int next = 1;
    for (int p = 0; p < 65536; p++) {
      int entry = sub.mapEntry(p);
      if (entry == 0) {
        continue;
      }
      if (entry != next) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'prefix24'",
            e.offset() + 2L * p,
            "block " + p + ": sub-table " + next + " (numbered in block order)",
            String.valueOf(entry));
      }
      int table = sub.of(p);
      int block = prefix.get(p);
      int row = block;
      for (int q = 0; q < 256; q++) {
        int first = p << 16 | q << 8;
        while (row < prefix.get(p + 1) && Encoding.flip(r.start(row)) < Encoding.flip(first)) {
          row++;
        }
        if (sub.before(table, q) != row - block) {
          throw CorruptIndexException.at(
              h.file(),
              "section 'prefix24'",
              e.offset() + 4L * table + 2L * q,
              "block "
                  + p
                  + ", /24 "
                  + q
                  + ": "
                  + (row - block)
                  + " rows before "
                  + Ipv4Text.format(first),
              String.valueOf(sub.before(table, q)));
        }
      }
      next++;
    }
    if (next - 1 != sub.tables()) {
      throw CorruptIndexException.at(
          h.file(),
          "section 'prefix24'",
          e.offset(),
          sub.tables() + " blocks with a sub-table (one per table)",
          String.valueOf(next - 1));
    }
  }

  /** Where row {@code row} of section {@code e}, whose {@code rows} rows are alike, starts. */
  private static long rowAt(SectionEntry e, int row, int rows) {
    return e.offset() + (rows == 0 ? 0 : e.length() / rows) * row;
  }

  private static CorruptIndexException unordered(
      IndexHeader h, SectionEntry e, int row, int rows, int before, int found, String rule) {
    return CorruptIndexException.at(
        h.file(),
        "section '" + e.name() + "'",
        rowAt(e, row, rows),
        "row " + row + " " + rule + " (" + Ipv4Text.format(before) + " at row " + (row - 1) + ")",
        Ipv4Text.format(found));
  }
}
