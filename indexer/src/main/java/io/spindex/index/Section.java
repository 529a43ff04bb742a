/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;

/**
 * The sections an index may hold; ids and element widths are part of the format. Ids 1–12 are those
 * of format version 1; the IPv6 sections and the label field names (13–21) exist from version 2 on,
 * the /24 sub-tables (22) from version 3, the label types, source information and IPv4 aliases
 * (23–25) from version 4, the IPv6 tables (26) from version 5; a file is written with the version
 * of its newest section, so that a reader that predates a section rejects the file at the version
 * check.
 */
@Internal
public enum Section {
  /** IPv4 set: sorted unique addresses, each stored as {@code address ^ 0x80000000}, int32. */
  KEYS(1, "keys", 4),
  /** Optional: 65,537 int32; entry p is the first row whose address has its top 16 bits >= p. */
  PREFIX16(2, "prefix16", 4),
  /** IPv4 ranges: first address of each range, stored like {@link #KEYS}, ascending. */
  RANGE_STARTS(3, "range_starts", 4),
  /** IPv4 ranges: last address (inclusive) of each range, stored like {@link #KEYS}. */
  RANGE_ENDS(4, "range_ends", 4),
  /** IPv4 ranges: label id of each range, an index into the label dictionary. */
  RANGE_LABELS(5, "range_labels", 4),
  /** Label dictionary: labelCount + 1 int32 byte offsets into {@link #LABEL_BYTES}. */
  LABEL_OFFSETS(6, "label_offsets", 4),
  /** Label dictionary: the labels' bytes, each distinct label stored once. */
  LABEL_BYTES(7, "label_bytes", 1),
  /** Products: 64-bit hash of each product id, int64, ascending in unsigned order. */
  ID_HASHES(8, "id_hashes", 8),
  /** Products: the int columns, row-major: {@code rows x columns} int32. */
  PRODUCT_INTS(9, "product_ints", 4),
  /** Products: the names of the int columns, UTF-8, separated by LF. */
  COLUMN_NAMES(10, "column_names", 1),
  /** Products: rows + 1 int32 byte offsets into {@link #ID_BYTES}; id of row i at [i, i+1). */
  ID_OFFSETS(11, "id_offsets", 4),
  /** Products: the ids' bytes as in the source, in row order. */
  ID_BYTES(12, "id_bytes", 1),
  /** IPv6 set: high 64 bits of each address, stored as {@code bits ^ 0x8000000000000000}. */
  KEYS6_HI(13, "keys6_hi", 8, 2),
  /** IPv6 set: low 64 bits of each address, stored like {@link #KEYS6_HI}; (hi, lo) ascending. */
  KEYS6_LO(14, "keys6_lo", 8, 2),
  /** Optional: 65,537 int32; entry p is the first IPv6 row whose top 16 bits are >= p. */
  PREFIX16_V6(15, "prefix16_v6", 4, 2),
  /** IPv6 ranges: high 64 bits of each range's first address, stored like {@link #KEYS6_HI}. */
  RANGE6_STARTS_HI(16, "range6_starts_hi", 8, 2),
  /** IPv6 ranges: low 64 bits of each range's first address; (hi, lo) ascending. */
  RANGE6_STARTS_LO(17, "range6_starts_lo", 8, 2),
  /** IPv6 ranges: high 64 bits of each range's last address (inclusive). */
  RANGE6_ENDS_HI(18, "range6_ends_hi", 8, 2),
  /** IPv6 ranges: low 64 bits of each range's last address (inclusive). */
  RANGE6_ENDS_LO(19, "range6_ends_lo", 8, 2),
  /** IPv6 ranges: label id of each range, in the same dictionary as the IPv4 ranges' labels. */
  RANGE6_LABELS(20, "range6_labels", 4, 2),
  /**
   * Optional, ranges: the names of the fields a label is made of, UTF-8: the delimiter that splits
   * a label into them on the first line, then one name a line (LF-separated, no final LF).
   */
  LABEL_FIELDS(21, "label_fields", 1, 2),
  /**
   * Optional, IPv4 ranges with a {@link #PREFIX16} table: /24 sub-tables for the dense /16 blocks,
   * int32 (layout in {@link SubTables}).
   */
  PREFIX24(22, "prefix24", 4, 3),
  /**
   * Optional, ranges with {@link #LABEL_FIELDS}: the type of each label field, UTF-8, one name of
   * {@link LabelSchema.FieldType} a line, in field order (LF-separated, no final LF).
   */
  LABEL_TYPES(23, "label_types", 1, 4),
  /**
   * Optional, ranges: what the sources said of themselves (a MaxMind database's metadata), UTF-8
   * lines of {@code key TAB value} (layout in {@link SourceInfo}).
   */
  SOURCE_INFO(24, "source_info", 1, 4),
  /**
   * Optional, ranges: IPv6 prefixes whose addresses are looked up as the IPv4 address in the 32
   * bits after the prefix (a MaxMind IPv6 database's aliases of its IPv4 tree), int64 triples: the
   * prefix's high and low 64 bits and its length (layout in {@link Ipv4Aliases}).
   */
  IPV4_ALIASES(25, "ipv4_aliases", 8, 4),
  /**
   * Optional, IPv6 keys or range starts with a {@link #PREFIX16_V6} table: tables over the next
   * bits of the dense /16 blocks, int32 (layout in {@link Prefix6}).
   */
  PREFIX6(26, "prefix6", 4, 5),
  /**
   * IPv4 ranges stored without their ends (instead of {@link #RANGE_ENDS} and {@link
   * #RANGE_LABELS}): the label id of each row of {@link #RANGE_STARTS}, or {@link Layout#GAP_LABEL}
   * for a row that starts a gap; each row ends where the next starts, the last at 255.255.255.255.
   * The rows tile the space from the first start on.
   */
  TILED_LABELS(27, "tiled_labels", 4, 6),
  /**
   * IPv6 ranges stored without their ends (instead of {@link #RANGE6_ENDS_HI}, {@link
   * #RANGE6_ENDS_LO} and {@link #RANGE6_LABELS}): the label id of each row of {@link
   * #RANGE6_STARTS_HI}, or {@link Layout#GAP_LABEL} for a gap row, as {@link #TILED_LABELS}.
   */
  TILED6_LABELS(28, "tiled6_labels", 4, 6),
  /**
   * Labels by field (instead of {@link #LABEL_OFFSETS} and {@link #LABEL_BYTES}, ranges with {@link
   * #LABEL_FIELDS}): the number of distinct values of each label field, int32, in field order.
   */
  FIELD_VALUE_COUNTS(29, "field_value_counts", 4, 7),
  /**
   * Labels by field: one int32 byte offset into {@link #FIELD_VALUE_BYTES} a value, and one more;
   * the first field's values first, each value's bytes at [i, i+1).
   */
  FIELD_VALUE_OFFSETS(30, "field_value_offsets", 4, 7),
  /** Labels by field: the values' bytes, each distinct value of a field once. */
  FIELD_VALUE_BYTES(31, "field_value_bytes", 1, 7),
  /**
   * Labels by field: each label as the ids of its fields' values within their fields, each in the 1
   * to 4 little-endian bytes its field's count needs (layout in {@link LabelDictionary}).
   */
  LABEL_VALUE_IDS(32, "label_value_ids", 1, 7),
  /**
   * Packed IPv4 rows (instead of {@link #RANGE_STARTS}, beside {@link #PREFIX16} and {@link
   * #ROW_LABEL_IDS}): the low 16 bits of each row's start, 2 little-endian bytes a row; the high 16
   * are the block {@link #PREFIX16} puts the row in (layout in {@link PackedRows}).
   */
  RANGE_STARTS_LOW(33, "range_starts_low", 1, 7),
  /**
   * Packed IPv4 rows (instead of {@link #TILED_LABELS}): each row's label id in the 1 to 4
   * little-endian bytes a row the section's length gives, all bits set for a gap row.
   */
  ROW_LABEL_IDS(34, "row_label_ids", 1, 7),
  /**
   * Packed IPv6 rows (instead of {@link #RANGE6_STARTS_LO}, beside {@link #TILED6_LABELS} or {@link
   * #TILED6_ROWS}): no bytes; every row's start has a low half of 0 (as every start of a database
   * of /64 networks or wider), stored as {@code 0x8000000000000000} in the column it stands for.
   */
  RANGE6_STARTS_LO_ZERO(35, "range6_starts_lo_zero", 1, 7),
  /**
   * Packed tiled IPv6 rows (instead of {@link #TILED6_LABELS}, beside {@link #PREFIX16_V6}): one
   * int64 a row, the 32 bits of its start below the shift of the bucket its rows are in, a flag for
   * a start those bits do not tell, and its label id (layout in {@link Tiled6}).
   */
  TILED6_ROWS(36, "tiled6_rows", 8, 8);

  private final int id;
  private final String displayName;
  private final int width;
  private final int since;

  Section(int id, String displayName, int width) {
    this(id, displayName, width, 1);
  }

  Section(int id, String displayName, int width, int since) {
    this.id = id;
    this.displayName = displayName;
    this.width = width;
    this.since = since;
  }

  /** The first format version that has this section. */
  int since() {
    return since;
  }

  /** The id stored in the section directory. */
  public int id() {
    return id;
  }

  /** Element width in bytes (1, 4 or 8); a section's length is a multiple of it. */
  public int width() {
    return width;
  }

  /** The name used in messages and in {@code spindex inspect}. */
  public String displayName() {
    return displayName;
  }

  /** The highest section id a file of format {@code version} may hold. */
  static int maxId(int version) {
    int max = 0;
    for (Section s : values()) {
      if (s.since <= version) {
        max = Math.max(max, s.id);
      }
    }
    return max;
  }

  /** The section with this id in a file of format {@code version}, or {@code null}. */
  static Section forId(int id, int version) {
    for (Section s : values()) {
      if (s.id == id && s.since <= version) {
        return s;
      }
    }
    return null;
  }
}
