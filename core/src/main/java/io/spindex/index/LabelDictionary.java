/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.index.search.IntColumn;
import io.spindex.index.search.LeIds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The labels of a range index by id, stored one of two ways (docs/FORMAT.md):
 *
 * <ul>
 *   <li><b>whole</b> ({@code label_offsets}, {@code label_bytes}): each distinct label's bytes
 *       once;
 *   <li><b>by field</b> ({@code field_value_counts}, {@code field_value_offsets}, {@code
 *       field_value_bytes}, {@code label_value_ids}; whenever the labels have fields): each field's
 *       distinct values once, and each label as the ids of its fields' values, {@link #idBytes}
 *       bytes a field. A label's bytes are its values joined by the delimiter of {@code
 *       label_fields}: the bytes it had in the source.
 * </ul>
 *
 * Both give the same bytes for the same id. The open-time checks bound every read of a file whose
 * checksums were checked; {@link #check} walks every offset and value id (heap loaders at open,
 * {@code verify}); a file opened unchecked that fails them gets an {@link IllegalStateException} at
 * the read, never a read out of bounds.
 */
abstract class LabelDictionary {
  /** How many labels. */
  abstract int count();

  /** A copy of label {@code id}'s bytes. */
  abstract byte[] bytes(int id);

  /**
   * Every offset in order and every value id within its field, else a {@link
   * CorruptIndexException}.
   */
  abstract void check() throws CorruptIndexException;

  /**
   * Bytes a value id of a field with {@code values} distinct values takes in {@code
   * label_value_ids}: the fewest of 1 to 4 that count to {@code values}.
   */
  static int idBytes(long values) {
    return LeIds.width(values);
  }

  /** The file's labels, with the checks every open makes (bounds, not every entry). */
  static LabelDictionary open(IndexHeader h, SectionSource source, LabelSchema schema)
      throws IOException {
    SectionEntry ids = h.find(Section.LABEL_VALUE_IDS);
    if (ids == null) {
      return Whole.open(h, source);
    }
    return ByField.open(h, source, schema, ids);
  }

  /** Offsets {@code [0, to]} of {@code bytes}: first 0, last the byte section's length. */
  private static void spans(IndexHeader h, SectionEntry e, IntColumn offsets, SectionEntry bytes)
      throws CorruptIndexException {
    int last = offsets.get(offsets.size() - 1);
    if (offsets.get(0) != 0 || last != bytes.length()) {
      throw CorruptIndexException.at(
          h.file(),
          "section '" + e.section().displayName() + "'",
          e.offset(),
          "offsets from 0 to "
              + bytes.length()
              + " (the bytes of '"
              + bytes.section().displayName()
              + "')",
          "from " + offsets.get(0) + " to " + last);
    }
  }

  /** Slice {@code [from, to)} of a byte section, or the error of a file nothing checked. */
  private static void within(IndexHeader h, SectionEntry e, int item, int from, int to, int limit) {
    if (from < 0 || to < from || to > limit) {
      // Only a file opened unchecked (whose offsets nothing checked) gets here: fail, never
      // allocate what a wrong offset asks for.
      throw new IllegalStateException(
          String.format(
              "%s: section '%s': expected entry %d within the %d bytes, found [%d, %d) (run"
                  + " spindex verify)",
              h.file(), e.section().displayName(), item, limit, from, to));
    }
  }

  /** {@code label_offsets} and {@code label_bytes}. */
  private static final class Whole extends LabelDictionary {
    private final IndexHeader h;
    private final SectionEntry offsetsEntry;
    private final IntColumn offsets;
    private final ByteBuffer bytes;

    private Whole(IndexHeader h, SectionEntry offsetsEntry, IntColumn offsets, ByteBuffer bytes) {
      this.h = h;
      this.offsetsEntry = offsetsEntry;
      this.offsets = offsets;
      this.bytes = bytes.asReadOnlyBuffer();
    }

