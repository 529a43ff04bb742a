/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import io.spindex.index.search.Encoding;
import io.spindex.index.search.Prefix6;
import io.spindex.index.search.SubTables;
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
 *      8     2  format version: major * 256 + minor (1.0: 256)
 *     10     2  index kind
 *     12     4  flags (0)
 *     16     8  row count
 *     24     8  created, ms since the epoch
 *     32     8  file length in bytes
 *     40     4  section count
 *     44     4  reserved (0)
 *     48    32  SHA-256 of the source bytes
 *     80    44  reserved (0)
 *    124     4  CRC32C of bytes 0..123 followed by the whole directory
 *    128  32*n  directory: id u32, width u16, flags u16, offset u64, length u64, crc32c u32, 0 u32
 * </pre>
 *
 * All integers little-endian. Sections start at multiples of 64 bytes, zero-padded between. Which
 * sections a kind holds, and how many elements each has, is the table of {@link #rules}; what their
 * elements mean (flipped keys, prefix tables, gap rows) is {@link Encoding}'s and the search
 * structures'.
 */
@Internal
public final class Layout {
  static final byte[] MAGIC = {(byte) 0x89, 'S', 'P', 'X', '\r', '\n', 0x1A, '\n'};

  /** The format this code writes: major 1, minor 0. It reads major 1, any minor. */
  static final int VERSION = 1 << 8;

  static final int MAJOR = VERSION >>> 8;

  /** Section flag bit 0: a reader that does not know the section's id skips it. */
  static final int OPTIONAL = 1;

  public static final int HEADER_BYTES = 128;
  static final int DIR_ENTRY_BYTES = 32;
  static final int ALIGNMENT = 64;
  static final int MAX_SECTIONS = 64;
  static final int DIGEST_BYTES = 32;

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

  static long align(long offset) {
    return (offset + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /** Offset of the first section for a directory of {@code sectionCount} entries. */
  static long firstSectionOffset(int sectionCount) {
    return align(HEADER_BYTES + (long) DIR_ENTRY_BYTES * sectionCount);
  }

  /** A format version as text: {@code major.minor}. */
  static String versionText(int version) {
    return (version >>> 8) + "." + (version & 0xFF);
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
    b.putShort(OFF_VERSION, (short) VERSION);
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
      b.putInt(e.id());
      b.putShort((short) e.section().width());
      b.putShort((short) 0); // flags: every section this writer writes is known to 1.0 readers
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
  public static void requireHeader(Path file, long fileSize) throws CorruptIndexException {
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
  public static int directoryBytes(Path file, ByteBuffer fixed, long fileSize)
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
    if (version >>> 8 < MAJOR) {
      // Versions 1 to 8 of the pre-release are major 0: one line, and what to do about it.
      throw new CorruptIndexException(
          file
              + ": written by a pre-release Spindex (format "
              + versionText(version)
              + "); Spindex 1.x reads format 1 only: rebuild it with 'spindex build'");
    }
    if (version >>> 8 > MAJOR) {
      throw new CorruptIndexException(
          file
              + ": written by a newer Spindex (format "
              + versionText(version)
              + "); Spindex 1.x reads format 1 only: upgrade Spindex to read it");
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
   * flags, the directory's entries (known ids or optional ones, alignment, bounds, overlaps), and
   * the kind's sections with their element counts ({@link #rules}). Section checksums are checked
   * by whoever reads the section bytes.
   */
  public static IndexHeader decode(Path file, ByteBuffer headerAndDirectory, long fileSize)
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
    if (rows < 0 || rows > MAX_ELEMENTS) {
      throw CorruptIndexException.at(
          file, "header", OFF_ROWS, "a row count in [0, 2^31-9]", String.valueOf(rows));
    }
    byte[] digest = new byte[DIGEST_BYTES];
    b.duplicate().position(OFF_DIGEST).get(digest);
    int count = dirBytes / DIR_ENTRY_BYTES;
    List<SectionEntry> entries = new ArrayList<>(count);
    long first = firstSectionOffset(count);
    for (int i = 0; i < count; i++) {
      entries.add(entry(file, b, HEADER_BYTES + i * DIR_ENTRY_BYTES, first, fileSize, entries));
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
                + next.name()
                + "' to start after '"
                + prev.name()
                + "' ends at "
                + (prev.offset() + prev.length()),
            "offset " + next.offset());
      }
    }
    IndexHeader h =
        new IndexHeader(
            file,
            kind,
            Short.toUnsignedInt(b.getShort(OFF_VERSION)),
            rows,
            b.getLong(OFF_CREATED),
            fileLength,
            digest,
            entries,
            storedCrc);
    checkSections(h);
    return h;
  }

  /** The directory entry at byte {@code at}: its id, flags, width, offset and length checked. */
  private static SectionEntry entry(
      Path file, ByteBuffer b, int at, long first, long fileSize, List<SectionEntry> before)
      throws CorruptIndexException {
    int id = b.getInt(at);
    for (SectionEntry e : before) {
      if (e.id() == id) {
        throw CorruptIndexException.at(
            file,
            "directory",
            at,
            "a section id not listed before",
            String.valueOf(Integer.toUnsignedLong(id)));
      }
    }
    int width = Short.toUnsignedInt(b.getShort(at + 4));
    int flags = Short.toUnsignedInt(b.getShort(at + 6));
    if ((flags & ~OPTIONAL) != 0) {
      throw CorruptIndexException.at(
          file,
          "directory",
          at + 6,
          "section flags 0 or 1 (bit 0: optional)",
          "0x" + Integer.toHexString(flags));
    }
    if (b.getInt(at + 28) != 0) {
      throw CorruptIndexException.at(
          file,
          "directory",
          at + 28,
          "reserved directory bytes zero",
          "0x" + Integer.toHexString(b.getInt(at + 28)));
    }
    Section s = Section.forId(id);
    if (s == null && (flags & OPTIONAL) == 0) {
      throw new CorruptIndexException(
          file
              + ": directory at offset "
              + at
              + ": needs a newer Spindex (section id "
              + Integer.toUnsignedLong(id)
              + ")");
    }
    long offset = b.getLong(at + 8);
    long length = b.getLong(at + 16);
    SectionEntry e = new SectionEntry(s, id, Math.max(width, 1), offset, length, b.getInt(at + 24));
    String name = "section '" + e.name() + "'";
    if (s != null ? width != s.width() : width != 1 && width != 2 && width != 4 && width != 8) {
      throw CorruptIndexException.at(
          file,
          "directory",
          at + 4,
          name + " width " + (s != null ? s.width() : "1, 2, 4 or 8"),
          "" + width);
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
    if (s != null && length / width > MAX_ELEMENTS) {
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
    return e;
  }

  /**
   * How many elements a section must have: {@code null} when {@code elements} will do, else what
   * was expected.
   */
  private interface Count {
    String wrong(long elements, int width);
  }

  private static final Count ANY = (e, w) -> null;

  private static Count exactly(long n) {
    return (e, w) -> e == n ? null : n + " elements (" + n * w + " bytes)";
  }

  private static Count atLeast(long n, String what) {
    return (e, w) -> e >= n ? null : what;
  }

  /**
   * A section's place in a kind: required or optional, allowed only with (or only without) another
   * section, and its count.
   */
  private static final class Rule {
    final Section section;
    final boolean required;
    final Section with;
    final Section without;
    final Count count;

    Rule(Section section, boolean required, Section with, Section without, Count count) {
      this.section = section;
      this.required = required;
      this.with = with;
      this.without = without;
      this.count = count;
    }

    /** Allowed only when the file has {@code other}. */
    Rule with(Section other) {
      return new Rule(section, required, other, without, count);
    }

    /** Allowed only when the file does not have {@code other}. */
    Rule without(Section other) {
      return new Rule(section, required, with, other, count);
    }
  }

  private static Rule need(Section s, Count c) {
    return new Rule(s, true, null, null, c);
  }

  private static Rule may(Section s, Count c) {
    return new Rule(s, false, null, null, c);
  }

  /** The elements of {@code s} in the file, 0 without it. */
  private static long elements(IndexHeader h, Section s) {
    SectionEntry e = h.find(s);
    return e == null ? 0 : e.elements();
  }

  /**
   * The sections of the file's kind, in their order in docs/FORMAT.md: whether each is required or
   * optional, what it needs beside it, and its element count. A section of no rule of the kind is
   * an error. Counts that depend on the sections' contents (the product columns, a label field's
   * values) are checked where the loader reads them.
   */
  private static List<Rule> rules(IndexHeader h) {
    long rows = h.rowCount();
    Count prefix = exactly(Encoding.PREFIX16_ENTRIES);
    Count tables6 =
        atLeast(
            Prefix6.MAP_INTS + Prefix6.HEAD_INTS + 2L,
            "at least " + (Prefix6.MAP_INTS + Prefix6.HEAD_INTS + 2) + " elements");
    if (h.kind() == IndexKind.IPV4_SET) {
      long v6 = elements(h, Section.KEYS6_HI);
      return List.of(
          need(Section.KEYS, exactly(rows - v6)),
          may(Section.PREFIX16, prefix),
          may(Section.KEYS6_HI, ANY),
          need(Section.KEYS6_LO, exactly(v6)).with(Section.KEYS6_HI),
          may(Section.PREFIX16_V6, prefix).with(Section.KEYS6_HI),
          may(Section.PREFIX6, tables6).with(Section.PREFIX16_V6),
          may(Section.SOURCE_INFO, ANY));
    }
    if (h.kind() == IndexKind.PRODUCTS) {
      return List.of(
          need(Section.ID_HASHES, exactly(rows)),
          may(Section.PREFIX16, prefix),
          need(Section.PRODUCT_INTS, ANY),
          need(Section.COLUMN_NAMES, ANY),
          need(Section.ID_OFFSETS, exactly(rows + 1)),
          need(Section.ID_BYTES, ANY),
          may(Section.SOURCE_INFO, ANY));
    }
    long v6 = elements(h, Section.RANGE6_STARTS_HI);
    long v4 = rows - v6;
    Count idBytes =
        (e, w) -> {
          long perRow = v4 == 0 ? 1 : e / v4;
          return e == perRow * v4 && perRow >= 1 && perRow <= 4
              ? null
              : "1 to 4 bytes a row for " + v4 + " rows";
        };
    Count subTables =
        (e, w) -> {
          long tables = e - SubTables.MAP_INTS;
          return tables >= SubTables.TABLE_INTS
                  && tables % SubTables.TABLE_INTS == 0
                  && tables / SubTables.TABLE_INTS <= 65535
              ? null
              : SubTables.MAP_INTS + " + k x " + SubTables.TABLE_INTS + " elements (0 < k < 65536)";
        };
    return List.of(
        need(Section.RANGE_STARTS_LOW, exactly(2 * v4)),
        need(Section.ROW_LABEL_IDS, idBytes),
        v4 > 0 ? need(Section.PREFIX16, prefix) : may(Section.PREFIX16, prefix),
        may(Section.PREFIX24, subTables).with(Section.PREFIX16),
        may(Section.RANGE6_STARTS_HI, ANY),
        may(Section.RANGE6_STARTS_LO, exactly(v6)).with(Section.RANGE6_STARTS_HI),
        need(Section.RANGE6_ROWS, exactly(v6)).with(Section.RANGE6_STARTS_HI),
        need(Section.PREFIX16_V6, prefix).with(Section.RANGE6_STARTS_HI),
        may(Section.PREFIX6, tables6).with(Section.PREFIX16_V6),
        need(Section.LABEL_OFFSETS, atLeast(1, "at least 1 element")).without(Section.LABEL_FIELDS),
        need(Section.LABEL_BYTES, ANY).without(Section.LABEL_FIELDS),
        may(Section.LABEL_FIELDS, atLeast(2, "a delimiter line and at least one field name")),
        may(Section.LABEL_TYPES, ANY).with(Section.LABEL_FIELDS),
        need(Section.FIELD_VALUE_COUNTS, ANY).with(Section.LABEL_FIELDS),
        need(Section.FIELD_VALUE_OFFSETS, atLeast(1, "at least 1 element"))
            .with(Section.LABEL_FIELDS),
        need(Section.FIELD_VALUE_BYTES, ANY).with(Section.LABEL_FIELDS),
        need(Section.LABEL_VALUE_IDS, ANY).with(Section.LABEL_FIELDS),
        may(Section.IPV4_ALIASES, (e, w) -> e % 3 == 0 ? null : "a multiple of 3 elements"),
        may(Section.SOURCE_INFO, ANY));
  }

  /**
   * The kind's sections against {@link #rules}: none of another kind, each one's company, counts.
   */
  private static void checkSections(IndexHeader h) throws CorruptIndexException {
    List<Rule> rules = rules(h);
    EnumSet<Section> ofKind = EnumSet.noneOf(Section.class);
    for (Rule r : rules) {
      ofKind.add(r.section);
    }
    for (SectionEntry e : h.sections()) {
      if (e.section() != null && !ofKind.contains(e.section())) {
        throw CorruptIndexException.at(
            h.file(),
            "section '" + e.name() + "'",
            e.offset(),
            "no '" + e.name() + "' in " + h.kind().description() + " file",
            e.length() + " bytes");
      }
    }
    for (Rule r : rules) {
      SectionEntry e = h.find(r.section);
      boolean lacks = r.with != null && h.find(r.with) == null;
      boolean beside = r.without != null && h.find(r.without) != null;
      if (e == null) {
        if (r.required && !lacks && !beside) {
          h.require(r.section);
        }
        continue;
      }
      if (lacks || beside) {
        throw CorruptIndexException.at(
            h.file(),
            "section '" + e.name() + "'",
            e.offset(),
            "no '"
                + e.name()
                + (lacks
                    ? "' without '" + r.with.displayName()
                    : "' beside '" + r.without.displayName())
                + "'",
            e.length() + " bytes");
      }
      String wrong = r.count.wrong(e.elements(), r.section.width());
      if (wrong != null) {
        throw CorruptIndexException.at(
            h.file(),
            "section '" + e.name() + "'",
            e.offset(),
            wrong,
            e.elements() + " elements (" + e.length() + " bytes)");
      }
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

  public static String crcHex(int crc) {
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
