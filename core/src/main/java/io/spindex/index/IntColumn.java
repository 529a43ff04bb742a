/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;

/**
 * A read-only column of int32 values: on the heap ({@code int[]}, loaded by io and nio) or a view
 * over a mapping ({@code mapped}). Search code is written once against this type.
 */
abstract class IntColumn {
  /** Ints per mapped chunk (1 GiB): sections over 2 GiB are viewed through several mappings. */
  static final int CHUNK_INTS = 1 << 28;

  abstract int get(int i);

  abstract int size();

  /**
   * The first index whose value is neither in {@code [0, count)} nor (with {@code gaps}) a gap
   * row's {@link Layout#GAP_LABEL}, or -1: the check of label ids at open.
   */
  int firstOutside(int count, boolean gaps) {
    for (int i = 0, n = size(); i < n; i++) {
      int id = get(i);
      if ((id < 0 || id >= count) && !(gaps && id == Layout.GAP_LABEL)) {
        return i;
      }
    }
    return -1;
  }

  static IntColumn of(int[] values) {
    return new Heap(values, values.length);
  }

  /** The first {@code size} values of {@code values}. */
  static IntColumn of(int[] values, int size) {
    return new Heap(values, size);
  }

  /** A view over little-endian bytes; each chunk holds {@link #CHUNK_INTS} ints but the last. */
  static IntColumn view(ByteBuffer[] chunks) {
    IntBuffer[] views = new IntBuffer[chunks.length];
    for (int i = 0; i < chunks.length; i++) {
      views[i] = chunks[i].duplicate().order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    }
    return views.length == 1 ? new View(views[0]) : new Chunked(views);
  }

  private static final class Heap extends IntColumn {
    private final int[] values;
    private final int size;

    Heap(int[] values, int size) {
      this.values = values;
      this.size = size;
    }

    @Override
    int get(int i) {
      return values[i];
    }

    @Override
    int size() {
      return size;
    }
  }

  /** Absolute gets on a view never touch its position, so one view serves every thread. */
  private static final class View extends IntColumn {
    private final IntBuffer values;

    View(IntBuffer values) {
      this.values = values;
    }

    @Override
    int get(int i) {
      return values.get(i);
    }

    @Override
    int size() {
      return values.limit();
    }
  }

  private static final class Chunked extends IntColumn {
    private final IntBuffer[] chunks;
    private final int size;

    Chunked(IntBuffer[] chunks) {
      this.chunks = chunks;
      long n = 0;
      for (IntBuffer c : chunks) {
        n += c.limit();
      }
      this.size = Math.toIntExact(n);
    }

    @Override
    int get(int i) {
      return chunks[i >>> 28].get(i & (CHUNK_INTS - 1));
    }

    @Override
    int size() {
      return size;
    }
  }
}
