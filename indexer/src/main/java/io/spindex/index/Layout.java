/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The one owner of the byte layout of an index file (docs/FORMAT.md). The writer, the verifier and
 * every loader go through this class for offsets, alignment, section ids and header validation.
 *
 * <pre>
 * offset  size  field
 *      0     8  magic 89 53 50 58 0D 0A 1A 0A ("\x89SPX\r\n\x1a\n")
 *      8     2  format version (1)
 *     10     2  index kind
 *     12     4  flags (0 in version 1)
 *     16     8  row count
 *     24     8  created, ms since the epoch
 *     32     8  file length in bytes
 *     40     4  section count
 *     44     4  reserved (0)
 *     48    32  SHA-256 of the source bytes
 *     80    44  reserved (0)
 *    124     4  CRC32C of bytes 0..123 followed by the whole directory
 *    128  32*n  directory: id u32, width u16, reserved u16, offset u64, length u64, crc32c u32, 0 u32
 * </pre>
 *
 * All integers little-endian. Sections start at multiples of 64 bytes, zero-padded between. Section
 * elements are 1, 4 or 8 bytes wide ({@link Section#width}).
 *
 * <p>Longer than most files here on purpose: it is the one place that knows byte offsets, so the
 * writer, the verifier and the loaders cannot disagree about them.
 */
final class Layout {
  static final byte[] MAGIC = {(byte) 0x89, 'S', 'P', 'X', '\r', '\n', 0x1A, '\n'};

  /** The newest format version this code reads and writes; it reads every older one too. */
  static final int VERSION = 8;

  /**
   * The label id of a gap row in {@link Section#TILED_LABELS}: a row that starts where no range is
   * ({@link IpRanges#NONE}, stored as 0xFFFFFFFF).
   */
  static final int GAP_LABEL = -1;

  static final int HEADER_BYTES = 128;
  static final int DIR_ENTRY_BYTES = 32;
  static final int ALIGNMENT = 64;
  static final int MAX_SECTIONS = 64;
  static final int DIGEST_BYTES = 32;

  /** Entries of the optional /16 prefix table: one per 16-bit prefix plus an end marker. */
  static final int PREFIX16_ENTRIES = 65537;

  /** The most elements a section may have: the largest Java array. */
  static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8;

  static final int OFF_VERSION = 8;
  static final int OFF_KIND = 10;
  static final int OFF_FLAGS = 12;
  static final int OFF_ROWS = 16;
  static final int OFF_CREATED = 24;
  static final int OFF_FILE_LENGTH = 32;
  static final int OFF_SECTION_COUNT = 40;
  static final int OFF_DIGEST = 48;
  static final int OFF_HEADER_CRC = 124;

  private Layout() {}

  /**
   * Keys are stored as {@code address ^ 0x80000000} so that signed {@code int} order is unsigned
   * address order (0.0.0.0 becomes Integer.MIN_VALUE). Applying it twice gives the address back.
   */
  static int flip(int value) {
    return value ^ 0x80000000;
  }

  static long align(long offset) {
    return (offset + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /** Offset of the first section for a directory of {@code sectionCount} entries. */
  static long firstSectionOffset(int sectionCount) {
    return align(HEADER_BYTES + (long) DIR_ENTRY_BYTES * sectionCount);
  }

  /** Header plus directory, ready to be written at offset 0. */
  static ByteBuffer encode(
      IndexKind kind,
      long rowCount,
      long createdMillis,
      long fileLength,
      byte[] sourceDigest,
      List<SectionEntry> sections) {
    ByteBuffer b =
        ByteBuffer.allocate(HEADER_BYTES + DIR_ENTRY_BYTES * sections.size())
            .order(ByteOrder.LITTLE_ENDIAN);
    b.put(MAGIC);
    int version = 1;
    for (SectionEntry e : sections) {
      version = Math.max(version, e.section().since());
    }
    b.putShort(OFF_VERSION, (short) version);
    b.putShort(OFF_KIND, (short) kind.code());
    b.putInt(OFF_FLAGS, 0);
    b.putLong(OFF_ROWS, rowCount);
    b.putLong(OFF_CREATED, createdMillis);
    b.putLong(OFF_FILE_LENGTH, fileLength);
    b.putInt(OFF_SECTION_COUNT, sections.size());
    b.position(OFF_DIGEST);
    b.put(sourceDigest, 0, DIGEST_BYTES);
    b.position(HEADER_BYTES);
    for (SectionEntry e : sections) {
      b.putInt(e.section().id());
      b.putShort((short) e.section().width());
      b.putShort((short) 0);
      b.putLong(e.offset());
      b.putLong(e.length());
      b.putInt(e.crc32c());
      b.putInt(0);
    }
    b.putInt(OFF_HEADER_CRC, headerCrc(b));
    b.clear();
    return b;
  }

  private static int headerCrc(ByteBuffer headerAndDirectory) {
    CRC32C crc = new CRC32C();
    ByteBuffer d = headerAndDirectory.duplicate();
    d.clear().limit(OFF_HEADER_CRC);
    crc.update(d);
    d.clear().position(HEADER_BYTES);
    crc.update(d);
    return (int) crc.getValue();
  }

  /** Every loader checks this before reading: a shorter file cannot hold a header. */
  static void requireHeader(Path file, long fileSize) throws CorruptIndexException {
    if (fileSize < HEADER_BYTES) {
      throw CorruptIndexException.at(
          file,
          "header",
          0,
          "at least " + HEADER_BYTES + " bytes",
          "fewer: a truncated index, or not a Spindex index");
    }
  }

  /**
   * Validates the fixed header (the first {@value #HEADER_BYTES} bytes) far enough to trust its
   * section count, and returns the number of directory bytes that follow it.
   */
  static int directoryBytes(Path file, ByteBuffer fixed, long fileSize)
      throws CorruptIndexException {
    requireHeader(file, fileSize);
    ByteBuffer b = fixed.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    byte[] magic = new byte[MAGIC.length];
    b.duplicate().position(0).get(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      // Not the found bytes: a shared SQL server would show any readable file's first bytes.
      throw CorruptIndexException.at(
          file,
          "header",
          0,
          "magic " + hex(MAGIC) + " (a Spindex index)",
          "other bytes: not a Spindex index");
    }
    int version = Short.toUnsignedInt(b.getShort(OFF_VERSION));
    if (version < 1 || version > VERSION) {
      throw CorruptIndexException.at(
          file,
          "header",
          OFF_VERSION,
          "format version 1 to "
              + VERSION
              + (version > VERSION ? " (written by a newer Spindex)" : ""),
          String.valueOf(version));
    }
    long count = Integer.toUnsignedLong(b.getInt(OFF_SECTION_COUNT));
    if (count > MAX_SECTIONS) {
      throw CorruptIndexException.at(
          file, "header", OFF_SECTION_COUNT, "at most " + MAX_SECTIONS + " sections", "" + count);
    }
    long need = HEADER_BYTES + DIR_ENTRY_BYTES * count;
    if (need > fileSize) {
      throw CorruptIndexException.at(
          file,
          "directory",
          HEADER_BYTES,
          need + " bytes of header and directory",
          fileSize + " bytes in the file");
    }
    return (int) (DIR_ENTRY_BYTES * count);
  }

  /**
   * Validates header and directory against each other and against the file size: checksum, kind,
   * flags, alignment, bounds, overlaps, required sections and their element counts. Section
   * checksums are checked by whoever reads the section bytes.
   */
  static IndexHeader decode(Path file, ByteBuffer headerAndDirectory, long fileSize)
      throws CorruptIndexException {
    ByteBuffer b = headerAndDirectory.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int dirBytes = directoryBytes(file, b, fileSize);
    if (b.capacity() < HEADER_BYTES + dirBytes) {
      throw new IllegalArgumentException("header buffer too small");
    }
    b.limit(HEADER_BYTES + dirBytes);
    int storedCrc = b.getInt(OFF_HEADER_CRC);
    int actualCrc = headerCrc(b);
    if (storedCrc != actualCrc) {
      throw CorruptIndexException.at(
          file,
          "header",
          OFF_HEADER_CRC,
          "header checksum " + crcHex(storedCrc),
          crcHex(actualCrc) + " (header or directory damaged)");
    }
    int kindCode = Short.toUnsignedInt(b.getShort(OFF_KIND));
    IndexKind kind = IndexKind.forCode(kindCode);
    if (kind == null) {
      throw CorruptIndexException.at(
          file, "header", OFF_KIND, "a known index kind (1, 2 or 3)", String.valueOf(kindCode));
    }
    for (int at : new int[] {44, 80, 88, 96, 104, 112, 120}) {
      int width = at == 44 || at == 120 ? 4 : 8;
      long v = width == 4 ? b.getInt(at) : b.getLong(at);
      if (v != 0) {
        throw CorruptIndexException.at(
            file,
            "header",
            at,
            "reserved bytes " + at + "-" + (at + width - 1) + " zero",
            hexOf(v));
      }
    }
    int flags = b.getInt(OFF_FLAGS);
    if (flags != 0) {
      throw CorruptIndexException.at(file, "header", OFF_FLAGS, "flags 0", "0x" + crcHex(flags));
    }
    long rows = b.getLong(OFF_ROWS);
    long fileLength = b.getLong(OFF_FILE_LENGTH);
    if (fileLength != fileSize) {
      throw CorruptIndexException.at(
          file,
          "header",
          OFF_FILE_LENGTH,
          "a file of " + fileLength + " bytes (as written)",
          fileSize + " bytes (truncated or extended)");
    }
    if (rows < 0 || rows > Integer.MAX_VALUE - 8) {
      throw CorruptIndexException.at(
          file, "header", OFF_ROWS, "a row count in [0, 2^31-9]", String.valueOf(rows));
    }
    byte[] digest = new byte[DIGEST_BYTES];
    b.duplicate().position(OFF_DIGEST).get(digest);
    int version = Short.toUnsignedInt(b.getShort(OFF_VERSION));
    int count = dirBytes / DIR_ENTRY_BYTES;
    List<SectionEntry> entries = new ArrayList<>(count);
    EnumSet<Section> seen = EnumSet.noneOf(Section.class);
    long first = firstSectionOffset(count);
    for (int i = 0; i < count; i++) {
      int at = HEADER_BYTES + i * DIR_ENTRY_BYTES;
      int id = b.getInt(at);
      Section s = Section.forId(id, version);
      if (s == null || !seen.add(s)) {
        throw CorruptIndexException.at(
            file,
            "directory",
            at,
            "a known, not yet listed section id (1.." + Section.maxId(version) + ")",
            String.valueOf(Integer.toUnsignedLong(id)));
      }
      if (b.getShort(at + 6) != 0 || b.getInt(at + 28) != 0) {
        throw CorruptIndexException.at(
            file,
            "directory",
            at + (b.getShort(at + 6) != 0 ? 6 : 28),
            "reserved directory bytes zero",
            "0x"
                + Integer.toHexString(
                    b.getShort(at + 6) != 0 ? b.getShort(at + 6) : b.getInt(at + 28)));
      }
      int width = Short.toUnsignedInt(b.getShort(at + 4));
      long offset = b.getLong(at + 8);
      long length = b.getLong(at + 16);
      String name = "section '" + s.displayName() + "'";
      if (width != s.width()) {
        throw CorruptIndexException.at(
            file, "directory", at + 4, name + " width " + s.width(), "" + width);
      }
      if (offset < first || offset % ALIGNMENT != 0) {
        throw CorruptIndexException.at(
            file,
            "directory",
            at + 8,
            name + " offset aligned to " + ALIGNMENT + " and >= " + first,
            String.valueOf(offset));
      }
      if (length < 0 || length % width != 0 || length > fileSize - offset) {
        throw CorruptIndexException.at(
            file,
            "directory",
            at + 16,
            name + " length, a multiple of " + width + " ending within " + fileSize + " bytes",
            length + " bytes at offset " + offset);
      }
      if (length / width > MAX_ELEMENTS) {
        throw CorruptIndexException.at(
            file,
            "directory",
            at + 16,
            name
                + " of at most "
                + MAX_ELEMENTS
                + " elements (rows are Java int indexes; a larger list is split over indexes)",
            (length / width) + " elements");
      }
      entries.add(new SectionEntry(s, offset, length, b.getInt(at + 24)));
    }
    List<SectionEntry> byOffset = new ArrayList<>(entries);
    byOffset.sort(Comparator.comparingLong(SectionEntry::offset));
    for (int i = 1; i < byOffset.size(); i++) {
      SectionEntry prev = byOffset.get(i - 1);
      SectionEntry next = byOffset.get(i);
      if (prev.offset() + prev.length() > next.offset()) {
        throw CorruptIndexException.at(
            file,
            "directory",
            HEADER_BYTES,
            "section '"
                + next.section().displayName()
                + "' to start after '"
                + prev.section().displayName()
                + "' ends at "
                + (prev.offset() + prev.length()),
            "offset " + next.offset());
      }
    }
    IndexHeader h =
        new IndexHeader(
            file,
            kind,
            version,
            rows,
            b.getLong(OFF_CREATED),
            fileLength,
            digest,
            entries,
            storedCrc);
    checkCounts(h);
    return h;
  }

  private static void checkCounts(IndexHeader h) throws CorruptIndexException {
    if (h.kind() == IndexKind.IPV4_SET) {
      SectionEntry hi = h.find(Section.KEYS6_HI);
      long v6 = hi == null ? 0 : hi.elements();
      expectElements(h, h.require(Section.KEYS), h.rowCount() - v6);
      if (hi != null) {
        expectElements(h, h.require(Section.KEYS6_LO), v6);
      }
      onlyIn(h, Section.KEYS6_HI, Section.KEYS6_LO, Section.PREFIX16_V6, Section.PREFIX6);
    } else if (h.kind() == IndexKind.PRODUCTS) {
      expectElements(h, h.require(Section.ID_HASHES), h.rowCount());
      expectElements(h, h.require(Section.ID_OFFSETS), h.rowCount() + 1);
      h.require(Section.PRODUCT_INTS);
      h.require(Section.COLUMN_NAMES);
      h.require(Section.ID_BYTES);
      onlyIn(h, Section.ID_HASHES);
    } else {
      SectionEntry hi = h.find(Section.RANGE6_STARTS_HI);
      long v6 = hi == null ? 0 : hi.elements();
      long v4 = h.rowCount() - v6;
      SectionEntry low = h.find(Section.RANGE_STARTS_LOW);
      SectionEntry tiled = h.find(Section.TILED_LABELS);
      if (low != null) {
        // Packed rows: the starts' low 16 bits, the label ids in 1 to 4 bytes a row.
        h.require(Section.PREFIX16);
        expectElements(h, low, 2 * v4);
        SectionEntry ids = h.require(Section.ROW_LABEL_IDS);
        long width = v4 == 0 ? 1 : ids.elements() / v4;
        if (ids.elements() != width * v4 || width < 1 || width > 4) {
          throw CorruptIndexException.at(
              h.file(),
              "section 'row_label_ids'",
              ids.offset(),
              "1 to 4 bytes a row for " + v4 + " rows",
              ids.elements() + " bytes");
        }
        absent(
            h,
            "beside 'range_starts_low' (packed rows)",
            Section.RANGE_STARTS,
            Section.TILED_LABELS,
            Section.RANGE_ENDS,
            Section.RANGE_LABELS);
      } else if (tiled == null) {
        expectElements(h, h.require(Section.RANGE_STARTS), v4);
        absent(h, "without 'range_starts_low' (packed rows)", Section.ROW_LABEL_IDS);
        expectElements(h, h.require(Section.RANGE_ENDS), v4);
        expectElements(h, h.require(Section.RANGE_LABELS), v4);
      } else {
        expectElements(h, h.require(Section.RANGE_STARTS), v4);
        absent(h, "without 'range_starts_low' (packed rows)", Section.ROW_LABEL_IDS);
        expectElements(h, tiled, v4);
        absent(
            h,
            "beside 'tiled_labels' (ranges without their ends)",
            Section.RANGE_ENDS,
            Section.RANGE_LABELS);
      }
      if (hi != null) {
        SectionEntry zero = h.find(Section.RANGE6_STARTS_LO_ZERO);
        if (zero == null) {
          expectElements(h, h.require(Section.RANGE6_STARTS_LO), v6);
        } else {
          // Packed IPv6 rows: every start's low half 0, no column for them.
          expectElements(h, zero, 0);
          if (h.find(Section.TILED6_ROWS) == null) {
            h.require(Section.TILED6_LABELS);
          }
          absent(h, "beside 'range6_starts_lo_zero' (packed rows)", Section.RANGE6_STARTS_LO);
        }
        SectionEntry tiled6 = h.find(Section.TILED6_LABELS);
        SectionEntry rows6 = h.find(Section.TILED6_ROWS);
        if (rows6 != null) {
          // Packed tiled rows: their keys are bits below the shift of their /16 block or bucket.
          expectElements(h, rows6, v6);
          h.require(Section.PREFIX16_V6);
          absent(
              h,
              "beside 'tiled6_rows' (packed tiled rows)",
              Section.TILED6_LABELS,
              Section.RANGE6_ENDS_HI,
              Section.RANGE6_ENDS_LO,
              Section.RANGE6_LABELS);
        } else if (tiled6 == null) {
          expectElements(h, h.require(Section.RANGE6_ENDS_HI), v6);
          expectElements(h, h.require(Section.RANGE6_ENDS_LO), v6);
          expectElements(h, h.require(Section.RANGE6_LABELS), v6);
        } else {
          expectElements(h, tiled6, v6);
          absent(
              h,
              "beside 'tiled6_labels' (ranges without their ends)",
              Section.RANGE6_ENDS_HI,
              Section.RANGE6_ENDS_LO,
              Section.RANGE6_LABELS);
        }
      }
      onlyIn(
          h,
          Section.RANGE6_STARTS_HI,
          Section.RANGE6_STARTS_LO,
          Section.RANGE6_ENDS_HI,
          Section.RANGE6_ENDS_LO,
          Section.RANGE6_LABELS,
          Section.PREFIX16_V6,
          Section.PREFIX6,
          Section.TILED6_LABELS,
          Section.RANGE6_STARTS_LO_ZERO,
          Section.TILED6_ROWS);
      SectionEntry fields = h.find(Section.LABEL_FIELDS);
      if (fields != null && fields.length() < 2) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'label_fields'",
            fields.offset(),
            "a delimiter line and at least one field name",
            fields.length() + " bytes");
      }
      SectionEntry offsets;
      if (h.find(Section.LABEL_VALUE_IDS) == null) {
        h.require(Section.LABEL_BYTES);
        offsets = h.require(Section.LABEL_OFFSETS);
        absent(h, "without 'label_value_ids' (labels by field)", FIELD_SECTIONS);
      } else {
        // Labels by field: the values' counts, offsets and bytes, and the fields they are of.
        h.require(Section.LABEL_FIELDS);
        h.require(Section.FIELD_VALUE_COUNTS);
        h.require(Section.FIELD_VALUE_BYTES);
        offsets = h.require(Section.FIELD_VALUE_OFFSETS);
        absent(
            h,
            "beside 'label_value_ids' (labels by field)",
            Section.LABEL_OFFSETS,
            Section.LABEL_BYTES);
      }
      if (offsets.elements() < 1) {
        throw CorruptIndexException.at(
            h.file(),
            "section '" + offsets.section().displayName() + "'",
            offsets.offset(),
            "at least 1 element",
            "" + offsets.elements());
      }
    }
    SectionEntry prefix = h.find(Section.PREFIX16);
    if (prefix != null) {
      expectElements(h, prefix, PREFIX16_ENTRIES);
    }
    SectionEntry prefix24 = h.find(Section.PREFIX24);
    if (prefix24 != null) {
      long tables = prefix24.elements() - SubTables.MAP_INTS;
      if (prefix == null
          || tables < SubTables.TABLE_INTS
          || tables % SubTables.TABLE_INTS != 0
          || tables / SubTables.TABLE_INTS > 65535) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'prefix24'",
            prefix24.offset(),
            SubTables.MAP_INTS
                + " + k x "
                + SubTables.TABLE_INTS
                + " elements (0 < k < 65536), beside a 'prefix16' section",
            prefix24.elements() + " elements" + (prefix == null ? ", no 'prefix16' section" : ""));
      }
    }
    SectionEntry prefix6 = h.find(Section.PREFIX16_V6);
    if (prefix6 != null) {
      expectElements(h, prefix6, PREFIX16_ENTRIES);
    }
    SectionEntry tables6 = h.find(Section.PREFIX6);
    if (tables6 != null
        && (prefix6 == null || tables6.elements() < Prefix6.MAP_INTS + Prefix6.HEAD_INTS + 2)) {
      throw CorruptIndexException.at(
          h.file(),
          "section 'prefix6'",
          tables6.offset(),
          "at least "
              + (Prefix6.MAP_INTS + Prefix6.HEAD_INTS + 2)
              + " elements, beside a 'prefix16_v6' section",
          tables6.elements() + " elements" + (prefix6 == null ? ", no 'prefix16_v6' section" : ""));
    }
  }

  /**
   * The IPv6 sections of a kind come together: a file without the first of {@code group} may hold
   * none of them, and no kind may hold another kind's IPv6 sections.
   */
  private static void onlyIn(IndexHeader h, Section... group) throws CorruptIndexException {
    List<Section> allowed = h.find(group[0]) == null ? List.of() : Arrays.asList(group);
    for (SectionEntry e : h.sections()) {
      Section s = e.section();
      boolean ofRanges =
          (s == Section.LABEL_FIELDS
                  || s == Section.PREFIX24
                  || s == Section.LABEL_TYPES
                  || s == Section.SOURCE_INFO
                  || s == Section.IPV4_ALIASES
                  || s == Section.TILED_LABELS
                  || s == Section.LABEL_VALUE_IDS
                  || s == Section.RANGE_STARTS_LOW
                  || s == Section.ROW_LABEL_IDS
                  || Arrays.asList(FIELD_SECTIONS).contains(s))
              && h.kind() == IndexKind.IPV4_RANGES;
      if (s.since() > 1 && !allowed.contains(s) && !ofRanges) {
        throw CorruptIndexException.at(
            h.file(),
            "section '" + s.displayName() + "'",
            e.offset(),
            "no '"
                + s.displayName()
                + "' in "
                + h.kind().description()
                + " file"
                + (h.find(group[0]) == null ? " without '" + group[0].displayName() + "'" : ""),
            e.length() + " bytes");
      }
    }
  }

  /** None of {@code sections}, each refused as "no 'name' {@code why}". */
  private static void absent(IndexHeader h, String why, Section... sections)
      throws CorruptIndexException {
    for (Section s : sections) {
      SectionEntry e = h.find(s);
      if (e != null) {
        throw CorruptIndexException.at(
            h.file(),
            "section '" + s.displayName() + "'",
            e.offset(),
            "no '" + s.displayName() + "' " + why,
            e.length() + " bytes");
      }
    }
  }

  /** The sections of labels by field beside {@link Section#LABEL_VALUE_IDS}. */
  private static final Section[] FIELD_SECTIONS = {
    Section.FIELD_VALUE_COUNTS, Section.FIELD_VALUE_OFFSETS, Section.FIELD_VALUE_BYTES
  };

  private static void expectElements(IndexHeader h, SectionEntry e, long expected)
      throws CorruptIndexException {
    if (e.elements() != expected) {
      throw CorruptIndexException.at(
          h.file(),
          "section '" + e.section().displayName() + "'",
          e.offset(),
          expected + " elements (" + expected * e.section().width() + " bytes)",
          e.elements() + " elements (" + e.length() + " bytes)");
    }
  }

  /**
   * The product index's column names: LF-separated UTF-8 in section {@code column_names}, starting
   * with {@link ProductIndex#FIXED_COLUMNS}, none empty or repeated.
   */
  static List<String> columnNames(IndexHeader h, SectionEntry e, ByteBuffer bytes)
      throws CorruptIndexException {
    byte[] b = new byte[bytes.remaining()];
    bytes.duplicate().get(b);
    List<String> names =
        new ArrayList<>(Arrays.asList(new String(b, StandardCharsets.UTF_8).split("\n", -1)));
    List<String> fixed = ProductIndex.FIXED_COLUMNS;
    boolean ok = names.size() >= fixed.size() && names.subList(0, fixed.size()).equals(fixed);
    for (int i = 0; ok && i < names.size(); i++) {
      ok = !names.get(i).isEmpty() && names.indexOf(names.get(i)) == i;
    }
    if (!ok) {
      throw CorruptIndexException.at(
          h.file(),
          "section 'column_names'",
          e.offset(),
          "distinct, non-empty names starting " + String.join(",", fixed),
          "'" + String.join(",", names) + "'");
    }
    return names;
  }

  private static String hexOf(long v) {
    return "0x" + Long.toHexString(v);
  }

  static String crcHex(int crc) {
    return String.format("%08x", crc);
  }

  static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder();
    for (byte x : bytes) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(String.format("%02X", x & 0xFF));
    }
    return sb.toString();
  }
}
