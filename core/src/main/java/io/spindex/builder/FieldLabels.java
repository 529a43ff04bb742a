/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.index.IndexWriter;
import io.spindex.index.LabelSchema;
import io.spindex.index.Section;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A label dictionary stored by field (docs/FORMAT.md, "Labels"): each field's distinct values once,
 * in the order the labels first use them, and each label as the ids of its values. A label splits
 * into its fields at the delimiter as {@link LabelSchema} splits it (a double-quoted field keeps
 * the delimiters inside it), and its bytes are its fields' bytes joined by the delimiter again,
 * exactly as in the source.
 */
final class FieldLabels {
  /** Per field: how many distinct values. */
  final int[] counts;

  /** One offset into {@link #values} a value, and one more. */
  final int[] offsets;

  final byte[] values;

  /** Each label's value ids, field by field, each in {@code LabelDictionary.idBytes} bytes. */
  final byte[] ids;

  private FieldLabels(int[] counts, int[] offsets, byte[] values, byte[] ids) {
    this.counts = counts;
    this.offsets = offsets;
    this.values = values;
    this.ids = ids;
  }

  /**
   * The labels {@code [offsets[i], offsets[i+1])} of {@code bytes} by field, or {@code null} when a
   * label does not split into the schema's fields (an index whose labels were not checked against
   * them).
   */
  static FieldLabels of(int[] labelOffsets, byte[] bytes, int count, LabelSchema schema) {
    int k = schema.names().size();
    byte[] delimiter = schema.delimiter().getBytes(StandardCharsets.UTF_8);
    int[] local = new int[count * k];
    List<Map<ByteBuffer, Integer>> seen = new ArrayList<>();
    ByteBuffer[][] order = new ByteBuffer[k][];
    int[] counts = new int[k];
    long valueBytes = 0;
    for (int j = 0; j < k; j++) {
      seen.add(new HashMap<>());
      order[j] = new ByteBuffer[16];
    }
    for (int i = 0; i < count; i++) {
      int from = labelOffsets[i];
      int to = labelOffsets[i + 1];
      for (int j = 0; j < k; j++) {
        int end = j == k - 1 ? to : LabelSchema.fieldEnd(bytes, from, to, delimiter);
        if (end < 0 || (j == k - 1 && LabelSchema.fieldEnd(bytes, from, to, delimiter) >= 0)) {
          return null; // fewer or more fields than declared
        }
        ByteBuffer v = ByteBuffer.wrap(bytes, from, end - from);
        Integer id = seen.get(j).get(v);
        if (id == null) {
          id = counts[j]++;
          seen.get(j).put(v, id);
          if (id == order[j].length) {
            order[j] = Arrays.copyOf(order[j], 2 * id);
          }
          order[j][id] = v;
          valueBytes += end - from;
        }
        local[i * k + j] = id;
        from = end + delimiter.length;
      }
    }
    if (valueBytes > Integer.MAX_VALUE - 8) {
      return null;
    }
    int[] offsets = new int[Arrays.stream(counts).sum() + 1];
    byte[] values = new byte[(int) valueBytes];
    int at = 0;
    int v = 0;
    int stride = 0;
    int[] width = new int[k];
    for (int j = 0; j < k; j++) {
      width[j] = IndexWriter.valueIdBytes(counts[j]);
      stride += width[j];
      for (int c = 0; c < counts[j]; c++) {
        ByteBuffer b = order[j][c];
        int n = b.remaining();
        System.arraycopy(b.array(), b.arrayOffset() + b.position(), values, at, n);
        offsets[v++] = at;
        at += n;
      }
    }
    offsets[v] = at;
    byte[] ids = new byte[count * stride];
    for (int i = 0, p = 0; i < count; i++) {
      for (int j = 0; j < k; j++) {
        int id = local[i * k + j];
        for (int b = 0; b < width[j]; b++) {
          ids[p++] = (byte) (id >>> (8 * b));
        }
      }
    }
    return new FieldLabels(counts, offsets, values, ids);
  }

  /** Bytes of the four sections, each with up to its alignment's padding. */
  long bytes() {
    return 4L * counts.length + 4L * offsets.length + values.length + ids.length + 4 * 64;
  }

  /** Bytes of the whole labels' two sections, likewise. */
  static long wholeBytes(int count, int labelBytes) {
    return 4L * (count + 1) + labelBytes + 2 * 64;
  }

  /** Writes the four sections. */
  void write(IndexWriter w) {
    w.ints(Section.FIELD_VALUE_COUNTS, counts, counts.length);
    w.ints(Section.FIELD_VALUE_OFFSETS, offsets, offsets.length);
    w.bytes(Section.FIELD_VALUE_BYTES, values, values.length);
    w.bytes(Section.LABEL_VALUE_IDS, ids, ids.length);
  }
}
