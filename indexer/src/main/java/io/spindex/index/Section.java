/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

/** The sections a version 1 index may hold; ids and element widths are part of the format. */
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
  ID_BYTES(12, "id_bytes", 1);

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

  static Section forId(int id) {
    for (Section s : values()) {
      if (s.id == id) {
        return s;
      }
    }
    return null;
  }
}