    static Whole open(IndexHeader h, SectionSource source) throws IOException {
      SectionEntry offsetsEntry = h.require(Section.LABEL_OFFSETS);
      IntColumn offsets = source.ints(offsetsEntry);
      SectionEntry bytesEntry = h.require(Section.LABEL_BYTES);
      ByteBuffer bytes = source.bytes(bytesEntry);
      spans(h, offsetsEntry, offsets, bytesEntry);
      return new Whole(h, offsetsEntry, offsets, bytes);
    }

    @Override
    int count() {
      return offsets.size() - 1;
    }

    @Override
    byte[] bytes(int id) {
      int from = offsets.get(id);
      int to = offsets.get(id + 1);
      within(h, offsetsEntry, id, from, to, bytes.limit());
      byte[] out = new byte[to - from];
      bytes.duplicate().position(from).get(out);
      return out;
    }

    @Override
    void check() throws CorruptIndexException {
      SectionSource.nonDecreasing(h, offsetsEntry, offsets, "offsets");
    }
  }

  /**
   * {@code field_value_counts}, {@code field_value_offsets}, {@code field_value_bytes} and {@code
   * label_value_ids}.
   */
  private static final class ByField extends LabelDictionary {
    private final IndexHeader h;
    private final SectionEntry countsEntry;
    private final SectionEntry offsetsEntry;
    private final SectionEntry idsEntry;
    private final IntColumn counts;
    private final IntColumn offsets;
    private final ByteBuffer values;
    private final ByteBuffer ids;
    private final byte[] delimiter;

    /** Per field: its first value's index in {@code offsets}, and the bytes of its value ids. */
    private final int[] base;

    private final int[] width;

    /** Bytes a label takes in {@code label_value_ids}. */
    private final int stride;

    private final int count;

    private ByField(
        IndexHeader h,
        SectionEntry countsEntry,
        SectionEntry offsetsEntry,
        SectionEntry idsEntry,
        IntColumn counts,
        IntColumn offsets,
        ByteBuffer values,
        ByteBuffer ids,
        byte[] delimiter) {
      this.h = h;
      this.countsEntry = countsEntry;
      this.offsetsEntry = offsetsEntry;
      this.idsEntry = idsEntry;
      this.counts = counts;
      this.offsets = offsets;
      this.values = values.asReadOnlyBuffer();
      this.ids = ids.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
      this.delimiter = delimiter;
      int k = counts.size();
      base = new int[k];
      width = new int[k];
      int at = 0;
      int s = 0;
      for (int j = 0; j < k; j++) {
        base[j] = at;
        at += counts.get(j);
        width[j] = idBytes(counts.get(j));
        s += width[j];
      }
      stride = s;
      count = (int) (idsEntry.length() / s);
    }

