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
import io.spindex.index.search.PackedRows;
import io.spindex.index.search.Prefix6;
import io.spindex.index.search.Search6;
import io.spindex.index.search.SubTables;
import io.spindex.index.search.Tiled6;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32C;

/** How one loader strategy reads a section; the index objects are assembled the same way. */
@Internal
public interface SectionSource {
  IntColumn ints(SectionEntry section) throws IOException;

  ByteBuffer bytes(SectionEntry section) throws IOException;

  LongColumn longs(SectionEntry section) throws IOException;

  /**
   * Whether to run the structural checks that keep a lookup from reading out of bounds (label ids
   * within the dictionary, offsets in order) at open: every strategy but the one that skips the
   * checksums too ({@code mapped-unchecked}), whose files are verified beforehand.
   */
  default boolean checksRows() {
    return true;
  }

  /**
   * Whether the columns are views over a mapping ({@code mapped}, {@code mapped-unchecked}), so
   * that the rows are read in place rather than copied.
   */
  default boolean inPlace() {
    return false;
  }

  /**
   * Checks the CRC32C of an optional section this version does not know (when the strategy checks
   * checksums), without keeping its bytes.
   */
  void skip(SectionEntry section) throws IOException;

  /** Builds the index object for {@code header}, reading its sections through {@code source}. */
  static SpindexIndex assemble(IndexHeader h, String loader, SectionSource source)
      throws IOException {
    for (SectionEntry e : h.sections()) {
      if (e.section() == null) {
        source.skip(e);
      }
    }
    // Every kind's header says when its sources were built; range indexes hand out the rest.
    SourceInfo info = sourceInfo(h, source);
    h = h.withSourceMillis(info.sourceTimeMillis());
    SectionEntry prefixEntry = h.find(Section.PREFIX16);
    IntColumn prefix = prefixEntry == null ? null : source.ints(prefixEntry);
    if (h.kind() == IndexKind.IPV4_RANGES) {
      return ranges(h, loader, source, prefixEntry, prefix, info);
    }
    if (h.kind() == IndexKind.PRODUCTS) {
      return products(h, loader, source, prefixEntry, prefix);
    }
    IntColumn keys = source.ints(h.require(Section.KEYS));
    checkPrefix(h, source, prefixEntry, prefix, keys.size());
    return new IpSet(h, loader, keys, prefix, keys6(h, source, Section.KEYS6_HI, null));
  }

  /**
   * A range index: the IPv4 rows unpacked into int columns on the heap or read in place, the IPv6
   * rows copied ({@link Tiled6}) or read in place ({@link Tiled6.InPlace}), the labels.
   */
  private static IpRanges ranges(
      IndexHeader h,
      String loader,
      SectionSource source,
      SectionEntry prefixEntry,
      IntColumn prefix,
      SourceInfo info)
      throws IOException {
    SectionEntry lowEntry = h.require(Section.RANGE_STARTS_LOW);
    SectionEntry idsEntry = h.require(Section.ROW_LABEL_IDS);
    int rows = (int) (lowEntry.length() / 2);
    int width = rows == 0 ? 1 : (int) (idsEntry.length() / rows);
    checkPrefix(h, source, prefixEntry, prefix, rows);
    IntColumn starts;
    IntColumn labels;
    PackedRows.InPlace inPlace = null;
    if (rows == 0) {
      // No IPv4 rows, and maybe no prefix16 to place them.
      starts = IntColumn.of(new int[0]);
      labels = starts;
    } else if (source.inPlace()) {
      inPlace = PackedRows.inPlace(source.bytes(lowEntry), source.bytes(idsEntry), width);
      starts = inPlace.starts(prefix);
      labels = inPlace.labelIds();
    } else {
      try {
        starts = PackedRows.starts(prefix, source.bytes(lowEntry));
      } catch (Malformed m) {
        throw CorruptIndexException.at(h.file(), prefixEntry, m);
      }
      labels = PackedRows.labelIds(source.bytes(idsEntry), rows, width);
    }
    LabelSchema schema = schema(h, source);
    LabelDictionary dictionary = LabelDictionary.open(h, source, schema);
    SectionEntry subEntry = h.find(Section.PREFIX24);
    SubTables sub = subEntry == null ? null : new SubTables(source.ints(subEntry));
    Keys128 starts6 = keys6(h, source, Section.RANGE6_STARTS_HI, Section.RANGE6_STARTS_LO);
    SectionEntry rowsEntry = h.find(Section.RANGE6_ROWS);
    LongColumn rows6 = null;
    ByteBuffer rows6Bytes = null;
    if (rowsEntry != null) {
      // In place when the section fits one mapping (1 GiB, 134 million rows); a larger one is
      // copied to the heap.
      if (source.inPlace() && rowsEntry.length() <= 4L * IntColumn.CHUNK_INTS) {
        rows6Bytes = source.bytes(rowsEntry);
        rows6 = LongColumn.view(new ByteBuffer[] {rows6Bytes});
      } else {
        rows6 = source.longs(rowsEntry);
      }
    }
    IntColumn labels6 = rows6 == null ? IntColumn.of(new int[0]) : Tiled6.labels(rows6);
    if (source.checksRows()) {
      int labelCount = dictionary.count();
      dictionary.check();
      labelIdsWithin(h, idsEntry, width, labels, labelCount);
      if (sub != null) {
        tablesWithin(h, subEntry, sub, prefix);
      }
      if (rowsEntry != null) {
        labelIdsWithin(h, rowsEntry, 8, labels6, labelCount);
      }
    }
    // Every loader searches the same IPv6 rows through the same tables (checked in keys6), so
    // every loader gives the same answer for any file the open-time checks accept.
    Search6 search6 = null;
    if (rows6Bytes != null) {
      search6 = Tiled6.inPlace(rows6Bytes, starts6);
    } else if (rows6 != null) {
      Tiled6 t = Tiled6.ofRows(rows6.toArray(), starts6);
      search6 = t;
      starts6 = t.starts();
      labels6 = t.labels();
    }
    return new IpRanges(
        h,
        loader,
        starts,
        labels,
        inPlace,
        prefix,
        sub,
        dictionary,
        starts6,
        labels6,
        search6,
        new IpRanges.Extras(schema, info, aliases(h, source)));
  }

