/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.builder.ProductIndexBuilder;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Makes the {@code bad/} fixture set: broken index files, each derived from a small valid index by
 * one deliberate change. Where the change must get past the checksums to reach a deeper check
 * (bounds, order), the checksums are recomputed. Run {@link #main} to regenerate after a deliberate
 * format change; {@code BadFixturesTest} checks that the committed files are exactly what this
 * makes. One fixture is not made here: {@code pre-release-0.8.spx}, a range index written by the
 * pre-release writer (format 0.8, {@code spindex build ranges} of four IPv4 and three IPv6 ranges),
 * kept as that writer wrote it.
 */
public final class BadFixtures {
  private BadFixtures() {}

  /** Fixture name to bytes, in a stable order. */
  static Map<String, byte[]> make(Path work) throws IOException {
    Path ipsText = work.resolve("ips.txt");
    Files.write(
        ipsText,
        "10.0.0.1\n10.0.0.2\n10.0.0.3\n192.168.1.1\n8.8.8.8\n".getBytes(StandardCharsets.UTF_8));
    Path ips = work.resolve("ips.spx");
    Path withPrefix = work.resolve("ips-prefix.spx");
    // Without the 256 KiB prefix table the set fixtures stay tiny; one fixture needs the table, and
    // a range index always has one (for IPv4 rows, or for IPv6 rows).
    new IpSetBuilder().createdMillis(0).prefixTable(false).build(List.of(ipsText), ips);
    new IpSetBuilder().createdMillis(0).build(List.of(ipsText), withPrefix);
    Path rangesText = work.resolve("ranges.txt");
    Files.write(
        rangesText,
        "1.0.0.0|1.0.0.255|AU\n1.0.1.0|1.0.3.255|CN\n8.8.8.0|8.8.8.255|US\n"
            .getBytes(StandardCharsets.UTF_8));
    Path ranges = work.resolve("ranges.spx");
    new IpRangeBuilder().createdMillis(0).build(List.of(rangesText), ranges);
    Path sixText = work.resolve("six.txt");
    Files.write(
        sixText,
        "2001:db8::/48|v6-a\n2001:db8:1::|2001:db8:1::ff|v6-b\n2a00::/16|v6-c\n"
            .getBytes(StandardCharsets.UTF_8));
    Path six = work.resolve("six.spx");
    new IpRangeBuilder().createdMillis(0).build(List.of(sixText), six);
    Path productsText = work.resolve("products.tsv");
    Files.write(
        productsText,
        ("id\ttitle\tprice_pc\tshipping\n"
                + "P001\t사과\t1000\t0\nP002\t배\t2000\t2500\nP003\t감\t3000\t-1\n")
            .getBytes(StandardCharsets.UTF_8));
    Path products = work.resolve("products.spx");
    new ProductIndexBuilder().createdMillis(0).build(List.of(productsText), products);
    byte[] prod = Files.readAllBytes(products);
    IndexHeader ph = Loader.readHeader(products);
    byte[] set = Files.readAllBytes(ips);
    IndexHeader sh = Loader.readHeader(ips);
    byte[] rng = Files.readAllBytes(ranges);
    IndexHeader rh = Loader.readHeader(ranges);
    byte[] v6 = Files.readAllBytes(six);
    IndexHeader vh = Loader.readHeader(six);
    long keys = sh.find(Section.KEYS).offset();

    Map<String, byte[]> out = new LinkedHashMap<>();
    out.put("empty.spx", new byte[0]);
    out.put("truncated-in-header.spx", Arrays.copyOf(set, 64));
    out.put("truncated-after-header.spx", Arrays.copyOf(set, Layout.HEADER_BYTES));
    out.put("truncated-in-section.spx", Arrays.copyOf(set, (int) keys + 6));
    out.put("truncated-last-byte.spx", Arrays.copyOf(set, set.length - 1));
    out.put("bad-magic.spx", flip(set, 1, 0x20));
    out.put(
        "text-not-index.spx", "10.0.0.1\n10.0.0.2\n".repeat(10).getBytes(StandardCharsets.UTF_8));
    // Format 2.0: major 2 (byte 9), minor 0 (byte 8).
    out.put("newer-major.spx", put16(set, Layout.OFF_VERSION, 2 << 8, false));
    out.put("unknown-kind.spx", put16(set, Layout.OFF_KIND, 9, true));
    out.put("reserved-header-bytes.spx", put16(set, 100, 1, true));
    out.put("reserved-directory-bytes.spx", put16(set, Layout.HEADER_BYTES + 28, 7, true));
    out.put("section-flags-reserved.spx", put16(set, Layout.HEADER_BYTES + 6, 2, true));
    out.put(
        "unknown-required-section.spx",
        addSection(set, 99, 1, 0, "a section of a newer Spindex".getBytes(StandardCharsets.UTF_8)));
    byte[] optional =
        addSection(
            set, 99, 1, Layout.OPTIONAL, "an optional section".getBytes(StandardCharsets.UTF_8));
    out.put("unknown-optional-damaged.spx", flip(optional, optional.length - 64 + 3, 0x04));
    out.put("repeated-section-id.spx", addSection(set, Section.KEYS.id(), 4, 0, new byte[4]));
    out.put(
        "section-of-another-kind.spx",
        put16(set, Layout.HEADER_BYTES, Section.LABEL_OFFSETS.id(), true));
    // id_bytes made an optional section of an id no reader knows (99), which a reader skips.
    int idBytesEntry =
        Layout.HEADER_BYTES
            + Layout.DIR_ENTRY_BYTES * ph.sections().indexOf(ph.find(Section.ID_BYTES));
    out.put(
        "missing-required-section.spx",
        put16(put16(prod, idBytesEntry, 99, false), idBytesEntry + 6, Layout.OPTIONAL, true));
    out.put("bit-flip-header-rows.spx", flip(set, Layout.OFF_ROWS, 0x01));
    out.put("bit-flip-directory.spx", flip(set, Layout.HEADER_BYTES + 8, 0x40));
    out.put("bit-flip-keys.spx", flip(set, (int) keys + 5, 0x10));
    out.put("extended.spx", Arrays.copyOf(set, set.length + 64));
    out.put("section-past-eof.spx", dirField(set, 0, 16, 1L << 20));
    out.put("section-misaligned.spx", dirField(set, 0, 8, keys + 4));
    out.put("row-count-mismatch.spx", put64(set, Layout.OFF_ROWS, 4));
    out.put("unsorted-keys.spx", swapInts(set, sh, Section.KEYS, 0, 1));
    out.put(
        "prefix-table-wrong.spx",
        setInt(
            Files.readAllBytes(withPrefix),
            Loader.readHeader(withPrefix),
            Section.PREFIX16,
            2561,
            0));
    // IPv4 ranges: rows AU, CN, gap (1.0.4.0), US, gap (8.8.9.0); 1 byte a label id.
    out.put(
        "bit-flip-label-bytes.spx", flip(rng, (int) rh.find(Section.LABEL_BYTES).offset(), 0x02));
    out.put("label-id-out-of-range.spx", setByte(rng, rh, Section.ROW_LABEL_IDS, 1, (byte) 7));
    // Row 1's start 1.0.1.0 made 1.0.0.0, row 0's (its low 16 bits 0x0100 made 0).
    out.put("unsorted-range-starts.spx", setByte(rng, rh, Section.RANGE_STARTS_LOW, 3, (byte) 0));
    // IPv6 ranges only (no IPv4 rows, no prefix16): rows v6-a, v6-b, gap (2001:db8:1::100), v6-c,
    // gap (2a01::).
    out.put(
        "v6-bit-flip-starts.spx",
        flip(v6, (int) vh.find(Section.RANGE6_STARTS_LO).offset() + 2, 0x01));
    out.put("v6-unsorted-starts.spx", swapLongs(v6, vh, Section.RANGE6_STARTS_HI, 0, 3));
    long row1 = ByteBuffer.wrap(v6).order(ByteOrder.LITTLE_ENDIAN).getLong(rowAt(vh, 1));
    out.put(
        "v6-label-id-out-of-range.spx",
        setLong(v6, vh, Section.RANGE6_ROWS, 1, row1 & ~0x7FFF_FFFFL | 10));
    out.put("v6-row-count-mismatch.spx", put64(v6, Layout.OFF_ROWS, 6));
    out.put(
        "v6-in-ipv4-mapped-block.spx",
        setLong(
            setLong(v6, vh, Section.RANGE6_STARTS_HI, 0, Long.MIN_VALUE),
            vh,
            Section.RANGE6_STARTS_LO,
            0,
            0xFFFF_0000_0000L ^ Long.MIN_VALUE));
    out.put(
        "products-bit-flip-id-hashes.spx",
        flip(prod, (int) ph.find(Section.ID_HASHES).offset() + 3, 0x08));
    out.put("products-unsorted-hashes.spx", swapLongs(prod, ph, Section.ID_HASHES, 0, 1));
    out.put("products-id-not-its-hash.spx", setByte(prod, ph, Section.ID_BYTES, 3, (byte) '9'));
    out.put(
        "products-bad-column-names.spx", setByte(prod, ph, Section.COLUMN_NAMES, 3, (byte) 'z'));
    out.put("products-id-offsets-end.spx", setInt(prod, ph, Section.ID_OFFSETS, 3, 11));
    out.put("products-id-offsets-unordered.spx", setInt(prod, ph, Section.ID_OFFSETS, 1, 9));
    return out;
  }

  /** Where row {@code row} of {@code range6_rows} lies. */
  private static int rowAt(IndexHeader h, int row) {
    return (int) h.find(Section.RANGE6_ROWS).offset() + 8 * row;
  }

  /**
   * The file with one more section, {@code data} under {@code id}, {@code width} and {@code flags},
   * after the others: every section moved to where a directory one entry longer puts it, the
   * checksums (the new section's, the header's) made right.
   */
  public static byte[] addSection(byte[] file, int id, int width, int flags, byte[] data) {
    ByteBuffer in = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    int n = in.getInt(Layout.OFF_SECTION_COUNT);
    List<byte[]> entries = new java.util.ArrayList<>();
    List<byte[]> bodies = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      int at = Layout.HEADER_BYTES + Layout.DIR_ENTRY_BYTES * i;
      entries.add(Arrays.copyOfRange(file, at, at + Layout.DIR_ENTRY_BYTES));
      int offset = (int) in.getLong(at + 8);
      bodies.add(Arrays.copyOfRange(file, offset, offset + (int) in.getLong(at + 16)));
    }
    CRC32C crc = new CRC32C();
    crc.update(data);
    ByteBuffer e =
        ByteBuffer.allocate(Layout.DIR_ENTRY_BYTES)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putInt(id)
            .putShort((short) width)
            .putShort((short) flags)
            .putLong(0)
            .putLong(data.length)
            .putInt((int) crc.getValue())
            .putInt(0);
    entries.add(e.array());
    bodies.add(data);
    long offset = Layout.firstSectionOffset(n + 1);
    long[] offsets = new long[n + 1];
    for (int i = 0; i <= n; i++) {
      offsets[i] = offset;
      offset = Layout.align(offset + bodies.get(i).length);
    }
    ByteBuffer out = ByteBuffer.allocate((int) offset).order(ByteOrder.LITTLE_ENDIAN);
    out.put(file, 0, Layout.HEADER_BYTES);
    out.putInt(Layout.OFF_SECTION_COUNT, n + 1);
    out.putLong(Layout.OFF_FILE_LENGTH, offset);
    for (int i = 0; i <= n; i++) {
      int at = Layout.HEADER_BYTES + Layout.DIR_ENTRY_BYTES * i;
      out.position(at);
      out.put(entries.get(i));
      out.putLong(at + 8, offsets[i]);
      out.position((int) offsets[i]);
      out.put(bodies.get(i));
    }
    return fixHeaderCrc(out.array());
  }

  private static byte[] swapLongs(byte[] b, IndexHeader h, Section s, int i, int j) {
    ByteBuffer bb = ByteBuffer.wrap(b.clone()).order(ByteOrder.LITTLE_ENDIAN);
    int base = (int) h.find(s).offset();
    long x = bb.getLong(base + 8 * i);
    bb.putLong(base + 8 * i, bb.getLong(base + 8 * j));
    bb.putLong(base + 8 * j, x);
    return fixSectionCrc(bb.array(), h, s);
  }

  static byte[] setLong(byte[] b, IndexHeader h, Section s, int i, long v) {
    ByteBuffer bb = ByteBuffer.wrap(b.clone()).order(ByteOrder.LITTLE_ENDIAN);
    bb.putLong((int) h.find(s).offset() + 8 * i, v);
    return fixSectionCrc(bb.array(), h, s);
  }

  static byte[] setByte(byte[] b, IndexHeader h, Section s, int i, byte v) {
    byte[] c = b.clone();
    c[(int) h.find(s).offset() + i] = v;
    return fixSectionCrc(c, h, s);
  }

  static byte[] flip(byte[] b, int at, int mask) {
    byte[] c = b.clone();
    c[at] ^= (byte) mask;
    return c;
  }

  static byte[] put16(byte[] b, int at, int v, boolean fixCrc) {
    byte[] c = b.clone();
    ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putShort(at, (short) v);
    return fixCrc ? fixHeaderCrc(c) : c;
  }

  private static byte[] put64(byte[] b, int at, long v) {
    byte[] c = b.clone();
    ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putLong(at, v);
    return fixHeaderCrc(c);
  }

  /** Changes a field of directory entry {@code entry} (8: offset, 16: length), CRC fixed up. */
  static byte[] dirField(byte[] b, int entry, int field, long v) {
    return put64(b, Layout.HEADER_BYTES + Layout.DIR_ENTRY_BYTES * entry + field, v);
  }

  private static byte[] swapInts(byte[] b, IndexHeader h, Section s, int i, int j) {
    ByteBuffer bb = ByteBuffer.wrap(b.clone()).order(ByteOrder.LITTLE_ENDIAN);
    int base = (int) h.find(s).offset();
    int x = bb.getInt(base + 4 * i);
    bb.putInt(base + 4 * i, bb.getInt(base + 4 * j));
    bb.putInt(base + 4 * j, x);
    return fixSectionCrc(bb.array(), h, s);
  }

  static byte[] setInt(byte[] b, IndexHeader h, Section s, int i, int v) {
    ByteBuffer bb = ByteBuffer.wrap(b.clone()).order(ByteOrder.LITTLE_ENDIAN);
    bb.putInt((int) h.find(s).offset() + 4 * i, v);
    return fixSectionCrc(bb.array(), h, s);
  }

  /** Recomputes a section's CRC32C in the directory, then the header's. */
  static byte[] fixSectionCrc(byte[] b, IndexHeader h, Section s) {
    SectionEntry e = h.find(s);
    CRC32C crc = new CRC32C();
    crc.update(b, (int) e.offset(), (int) e.length());
    int entry = h.sections().indexOf(e);
    ByteBuffer.wrap(b)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putInt(Layout.HEADER_BYTES + Layout.DIR_ENTRY_BYTES * entry + 24, (int) crc.getValue());
    return fixHeaderCrc(b);
  }

  static byte[] fixHeaderCrc(byte[] b) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int n = bb.getInt(Layout.OFF_SECTION_COUNT);
    CRC32C crc = new CRC32C();
    crc.update(b, 0, Layout.OFF_HEADER_CRC);
    crc.update(b, Layout.HEADER_BYTES, Layout.DIR_ENTRY_BYTES * n);
    bb.putInt(Layout.OFF_HEADER_CRC, (int) crc.getValue());
    return b;
  }

  /** Regenerates {@code core/src/test/resources/bad/*.spx}. */
  public static void main(String[] args) throws IOException {
    Path dir = Paths.get(args.length > 0 ? args[0] : "core/src/test/resources/bad");
    Path work = Files.createTempDirectory("bad-fixtures");
    for (Map.Entry<String, byte[]> e : make(work).entrySet()) {
      Files.write(dir.resolve(e.getKey()), e.getValue());
    }
  }
}
