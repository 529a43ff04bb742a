/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.annotations.Internal;
import java.util.Arrays;

/**
 * Up to {@link LineLookup#BATCH} lines copied out of a record reader (which reuses its buffer), for
 * {@link LineLookup#applyAll}: the engines add lines until the batch is full, look it up, then hand
 * out each line's record in input order. Reused batch after batch.
 */
@Internal
public final class LineBatch {
  private byte[] own = new byte[64 * 1024];
  private byte[] bytes = own;
  private final int[] from = new int[LineLookup.BATCH];
  private final int[] to = new int[LineLookup.BATCH];
  private final long[] offsets = new long[LineLookup.BATCH];
  private final int[] result = new int[LineLookup.BATCH];
  private int count;
  private int used;

  /**
   * Copies line {@code b[off, off + len)}, found at byte {@code offset} of its input.
   *
   * @return whether the batch is now full
   */
  public boolean add(byte[] b, int off, int len, long offset) {
    if (bytes != own) {
      throw new IllegalStateException("a batch of lines in place takes no copied lines");
    }
    if (bytes.length - used < len) {
      own = Arrays.copyOf(bytes, Math.max(bytes.length * 2, used + len));
      bytes = own;
    }
    System.arraycopy(b, off, bytes, used, len);
    from[count] = used;
    to[count] = used + len;
    offsets[count++] = offset;
    used += len;
    return count == LineLookup.BATCH;
  }

  /** Looks every line up ({@link LineLookup#applyAll}); then {@link #result} says what to write. */
  public void lookUp(LineLookup lookup) {
    lookup.applyAll(bytes, from, to, count, result);
  }

  /** Makes line {@code i} the current line of {@code lookup} ({@link LineLookup#select}). */
  public void select(LineLookup lookup, int i) {
    lookup.select(i, bytes, from[i], to[i]);
  }

  /** Builds line {@code i}'s reject record in {@code lookup.out()}; returns its length. */
  public int rejectRecord(LineLookup lookup, byte[] source, int i) {
    lookup.select(i, bytes, from[i], to[i]);
    return lookup.rejectRecord(source, offsets[i], bytes, from[i], to[i]);
  }

  /** Lines in the batch. */
  public int count() {
    return count;
  }

  /** What {@link LineLookup#apply} would have returned for line {@code i}. */
  public int result(int i) {
    return result[i];
  }

  /** The bytes holding line {@code i} at {@link #from}. */
  public byte[] bytes() {
    return bytes;
  }

  /** Where line {@code i} starts in {@link #bytes()}. */
  public int from(int i) {
    return from[i];
  }

  /** Line {@code i}'s length. */
  public int length(int i) {
    return to[i] - from[i];
  }

  /**
   * Adds line {@code b[from, to)}, found at byte {@code offset} of its input, without copying it:
   * every line of the batch must be in the same {@code b}, which must not change until the batch is
   * {@link #clear}ed (a chunk of whole lines that the caller holds).
   *
   * @return whether the batch is now full
   */
  public boolean addInPlace(byte[] b, int from, int to, long offset) {
    if (count == 0) {
      bytes = b;
    } else if (bytes != b) {
      throw new IllegalStateException("the lines of a batch in place share one buffer");
    }
    this.from[count] = from;
    this.to[count] = to;
    offsets[count++] = offset;
    return count == LineLookup.BATCH;
  }

  /** Empties the batch for the next lines. */
  public void clear() {
    count = 0;
    used = 0;
    bytes = own;
  }
}