  /** The label schema of sections {@code label_fields} and {@code label_types}, or {@code null}. */
  private static LabelSchema schema(IndexHeader h, SectionSource source) throws IOException {
    SectionEntry fieldsEntry = h.find(Section.LABEL_FIELDS);
    SectionEntry typesEntry = h.find(Section.LABEL_TYPES);
    if (fieldsEntry == null) {
      return null; // and no label_types: the layout's table allows them only together
    }
    String fields = text(source, fieldsEntry);
    String types = typesEntry == null ? null : text(source, typesEntry);
    try {
      return LabelSchema.read(fields, types);
    } catch (IllegalArgumentException e) {
      boolean ofTypes = typesEntry != null && e.getMessage().startsWith("unknown type");
      SectionEntry at = ofTypes ? typesEntry : fieldsEntry;
      throw CorruptIndexException.at(
          h.file(),
          "section '" + at.section().displayName() + "'",
          at.offset(),
          ofTypes
              ? "one of " + LabelSchema.FieldType.names() + " a line"
              : "a delimiter line, non-empty field names and as many types",
          "'"
              + oneLine(ofTypes ? types : fields)
              + "'"
              + (ofTypes ? "" : " (" + e.getMessage() + ")"));
    }
  }

  private static String oneLine(String s) {
    return s.replace("\n", "\\n");
  }

  private static SourceInfo sourceInfo(IndexHeader h, SectionSource source) throws IOException {
    SectionEntry e = h.find(Section.SOURCE_INFO);
    if (e == null) {
      return SourceInfo.NONE;
    }
    return sourceInfo(h, e, text(source, e));
  }

  /**
   * {@code h} knowing when its sources were built, from the bytes of its {@code source_info}
   * section (its checksum checked), for a reader that reads no other section.
   */
  static IndexHeader withSourceInfo(IndexHeader h, SectionEntry e, byte[] section)
      throws CorruptIndexException {
    CRC32C crc = new CRC32C();
    crc.update(section);
    checkCrc(h, e, crc);
    String text = new String(section, java.nio.charset.StandardCharsets.UTF_8);
    return h.withSourceMillis(sourceInfo(h, e, text).sourceTimeMillis());
  }

  /** The entries of section {@code e}'s {@code text}; a malformed one names the section. */
  static SourceInfo sourceInfo(IndexHeader h, SectionEntry e, String text)
      throws CorruptIndexException {
    SourceInfo info;
    try {
      info = SourceInfo.parse(text);
    } catch (IllegalArgumentException x) {
      throw CorruptIndexException.at(
          h.file(), "section 'source_info'", e.offset(), "lines 'key<TAB>value'", x.getMessage());
    }
    for (java.util.Map.Entry<String, String> line : info.entries()) {
      if (line.getKey().equals(SourceInfo.SOURCE_TIME)) {
        try {
          SourceInfo.parseTime(line.getValue());
        } catch (IllegalArgumentException x) {
          throw CorruptIndexException.at(
              h.file(),
              "section 'source_info'",
              e.offset(),
              SourceInfo.SOURCE_TIME + " as " + SourceInfo.TIME_FORM,
              "'" + line.getValue() + "'");
        }
      }
    }
    return info;
  }

