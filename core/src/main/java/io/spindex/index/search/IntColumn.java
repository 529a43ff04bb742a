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
 *
 * <p>{@link #get} is final and reads the two kinds the searches read (an {@code int[]}, one view of
 * a mapping) itself, other columns through {@link #read}: a call of an overridden {@code get} in
 * the search would be inlined only while the JVM has seen at most two column classes there, and a
 * JVM that loads indexes with more than one loader, or reads their computed columns (the rows'
 * starts read in place, the IPv6 label ids), sees up to six. Past two the call is a virtual call at
 * every step of every search ({@code -XX:+PrintInlining} in a {@code ShapeLookupBenchmark} fork).
 */
@Internal
public abstract class IntColumn {
  /** Ints per mapped chunk (1 GiB): sections over 2 GiB are viewed through several mappings. */
  public static final int CHUNK_INTS = 1 << 28;

  /** A heap column's values, else null. */
  private final int[] array;

  /** A view's values (one mapping), else null. */
  private final IntBuffer view;

  /** A column computed by {@link #read}. */
  protected IntColumn() {
    this(null, null);
  }

  private IntColumn(int[] array, IntBuffer view) {
    this.array = array;
    this.view = view;
  }

  /** The value at {@code i}. */
  public final int get(int i) {
    return array != null ? array[i] : fromView(i);
  }

  /**
   * Apart from {@link #get}, so that each stays small enough to be inlined wherever it is called.
   */
  private int fromView(int i) {
    return view != null ? view.get(i) : read(i);
  }

  /** The value at {@code i} of a column neither an {@code int[]} nor a single view. */
  protected abstract int read(int i);

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
    private final int size;

    Heap(int[] values, int size) {
      super(values, null);
      this.size = size;
    }

    @Override
    protected int read(int i) {
      throw new AssertionError("read by get");
    }

    @Override
    public int size() {
      return size;
    }
  }

  /** Absolute gets on a view never touch its position, so one view serves every thread. */
  private static final class View extends IntColumn {
    private final int size;

    View(IntBuffer values) {
      super(null, values);
      this.size = values.limit();
    }

    @Override
    protected int read(int i) {
      throw new AssertionError("read by get");
    }

    @Override
    public int size() {
      return size;
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
    protected int read(int i) {
      return chunks[i >>> 28].get(i & (CHUNK_INTS - 1));
    }

    @Override
    public int size() {
      return size;
    }
  }
}
