/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;

/**
 * A read-only column of int32 values: on the heap ({@code int[]}, loaded by io and nio) or a view
 * over a mapping ({@code mapped}). Search code is written once against this type.
 */
@Internal
public abstract class IntColumn {
  /** Ints per mapped chunk (1 GiB): sections over 2 GiB are viewed through several mappings. */
  public static final int CHUNK_INTS = 1 << 28;

  public abstract int get(int i);

  public abstract int size();

  /**
   * The first index whose value is neither in {@code [0, count)} nor (with {@code gaps}) a gap
   * row's {@link Encoding#GAP_LABEL}, or -1: the check of label ids at open.
   */
  public int firstOutside(int count, boolean gaps) {
    for (int i = 0, n = size(); i < n; i++) {
      int id = get(i);
      if ((id < 0 || id >= count) && !(gaps && id == Encoding.GAP_LABEL)) {
        return i;
      }
    }
    return -1;
  }

  /** First row in {@code [lo, hi)} whose key is {@code >= key} (keys are flipped, signed order). */
  public static int lowerBound(IntColumn keys, int lo, int hi, int key) {
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (keys.get(mid) < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** First row in {@code [lo, hi)} whose key is {@code > key}. */
  public static int upperBound(IntColumn keys, int lo, int hi, int key) {
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (keys.get(mid) <= key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  public static IntColumn of(int[] values) {
    return new Heap(values, values.length);
  }

  /** The first {@code size} values of {@code values}. */
  public static IntColumn of(int[] values, int size) {
    return new Heap(values, size);
  }

  /** A view over little-endian bytes; each chunk holds {@link #CHUNK_INTS} ints but the last. */
  public static IntColumn view(ByteBuffer[] chunks) {
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
    public int get(int i) {
      return values[i];
    }

    @Override
    public int size() {
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
    public int get(int i) {
      return values.get(i);
    }

    @Override
    public int size() {
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
    public int get(int i) {
      return chunks[i >>> 28].get(i & (CHUNK_INTS - 1));
    }

    @Override
    public int size() {
      return size;
    }
  }
}
