/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import java.util.Locale;

/**
 * Whether an index stores its IPv4 ranges with their ends ({@code range_ends}, readable by every
 * Spindex since format version 1) or without them ({@code tiled_labels}, format version 6: a row a
 * range and a row a gap, each ending where the next starts, 8 bytes a row instead of 12), and
 * whether those rows are packed ({@code range_starts_low}, {@code row_label_ids}, format version 7:
 * 3 to 6 bytes a row).
 */
@Internal
public enum RangeEnds {
  /**
   * The smallest file: without their ends whenever that makes it smaller (the builder compares the
   * layouts' rows and tables), those rows packed when the file has a prefix table, and tiled IPv6
   * rows without their starts' low halves when every one is 0. Every layout is one {@code mapped}
   * reads in place.
   */
  AUTO,
  /** With their ends: a file every older reader (format version 5 and before) reads. */
  STORED,
  /** Without their ends, whatever the gaps: a file Spindex of format version 6 reads. */
  TILED,
  /**
   * Without their ends and packed, whatever the gaps (format version 7): each start as its 16 bits
   * below its /16 block, each label id in the bytes the labels' count needs; as {@link #TILED}
   * without a prefix table. The heap loaders unpack the rows into the columns of tiled rows; {@code
   * mapped} reads them in place.
   */
  PACKED;

  /** {@code auto}, {@code stored}, {@code tiled} or {@code packed}, any case. */
  public static RangeEnds parse(String v) {
    for (RangeEnds e : values()) {
      if (e.name().equalsIgnoreCase(v)) {
        return e;
      }
    }
    throw new IllegalArgumentException(
        "unknown range ends '" + v + "': expected auto, stored, tiled or packed");
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Whether to consider tiling {@code size} ranges of which {@code gaps} have a gap after them,
   * whose rows take {@code storedBytes} each with their ends and {@code tiledBytes} without: always
   * when asked to, never when asked not to, and by default when the tiled rows are smaller.
   */
  boolean tile(int size, int gaps, int storedBytes, int tiledBytes) {
    return this == TILED
        || this == PACKED
        || (this == AUTO && (long) tiledBytes * (size + gaps) < (long) storedBytes * size);
  }
}
