/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Packed IPv4 rows (sections {@code range_starts_low} and {@code row_label_ids}, format version 7):
 * ranges without their ends whose starts keep only their low 16 bits, the block of each row being
 * the one {@code prefix16} puts it in, and whose label ids take the fewest of 1 to 4 bytes that
 * hold every id and the gap's (all bits set). Every loader reads them into the {@code int} columns
 * of tiled rows ({@code range_starts}, {@code tiled_labels}), so lookups are those of tiled rows;
 * only the file is smaller: 2 + 1 to 4 bytes a row instead of 8.
 */
@Internal
public final class PackedRows {
  private PackedRows() {}

  /** Bytes a row's label id takes for {@code labels} labels: room for each id and the gap's. */
  public static int labelIdBytes(int labels) {
    return LabelDictionary.idBytes(labels + 1L);
  }

  /** The low 16 bits of each of the first {@code n} flipped starts, little-endian. */
  public static byte[] lows(int[] flippedStarts, int n) {
    byte[] out = new byte[2 * n];
    for (int i = 0; i < n; i++) {
      out[2 * i] = (byte) flippedStarts[i];
      out[2 * i + 1] = (byte) (flippedStarts[i] >>> 8);
    }
    return out;
  }

  /** The first {@code n} label ids ({@code -1} for a gap) in {@code width} bytes each. */
  public static byte[] labelIds(int[] ids, int n, int width) {
    byte[] out = new byte[n * width];
    for (int i = 0, p = 0; i < n; i++) {
      for (int b = 0; b < width; b++) {
        out[p++] = (byte) (ids[i] >>> (8 * b));
      }
    }
    return out;
  }

  /**
   * The flipped starts: the rows {@code prefix16} gives block {@code b} start at {@code b << 16}
   * and their low 16 bits. An entry below the one before it (which only a file opened unchecked
   * gets here with) is an error, never a row out of bounds.
   */
  static IntColumn starts(IndexHeader h, SectionEntry prefixEntry, IntColumn prefix, ByteBuffer low)
      throws CorruptIndexException {
    int n = low.remaining() / 2;
    short[] lows = new short[n];
    low.duplicate().order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(lows);
    int[] out = new int[n];
    int from = 0;
    for (int b = 0; b < Layout.PREFIX16_ENTRIES - 1; b++) {
      int to = prefix.get(b + 1);
      if (to < from || to > n) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'prefix16'",
            prefixEntry.offset() + 4L * (b + 1),
            "entries in ascending order, from " + from + " to at most " + n,
            String.valueOf(to));
      }
      int high = (b << 16) ^ Integer.MIN_VALUE;
      for (int i = from; i < to; i++) {
        out[i] = high | (lows[i] & 0xFFFF);
      }
      from = to;
    }
    return IntColumn.of(out);
  }

  /** The label ids of {@code rows} rows, {@code width} bytes each, {@code -1} for a gap. */
  static IntColumn labelIds(ByteBuffer ids, int rows, int width) {
    ByteBuffer in = ids.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int[] out = new int[rows];
    // A loop for each width: the bytes are read in bulk and each loop is a plain one.
    if (width == 4) {
      in.asIntBuffer().get(out); // the gap's all ones is -1 already
    } else if (width == 2) {
      short[] v = new short[rows];
      in.asShortBuffer().get(v);
      for (int i = 0; i < rows; i++) {
        int id = v[i] & 0xFFFF;
        out[i] = id == 0xFFFF ? Layout.GAP_LABEL : id;
      }
    } else {
      byte[] all = new byte[rows * width];
      in.get(all);
      if (width == 1) {
        for (int i = 0; i < rows; i++) {
          int id = all[i] & 0xFF;
          out[i] = id == 0xFF ? Layout.GAP_LABEL : id;
        }
      } else {
        for (int i = 0, p = 0; i < rows; i++, p += 3) {
          int id = (all[p] & 0xFF) | (all[p + 1] & 0xFF) << 8 | (all[p + 2] & 0xFF) << 16;
          out[i] = id == 0xFF_FFFF ? Layout.GAP_LABEL : id;
        }
      }
    }
    return IntColumn.of(out);
  }
}
