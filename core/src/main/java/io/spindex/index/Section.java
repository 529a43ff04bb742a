/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import io.spindex.index.search.PackedRows;
import io.spindex.index.search.Prefix6;
import io.spindex.index.search.SubTables;
import io.spindex.index.search.Tiled6;

/**
 * The sections of format 1 (docs/FORMAT.md, "Sections"); ids and element widths are part of the
 * format. Which kind holds which, and how many elements each has, is {@link Layout}'s table. A
 * later minor version may add sections, each with a new id; a reader skips a section whose id it
 * does not know if the directory marks it optional.
 */
@Internal
public enum Section {
  /** IPv4 set: sorted unique addresses, each stored as {@code address ^ 0x80000000}, int32. */
  KEYS(1, "keys", 4),
  /** 65,537 int32; entry p is the first IPv4 row whose top 16 bits are >= p (set, ranges). */
  PREFIX16(2, "prefix16", 4),
  /** IPv6 set: high 64 bits of each address, stored as {@code bits ^ 0x8000000000000000}. */
  KEYS6_HI(3, "keys6_hi", 8),
  /** IPv6 set: low 64 bits of each address, stored like {@link #KEYS6_HI}; (hi, lo) ascending. */
  KEYS6_LO(4, "keys6_lo", 8),
  /** 65,537 int32; entry p is the first IPv6 row whose top 16 bits are >= p. */
  PREFIX16_V6(5, "prefix16_v6", 4),
  /**
   * Tables over the next bits of the dense IPv6 /16 blocks, int32 (layout in {@link Prefix6}),
   * beside {@link #PREFIX16_V6}.
   */
  PREFIX6(6, "prefix6", 4),
  /**
   * IPv4 ranges: the low 16 bits of each row's start, 2 little-endian bytes a row; the high 16 are
   * the block {@link #PREFIX16} puts the row in (layout in {@link PackedRows}).
   */
  RANGE_STARTS_LOW(7, "range_starts_low", 1),
  /**
   * IPv4 ranges: each row's label id in the 1 to 4 little-endian bytes a row the section's length
   * gives, all bits set for a gap row.
   */
  ROW_LABEL_IDS(8, "row_label_ids", 1),
  /** IPv4 ranges: /24 sub-tables for the dense /16 blocks, int32 (layout in {@link SubTables}). */
  PREFIX24(9, "prefix24", 4),
  /** IPv6 ranges: high 64 bits of each row's start, stored like {@link #KEYS6_HI}. */
  RANGE6_STARTS_HI(10, "range6_starts_hi", 8),
  /** IPv6 ranges, optional: low 64 bits of each row's start; absent when every one is 0. */
  RANGE6_STARTS_LO(11, "range6_starts_lo", 8),
  /**
   * IPv6 ranges: one int64 a row, the 32 bits of its start below the shift of the bucket its rows
   * are in, a flag for a start those bits do not tell, and its label id (layout in {@link Tiled6}).
   */
  RANGE6_ROWS(12, "range6_rows", 8),
  /** Labels whole: labelCount + 1 int32 byte offsets into {@link #LABEL_BYTES}. */
  LABEL_OFFSETS(13, "label_offsets", 4),
  /** Labels whole: the labels' bytes, each distinct label stored once. */
  LABEL_BYTES(14, "label_bytes", 1),
  /**
   * Ranges: the names of the fields a label is made of, UTF-8: the delimiter that splits a label
   * into them on the first line, then one name a line (LF-separated, no final LF).
   */
  LABEL_FIELDS(15, "label_fields", 1),
  /**
   * Ranges, optional: the type of each label field, UTF-8, one name of {@link
   * LabelSchema.FieldType} a line, in field order (LF-separated, no final LF).
   */
  LABEL_TYPES(16, "label_types", 1),
  /** Labels by field: the number of distinct values of each label field, int32, in field order. */
  FIELD_VALUE_COUNTS(17, "field_value_counts", 4),
  /**
   * Labels by field: one int32 byte offset into {@link #FIELD_VALUE_BYTES} a value, and one more;
   * the first field's values first, each value's bytes at [i, i+1).
   */
  FIELD_VALUE_OFFSETS(18, "field_value_offsets", 4),
  /** Labels by field: the values' bytes, each distinct value of a field once. */
  FIELD_VALUE_BYTES(19, "field_value_bytes", 1),
  /**
   * Labels by field: each label as the ids of its fields' values within their fields, each in the 1
   * to 4 little-endian bytes its field's count needs (layout in {@link LabelDictionary}).
   */
  LABEL_VALUE_IDS(20, "label_value_ids", 1),
  /**
   * Ranges, optional: IPv6 prefixes whose addresses are looked up as the IPv4 address in the 32
   * bits after the prefix, int64 triples: the prefix's high and low 64 bits and its length (layout
   * in {@link Ipv4Aliases}).
   */
  IPV4_ALIASES(21, "ipv4_aliases", 8),
  /** Products: 64-bit hash of each product id, int64, ascending in unsigned order. */
  ID_HASHES(22, "id_hashes", 8),
  /** Products: the int columns, row-major: {@code rows x columns} int32. */
  PRODUCT_INTS(23, "product_ints", 4),
  /** Products: the names of the int columns, UTF-8, separated by LF. */
  COLUMN_NAMES(24, "column_names", 1),
  /** Products: rows + 1 int32 byte offsets into {@link #ID_BYTES}; id of row i at [i, i+1). */
  ID_OFFSETS(25, "id_offsets", 4),
  /** Products: the ids' bytes as in the source, in row order. */
  ID_BYTES(26, "id_bytes", 1),
  /**
   * Optional, every kind: what the sources said of themselves, UTF-8 lines of {@code key TAB value}
   * (layout in {@link SourceInfo}).
   */
  SOURCE_INFO(27, "source_info", 1);

  private final int id;
  private final String displayName;
  private final int width;

  Section(int id, String displayName, int width) {
    this.id = id;
    this.displayName = displayName;
    this.width = width;
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

  /** The section with this id, or {@code null} for an id this version does not know. */
  static Section forId(int id) {
    for (Section s : values()) {
      if (s.id == id) {
        return s;
      }
    }
    return null;
  }
}
