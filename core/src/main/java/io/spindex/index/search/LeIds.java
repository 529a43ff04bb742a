/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Ids of 1 to 4 little-endian bytes, as {@code row_label_ids} and {@code label_value_ids} hold
 * them: read one at a time from a buffer (a lookup), or in bulk from a chunk copied out of it (the
 * checks at open, the heap loaders' unpacking), where each id is the little-endian {@code int} at
 * its offset with the bytes past it masked off.
 */
@Internal
public final class LeIds {
  private static final VarHandle LE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  /** Bytes a chunk needs after its last id, so that {@link #get(byte[], int, int)} reads 4. */
  static final int SPARE = 3;

  private LeIds() {}

  /** Bytes an id takes that tells {@code values} values apart: the fewest of 1 to 4. */
  public static int width(long values) {
    return values <= 1L << 8 ? 1 : values <= 1L << 16 ? 2 : values <= 1L << 24 ? 3 : 4;
  }

  /** The mask that keeps an id of {@code width} bytes: also its all-ones value (a gap's). */
  public static int mask(int width) {
    return width == 4 ? -1 : (1 << (8 * width)) - 1;
  }

  /** A chunk for {@code bytes} bytes of ids, with the {@link #SPARE} bytes after them. */
  public static byte[] chunk(int bytes) {
    return new byte[bytes + SPARE];
  }

  /** The id at {@code at} of a {@link #chunk}, {@code mask} that of its width. */
  public static int get(byte[] chunk, int at, int mask) {
    return (int) LE_INT.get(chunk, at) & mask;
  }

  /** The id of {@code width} bytes at {@code at} of a buffer in little-endian order. */
  public static int get(ByteBuffer b, int at, int width) {
    switch (width) {
      case 1:
        return b.get(at) & 0xFF;
      case 2:
        return b.getShort(at) & 0xFFFF;
      case 3:
        return (b.getShort(at) & 0xFFFF) | (b.get(at + 2) & 0xFF) << 16;
      default:
        return b.getInt(at);
    }
  }
}