  private static Ipv4Aliases aliases(IndexHeader h, SectionSource source) throws IOException {
    SectionEntry e = h.find(Section.IPV4_ALIASES);
    if (e == null) {
      return Ipv4Aliases.NONE;
    }
    LongColumn c = source.longs(e);
    long[] t = new long[c.size()];
    for (int i = 0; i < t.length; i++) {
      t[i] = c.get(i);
    }
    String[] wrong = Ipv4Aliases.check(t);
    if (wrong != null) {
      throw CorruptIndexException.at(
          h.file(), "section 'ipv4_aliases'", e.offset(), wrong[0], wrong[1]);
    }
    return Ipv4Aliases.of(t);
  }

  private static String text(SectionSource source, SectionEntry e) throws IOException {
    ByteBuffer fb = source.bytes(e);
    byte[] text = new byte[fb.remaining()];
    fb.duplicate().get(text);
    return new String(text, java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * Every block's map entry names a sub-table of the section, and every entry of a sub-table is at
   * most its block's row count, so that a lookup reads within the sections whatever the values (the
   * exact values are checked by {@code spindex verify}).
   */
  private static void tablesWithin(IndexHeader h, SectionEntry e, SubTables sub, IntColumn prefix)
      throws CorruptIndexException {
    int tables = sub.tables();
    for (int p = 0; p < 65536; p++) {
      int entry = sub.mapEntry(p);
      if (entry > tables) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'prefix24'",
            e.offset() + 2L * p,
            "block " + p + ": 0 or a sub-table number in [1, " + tables + "]",
            String.valueOf(entry));
      }
      if (entry == 0) {
        continue;
      }
      int table = sub.of(p);
      int rows = prefix.get(p + 1) - prefix.get(p);
      for (int q = 0; q < 256; q++) {
        int before = sub.before(table, q);
        if (before > rows || (q == 0 && before != 0)) {
          throw CorruptIndexException.at(
              h.file(),
              "section 'prefix24'",
              e.offset() + 4L * table + 2L * q,
              q == 0
                  ? "block " + p + ", /24 0: 0"
                  : "block " + p + ", /24 " + q + ": at most the block's " + rows + " rows",
              String.valueOf(before));
        }
      }
    }
  }

  /** Every value at least the one before it, so that every slice two of them bound is in range. */
  static void nonDecreasing(IndexHeader h, SectionEntry e, IntColumn offsets, String what)
      throws CorruptIndexException {
    for (int i = 1, n = offsets.size(); i < n; i++) {
      if (offsets.get(i) < offsets.get(i - 1)) {
        throw CorruptIndexException.at(
            h.file(),
            "section '" + e.name() + "'",
            e.offset() + 4L * i,
            what + " in ascending order, at least " + offsets.get(i - 1),
            String.valueOf(offsets.get(i)));
      }
    }
  }

  /**
   * Every label id of the rows names a label of the dictionary or is a gap row's; the section holds
   * them {@code width} bytes each.
   */
  private static void labelIdsWithin(
      IndexHeader h, SectionEntry e, int width, IntColumn ids, int count)
      throws CorruptIndexException {
    int i = ids.firstOutside(count, true);
    if (i >= 0) {
      throw CorruptIndexException.at(
          h.file(),
          "section '" + e.name() + "'",
          e.offset() + (long) width * i,
          "a label id in [0, " + count + ") or -1 (a gap)",
          String.valueOf(ids.get(i)));
    }
  }

  /**
   * The IPv6 keys of a set or the IPv6 range starts, with their prefix table and tables: {@link
   * Keys128#EMPTY} when the file has no IPv6 sections. Without a low-halves section ({@code lo}
   * absent or {@code null}), every low half is 0. The tables are checked even by a loader that
   * skips the other row checks: every walk of a lookup follows them.
   */
  private static Keys128 keys6(IndexHeader h, SectionSource source, Section hi, Section lo)
      throws IOException {
    SectionEntry hiEntry = h.find(hi);
    if (hiEntry == null) {
      return Keys128.EMPTY;
    }
    LongColumn his = source.longs(hiEntry);
    SectionEntry loEntry = lo == null ? h.require(Section.KEYS6_LO) : h.find(lo);
    LongColumn los =
        loEntry == null
            ? LongColumn.constant(Long.MIN_VALUE, his.size(), his.onHeap())
            : source.longs(loEntry);
    SectionEntry prefixEntry = h.find(Section.PREFIX16_V6);
    IntColumn prefix = prefixEntry == null ? null : source.ints(prefixEntry);
    checkPrefix(h, source, prefixEntry, prefix, his.size());
    SectionEntry tablesEntry = h.find(Section.PREFIX6);
    Prefix6 tables = tablesEntry == null ? null : new Prefix6(source.ints(tablesEntry));
    if (tables != null) {
      // Each within the section, after its parent, every row number within the rows (the exact
      // values are checked by spindex verify).
      try {
        tables.check(prefix, his.size(), null);
      } catch (Malformed m) {
        throw CorruptIndexException.at(h.file(), tablesEntry, m);
      }
    }
    return new Keys128(his, los, prefix, tables);
  }

  private static ProductIndex products(
      IndexHeader h,
      String loader,
      SectionSource source,
      SectionEntry prefixEntry,
      IntColumn prefix)
      throws IOException {
    LongColumn hashes = source.longs(h.require(Section.ID_HASHES));
    SectionEntry intsEntry = h.require(Section.PRODUCT_INTS);
    IntColumn ints = source.ints(intsEntry);
    SectionEntry namesEntry = h.require(Section.COLUMN_NAMES);
    ByteBuffer namesBytes = source.bytes(namesEntry);
    SectionEntry offsetsEntry = h.require(Section.ID_OFFSETS);
    IntColumn offsets = source.ints(offsetsEntry);
    SectionEntry idsEntry = h.require(Section.ID_BYTES);
    ByteBuffer ids = source.bytes(idsEntry);
    checkPrefix(h, source, prefixEntry, prefix, hashes.size());
    List<String> names = Layout.columnNames(h, namesEntry, namesBytes);
    // The element count of product_ints depends on the column names, so it is checked here.
    long expected = (long) names.size() * h.rowCount();
    if (intsEntry.elements() != expected) {
      throw CorruptIndexException.at(
          h.file(),
          "section 'product_ints'",
          intsEntry.offset(),
          expected + " elements (" + h.rowCount() + " rows x " + names.size() + " columns)",
          intsEntry.elements() + " elements");
    }
    int last = offsets.get(offsets.size() - 1);
    if (offsets.get(0) != 0 || last != idsEntry.length()) {
      throw CorruptIndexException.at(
          h.file(),
          "section 'id_offsets'",
          offsetsEntry.offset(),
          "offsets from 0 to " + idsEntry.length() + " (the id bytes)",
          "from " + offsets.get(0) + " to " + last);
    }
    if (source.checksRows()) {
      nonDecreasing(h, offsetsEntry, offsets, "offsets");
    }
    return new ProductIndex(h, loader, hashes, prefix, ints, names, offsets, ids);
  }

  /**
   * The prefix table is read on every lookup and bounds every search, so it is checked at open:
   * from 0 to the row count, and (when the loader checks rows) never decreasing, which keeps every
   * bound it gives, and every /24 sub-table count added to one, within the rows whatever the other
   * sections hold (65,536 reads). Without that check only the first and last entries are read.
   */
  private static void checkPrefix(
      IndexHeader h, SectionSource source, SectionEntry e, IntColumn prefix, int rows)
      throws CorruptIndexException {
    if (prefix == null) {
      return;
    }
    if (prefix.get(0) != 0 || prefix.get(Encoding.PREFIX16_ENTRIES - 1) != rows) {
      throw CorruptIndexException.at(
          h.file(),
          "section '" + e.name() + "'",
          e.offset(),
          "entries from 0 to " + rows,
          "from " + prefix.get(0) + " to " + prefix.get(Encoding.PREFIX16_ENTRIES - 1));
    }
    if (source.checksRows()) {
      nonDecreasing(h, e, prefix, "entries");
    }
  }

  /** Compares a computed CRC32C with the directory's. */
  static void checkCrc(IndexHeader h, SectionEntry e, CRC32C crc) throws CorruptIndexException {
    int actual = (int) crc.getValue();
    if (actual != e.crc32c()) {
      throw CorruptIndexException.at(
          h.file(),
          "section '" + e.name() + "'",
          e.offset(),
          "CRC32C " + Layout.crcHex(e.crc32c()),
          Layout.crcHex(actual) + " (its " + e.length() + " bytes are damaged)");
    }
  }
}
