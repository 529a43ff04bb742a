/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32C;

/** How one loader strategy reads a section; the index objects are assembled the same way. */
interface SectionSource {
  IntColumn ints(SectionEntry section) throws IOException;

  ByteBuffer bytes(SectionEntry section) throws IOException;

  LongColumn longs(SectionEntry section) throws IOException;

  /**
   * Whether to run the structural checks that keep a lookup from reading out of bounds (label ids
   * within the dictionary, offsets in order) at open: every strategy but the one that skips the
   * checksums too ({@link Loader#mappedUnchecked()}), whose files are verified beforehand.
   */
  default boolean checksRows() {
    return true;
  }

  /**
   * Whether the columns are views over a mapping ({@link Loader#MAPPED}, {@link
   * Loader#mappedUnchecked()}), so that packed rows are read in place rather than unpacked.
   */
  default boolean inPlace() {
    return false;
  }

  /** Builds the index object for {@code header}, reading its sections through {@code source}. */
  static SpindexIndex assemble(IndexHeader h, String loader, SectionSource source)
      throws IOException {
    SectionEntry prefixEntry = h.find(Section.PREFIX16);
    IntColumn prefix = prefixEntry == null ? null : source.ints(prefixEntry);
    if (h.kind() == IndexKind.IPV4_SET) {
      IntColumn keys = source.ints(h.require(Section.KEYS));
      checkPrefix(h, source, prefixEntry, prefix, keys.size());
      return new IpSet(
          h, loader, keys, prefix, keys6(h, source, Section.KEYS6_HI, Section.KEYS6_LO));
    }
    if (h.kind() == IndexKind.PRODUCTS) {
      return products(h, loader, source, prefixEntry, prefix);
    }
    SectionEntry lowEntry = h.find(Section.RANGE_STARTS_LOW);
    IntColumn starts;
    IntColumn labels;
    SectionEntry labelsEntry;
    int labelWidth = 4;
    boolean tiled;
    IntColumn ends = null;
    PackedRows.InPlace inPlace = null;
    if (lowEntry != null) {
      // Packed rows: read in place by a mapping, else into the columns of tiled rows (the prefix
      // table checked first).
      int rows = (int) (lowEntry.length() / 2);
      checkPrefix(h, source, prefixEntry, prefix, rows);
      labelsEntry = h.require(Section.ROW_LABEL_IDS);
      labelWidth = rows == 0 ? 1 : (int) (labelsEntry.length() / rows);
      if (source.inPlace()) {
        inPlace = PackedRows.inPlace(source.bytes(lowEntry), source.bytes(labelsEntry), labelWidth);
        starts = inPlace.starts(prefix);
        labels = inPlace.labelIds();
      } else {
        starts = PackedRows.starts(h, prefixEntry, prefix, source.bytes(lowEntry));
        labels = PackedRows.labelIds(source.bytes(labelsEntry), rows, labelWidth);
      }
      tiled = true;
    } else {
      starts = source.ints(h.require(Section.RANGE_STARTS));
      // Ranges without their ends (tiled_labels) have no ends column: a row ends where the next
      // starts.
      labelsEntry = h.find(Section.TILED_LABELS);
      tiled = labelsEntry != null;
      ends = tiled ? null : source.ints(h.require(Section.RANGE_ENDS));
      labelsEntry = tiled ? labelsEntry : h.require(Section.RANGE_LABELS);
      labels = source.ints(labelsEntry);
      checkPrefix(h, source, prefixEntry, prefix, starts.size());
    }
    LabelSchema schema = schema(h, source);
    LabelDictionary dictionary = LabelDictionary.open(h, source, schema);
    SectionEntry subEntry = h.find(Section.PREFIX24);
    SubTables sub = subEntry == null ? null : new SubTables(source.ints(subEntry));
    Keys128 starts6 = keys6(h, source, Section.RANGE6_STARTS_HI, Section.RANGE6_STARTS_LO);
    Keys128 ends6 = Keys128.EMPTY;
    IntColumn labels6 = IntColumn.of(new int[0]);
    SectionEntry labels6Entry = h.find(Section.TILED6_LABELS);
    SectionEntry packed6Entry = h.find(Section.TILED6_ROWS);
    boolean tiled6 = labels6Entry != null || packed6Entry != null;
    // Packed tiled rows (tiled6_rows): their label ids are a view over them.
    LongColumn packed6 = null;
    ByteBuffer packed6Bytes = null;
    if (starts6.size() > 0) {
      if (tiled6) {
        ends6 = Keys128.tiledEnds(starts6);
      } else {
        ends6 =
            new Keys128(
                source.longs(h.require(Section.RANGE6_ENDS_HI)),
                source.longs(h.require(Section.RANGE6_ENDS_LO)));
        labels6Entry = h.require(Section.RANGE6_LABELS);
      }
      if (packed6Entry != null) {
        labels6Entry = packed6Entry;
        // In place when the section fits one mapping (1 GiB, 134 million rows; the views of a
        // larger one are searched as the columns, the label ids read from the rows).
        if (source.inPlace() && packed6Entry.length() <= 4L * IntColumn.CHUNK_INTS) {
          packed6Bytes = source.bytes(packed6Entry);
          packed6 = LongColumn.view(new ByteBuffer[] {packed6Bytes});
        } else {
          packed6 = source.longs(packed6Entry);
        }
        labels6 = Tiled6.labels(packed6);
      } else {
        labels6 = source.ints(labels6Entry);
      }
    }
    Search6 rows6 = null;
    if (source.checksRows()) {
      int labelCount = dictionary.count();
      dictionary.check();
      labelIdsWithin(h, labelsEntry, labelWidth, labels, labelCount, tiled);
      if (sub != null) {
        tablesWithin(h, subEntry, sub, prefix);
      }
      if (starts6.size() > 0) {
        labelIdsWithin(
            h, labels6Entry, labels6Entry.section().width(), labels6, labelCount, tiled6);
      }
    }
    if (packed6 != null && source.checksRows()) {
      // Packed tiled rows, searched through the file's tables (checked above, in keys6) by every
      // loader alike: read in place by mapped, copied by the heap loaders.
      if (packed6Bytes != null) {
        rows6 = Tiled6.inPlace(packed6Bytes, starts6);
      } else if (onHeap(starts6)) {
        Tiled6 t = Tiled6.ofRows(packed6.toArray(), starts6);
        rows6 = t;
        starts6 = t.starts();
        ends6 = Keys128.tiledEnds(starts6);
        labels6 = t.labels();
      }
    } else if (starts6.size() > 0
        && source.checksRows()
        && onHeap(starts6)
        && (tiled6 || onHeap(ends6))
        && Rows6.inOrder(starts6)) {
      // The heap loaders' IPv6 ranges as rows (the columns' arrays are dropped): a hit reads one
      // or two cache lines of rows instead of up to five, one a column. The label ids were checked
      // above; rows out of order (a file verify refuses) keep the columns. Tiled rows take 8 bytes
      // a row where their tables allow it (Tiled6), else their ends are the next starts less one
      // (a view) in Rows6, their gap rows' label id -1.
      Tiled6 packed = tiled6 ? Tiled6.of(starts6, labels6) : null;
      if (packed != null) {
        rows6 = packed;
        starts6 = packed.starts();
        ends6 = Keys128.tiledEnds(starts6);
        labels6 = packed.labels();
      } else {
        Rows6 rows = Rows6.of(starts6, ends6, labels6);
        rows6 = rows;
        starts6 = rows.starts();
        ends6 = rows.ends();
        labels6 = rows.labels();
      }
    }
    return new IpRanges(
        h,
        loader,
        starts,
        ends,
        labels,
        inPlace,
        prefix,
        sub,
        dictionary,
        starts6,
        ends6,
        labels6,
        rows6,
        new IpRanges.Extras(schema, sourceInfo(h, source), aliases(h, source), tiled6));
  }

