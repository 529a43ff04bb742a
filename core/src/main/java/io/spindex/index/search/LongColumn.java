/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

/**
 * A read-only column of int64 values, the 8-byte sibling of {@link IntColumn}: on the heap ({@code
 * long[]}, loaded by io and nio) or a {@code LongBuffer} view over a mapping ({@code mapped}).
 * Thread-safe: only absolute gets.
 */
@Internal
public abstract class LongColumn {
  /** Longs per mapped chunk (1 GiB, like {@link IntColumn#CHUNK_INTS}). */
  static final int CHUNK_LONGS = 1 << 27;

  public abstract long get(int i);

  public abstract int size();

  /** Whether the values are a heap array ({@link #of}), not a view over a mapping. */
  public boolean onHeap() {
    return false;
  }

  /** {@code size} times {@code value}, on the heap or not as the columns beside it. */
  public static LongColumn constant(long value, int size, boolean onHeap) {
    return new Constant(value, size, onHeap);
  }

  public static LongColumn of(long[] values) {
    return new Heap(values, values.length);
  }

  /** The first {@code size} values of {@code values}. */
  public static LongColumn of(long[] values, int size) {
    return new Heap(values, size);
  }

  /** The values as a heap array: the array itself when the column is one, else a copy. */
  public long[] toArray() {
    long[] out = new long[size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = get(i);
    }
    return out;
  }

  /** A view over little-endian bytes; each chunk holds {@link #CHUNK_LONGS} longs but the last. */
  public static LongColumn view(ByteBuffer[] chunks) {
    LongBuffer[] views = new LongBuffer[chunks.length];
    for (int i = 0; i < chunks.length; i++) {
      views[i] = chunks[i].duplicate().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
    }
    return views.length == 1 ? new View(views[0]) : new Chunked(views);
  }

  private static final class Constant extends LongColumn {
    private final long value;
    private final int size;
    private final boolean onHeap;

    Constant(long value, int size, boolean onHeap) {
      this.value = value;
      this.size = size;
      this.onHeap = onHeap;
    }

    @Override
    public long get(int i) {
      if (i < 0 || i >= size) {
        throw new IndexOutOfBoundsException(i + " of " + size);
      }
      return value;
    }

    @Override
    public boolean onHeap() {
      return onHeap;
    }

    @Override
    public int size() {
      return size;
    }
  }

  private static final class Heap extends LongColumn {
    private final long[] values;
    private final int size;

    Heap(long[] values, int size) {
      this.values = values;
      this.size = size;
    }

    @Override
    public long get(int i) {
      return values[i];
    }

    @Override
    public boolean onHeap() {
      return true;
    }

    @Override
    public long[] toArray() {
      return size == values.length ? values : super.toArray();
    }

    @Override
    public int size() {
      return size;
    }
  }

  private static final class View extends LongColumn {
    private final LongBuffer values;

    View(LongBuffer values) {
      this.values = values;
    }

    @Override
    public long get(int i) {
      return values.get(i);
    }

    @Override
    public int size() {
      return values.limit();
    }
  }

  private static final class Chunked extends LongColumn {
    private final LongBuffer[] chunks;
    private final int size;

    Chunked(LongBuffer[] chunks) {
      this.chunks = chunks;
      long n = 0;
      for (LongBuffer c : chunks) {
        n += c.limit();
      }
      this.size = Math.toIntExact(n);
    }

    @Override
    public long get(int i) {
      return chunks[i >>> 27].get(i & (CHUNK_LONGS - 1));
    }

    @Override
    public int size() {
      return size;
    }
  }
}