    static ByField open(IndexHeader h, SectionSource source, LabelSchema schema, SectionEntry ids)
        throws IOException {
      SectionEntry countsEntry = h.require(Section.FIELD_VALUE_COUNTS);
      SectionEntry offsetsEntry = h.require(Section.FIELD_VALUE_OFFSETS);
      SectionEntry valuesEntry = h.require(Section.FIELD_VALUE_BYTES);
      int k = schema.names().size();
      if (countsEntry.elements() != k) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'field_value_counts'",
            countsEntry.offset(),
            k + " elements (one a field of 'label_fields')",
            countsEntry.elements() + " elements");
      }
      IntColumn counts = source.ints(countsEntry);
      long values = 0;
      int stride = 0;
      for (int j = 0; j < k; j++) {
        int c = counts.get(j);
        if (c < 0) {
          throw CorruptIndexException.at(
              h.file(),
              "section 'field_value_counts'",
              countsEntry.offset() + 4L * j,
              "a count of values, at least 0",
              String.valueOf(c));
        }
        values += c;
        stride += idBytes(c);
      }
      if (offsetsEntry.elements() != values + 1) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'field_value_offsets'",
            offsetsEntry.offset(),
            (values + 1) + " elements (the values 'field_value_counts' counts, and one)",
            offsetsEntry.elements() + " elements");
      }
      if (ids.length() % stride != 0) {
        throw CorruptIndexException.at(
            h.file(),
            "section 'label_value_ids'",
            ids.offset(),
            "a multiple of " + stride + " bytes (a label's value ids)",
            ids.length() + " bytes");
      }
      IntColumn offsets = source.ints(offsetsEntry);
      spans(h, offsetsEntry, offsets, valuesEntry);
      return new ByField(
          h,
          countsEntry,
          offsetsEntry,
          ids,
          counts,
          offsets,
          source.bytes(valuesEntry),
          source.bytes(ids),
          schema.delimiter().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    int count() {
      return count;
    }

    /** The value id of field {@code j} of the label whose ids start at byte {@code at}. */
    private int id(int at, int j) {
      return LeIds.get(ids, at, width[j]);
    }

    @Override
    byte[] bytes(int label) {
      int k = base.length;
      int at = label * stride;
      int[] from = new int[k];
      int[] to = new int[k];
      int length = delimiter.length * (k - 1);
      for (int j = 0; j < k; j++) {
        int id = id(at, j);
        if (id < 0 || id >= counts.get(j)) {
          throw new IllegalStateException(
              String.format(
                  "%s: section 'label_value_ids': expected label %d's value id of field %d"
                      + " below %d, found %s (run spindex verify)",
                  h.file(), label, j, counts.get(j), Integer.toUnsignedString(id)));
        }
        int v = base[j] + id;
        from[j] = offsets.get(v);
        to[j] = offsets.get(v + 1);
        within(h, offsetsEntry, v, from[j], to[j], values.limit());
        length += to[j] - from[j];
        at += width[j];
      }
      byte[] out = new byte[length];
      ByteBuffer src = values.duplicate();
      int pos = 0;
      for (int j = 0; j < k; j++) {
        if (j > 0) {
          System.arraycopy(delimiter, 0, out, pos, delimiter.length);
          pos += delimiter.length;
        }
        src.position(from[j]);
        src.get(out, pos, to[j] - from[j]);
        pos += to[j] - from[j];
      }
      return out;
    }

    @Override
    void check() throws CorruptIndexException {
      SectionSource.nonDecreasing(h, offsetsEntry, offsets, "offsets");
      int k = base.length;
      int[] limit = new int[k];
      int[] mask = new int[k];
      for (int j = 0; j < k; j++) {
        limit[j] = counts.get(j);
        mask[j] = LeIds.mask(width[j]);
      }
      // In chunks of whole labels, read in bulk: a byte at a time through the buffer is several
      // times slower, at open.
      int perChunk = Math.max(1, (1 << 16) / stride);
      byte[] chunk = LeIds.chunk(perChunk * stride);
      ByteBuffer in = ids.duplicate();
      for (int first = 0; first < count; first += perChunk) {
        int n = Math.min(perChunk, count - first);
        in.get(chunk, 0, n * stride);
        for (int i = 0, at = 0; i < n; i++) {
          for (int j = 0; j < k; j++) {
            int id = LeIds.get(chunk, at, mask[j]);
            if (id < 0 || id >= limit[j]) { // an id of 4 bytes may read as negative
              throw CorruptIndexException.at(
                  h.file(),
                  "section 'label_value_ids'",
                  idsEntry.offset() + (long) (first + i) * stride + (at - i * stride),
                  "label "
                      + (first + i)
                      + "'s value id of field "
                      + j
                      + " below "
                      + limit[j]
                      + " (its count in 'field_value_counts' at offset "
                      + (countsEntry.offset() + 4L * j)
                      + ")",
                  Integer.toUnsignedString(id));
            }
            at += width[j];
          }
        }
      }
    }
  }
}