  /** Whether both columns of the keys are heap arrays (io, nio, text), not mapped views. */
  private static boolean onHeap(Keys128 keys) {
    return keys.hiColumn().onHeap() && keys.loColumn().onHeap();
  }

  /** The label schema of sections {@code label_fields} and {@code label_types}, or {@code null}. */
  private static LabelSchema schema(IndexHeader h, SectionSource source) throws IOException {
    SectionEntry fieldsEntry = h.find(Section.LABEL_FIELDS);
    SectionEntry typesEntry = h.find(Section.LABEL_TYPES);
    if (fieldsEntry == null) {
      if (typesEntry != null) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'label_types'",
            typesEntry.offset(),
            "a 'label_fields' section beside it",
            "none");
      }
      return null;
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
    try {
      return SourceInfo.parse(text(source, e));
    } catch (IllegalArgumentException x) {
      throw CorruptIndexException.at(
          h.file(), "section 'source_info'", e.offset(), "lines 'key<TAB>value'", x.getMessage());
    }
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
            "section '" + e.section().displayName() + "'",
            e.offset() + 4L * i,
            what + " in ascending order, at least " + offsets.get(i - 1),
            String.valueOf(offsets.get(i)));
      }
    }
  }

  /**
   * Every label id names a label of the dictionary (or, with {@code gaps}, is a gap row's); the
   * section holds them {@code width} bytes each.
   */
  private static void labelIdsWithin(
      IndexHeader h, SectionEntry e, int width, IntColumn ids, int count, boolean gaps)
      throws CorruptIndexException {
    int i = ids.firstOutside(count, gaps);
    if (i >= 0) {
      throw CorruptIndexException.at(
          h.file(),
          "section '" + e.section().displayName() + "'",
          e.offset() + (long) width * i,
          "a label id in [0, " + count + ")" + (gaps ? " or -1 (a gap)" : ""),
          String.valueOf(ids.get(i)));
    }
  }

  /**
   * The IPv6 keys of a set or the IPv6 range starts, with their prefix table: {@link Keys128#EMPTY}
   * when the file has no IPv6 sections.
   */
  private static Keys128 keys6(IndexHeader h, SectionSource source, Section hi, Section lo)
      throws IOException {
    SectionEntry hiEntry = h.find(hi);
    if (hiEntry == null) {
      return Keys128.EMPTY;
    }
    LongColumn his = source.longs(hiEntry);
    // Packed IPv6 range starts whose low halves are all 0 have no column for them.
    LongColumn los =
        lo == Section.RANGE6_STARTS_LO && h.find(Section.RANGE6_STARTS_LO_ZERO) != null
            ? LongColumn.constant(Long.MIN_VALUE, his.size(), his.onHeap())
            : source.longs(h.require(lo));
    SectionEntry prefixEntry = h.find(Section.PREFIX16_V6);
    IntColumn prefix = prefixEntry == null ? null : source.ints(prefixEntry);
    checkPrefix(h, source, prefixEntry, prefix, his.size());
    SectionEntry tablesEntry = h.find(Section.PREFIX6);
    Prefix6 tables = tablesEntry == null ? null : new Prefix6(source.ints(tablesEntry));
    if (tables != null && source.checksRows()) {
      // Every lookup walks these tables: each within the section, after its parent, every row
      // number within the rows (the exact values are checked by spindex verify).
      tables.check(h.file(), tablesEntry, prefix, his.size(), null);
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
    if (prefix.get(0) != 0 || prefix.get(Layout.PREFIX16_ENTRIES - 1) != rows) {
      throw CorruptIndexException.at(
          h.file(),
          "section '" + e.section().displayName() + "'",
          e.offset(),
          "entries from 0 to " + rows,
          "from " + prefix.get(0) + " to " + prefix.get(Layout.PREFIX16_ENTRIES - 1));
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
          "section '" + e.section().displayName() + "'",
          e.offset(),
          "CRC32C " + Layout.crcHex(e.crc32c()),
          Layout.crcHex(actual) + " (its " + e.length() + " bytes are damaged)");
    }
  }
}
