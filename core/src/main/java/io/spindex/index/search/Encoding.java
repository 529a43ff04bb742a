/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;

/**
 * How keys and rows are stored, as every search structure reads them (docs/FORMAT.md): IPv4 keys
 * flipped so that signed order is address order, the size of a /16 prefix table, and the label id
 * of a gap row. The file layout ({@code io.spindex.index.Layout}) places the sections; this is what
 * their elements mean.
 */
@Internal
public final class Encoding {
  /**
   * The label id of a gap row ({@code IpRanges.NONE}): a row that starts where no range is, all
   * bits set in {@code row_label_ids}, 0 in {@code range6_rows}.
   */
  public static final int GAP_LABEL = -1;

  /** Entries of a /16 prefix table: one per 16-bit prefix plus an end marker. */
  public static final int PREFIX16_ENTRIES = 65537;

  private Encoding() {}

  /**
   * Keys are stored as {@code address ^ 0x80000000} so that signed {@code int} order is unsigned
   * address order (0.0.0.0 becomes Integer.MIN_VALUE). Applying it twice gives the address back.
   */
  public static int flip(int value) {
    return value ^ 0x80000000;
  }
}
