/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The labels of one range index as the bytes Spark reads (a label's UTF-8 text, or its typed fields
 * as an {@link UnsafeRow}), each made at its first use and kept for the life of the JVM, packed one
 * after another in large arrays. A lookup reads the label's slot and then its bytes: two dependent
 * reads where a cached object per label costs three (the slot, the object, its array), each a miss
 * to memory once the labels outgrow the cache. The {@link UTF8String} or {@link UnsafeRow} handed
 * out is a new view of the shared bytes, which no reader writes.
 *
 * <p>Thread-safe: labels are added under this object's lock and published through the slot's atomic
 * write, which a reader's atomic read of it orders before the bytes it then reads.
 */
final class LabelArena {
  /** Bytes of each array the labels are packed into (a larger label has an array of its own). */
  private static final int CHUNK = 1 << 20;

  /** The bytes before each label's, which end with its length: 8, so rows stay 8-byte aligned. */
  private static final int HEADER = 8;

  /** Bits of a slot that hold the offset in its array, in units of 8 bytes. */
  private static final int OFFSET_BITS = 17;

  /**
   * Per label: the array ({@code << OFFSET_BITS}) and the offset of its bytes there divided by 8,
   * or 0 before it is made. An int: the slots take half the cache that longs would.
   */
  private final AtomicIntegerArray slots;

  /**
   * The arrays. Adding one replaces this array of them rather than changing it, so a reader holding
   * the old one still finds every label made before.
   */
  private volatile byte[][] chunks = new byte[0][];

  /** The array labels are being added to, -1 before the first (guarded by this). */
  private int filling = -1;

  /** Where the next label goes in it (guarded by this). */
  private int used;

  LabelArena(int labels) {
    slots = new AtomicIntegerArray(labels);
  }

  /** The slot of label {@code id}, or 0 when it is not made yet ({@link #add}). */
  int slot(int id) {
    return slots.get(id);
  }

  /**
   * Adds the bytes of label {@code id} unless a thread did so first, and returns its slot. {@code
   * bytes} is only read.
   */
  synchronized int add(int id, byte[] bytes) {
    int s = slots.get(id);
    if (s != 0) {
      return s;
    }
    int need = HEADER + align8(bytes.length);
    byte[][] cs = chunks;
    int c;
    int at;
    if (need >= CHUNK) {
      cs = grow(cs, need);
      c = cs.length - 1;
      at = 0;
    } else {
      // Strictly less: the offset of an empty label's bytes must still lie inside the array.
      if (filling < 0 || used + need >= CHUNK) {
        cs = grow(cs, CHUNK);
        filling = cs.length - 1;
        used = 0;
      }
      c = filling;
      at = used;
      used += need;
    }
    byte[] chunk = cs[c];
    Platform.putInt(chunk, Platform.BYTE_ARRAY_OFFSET + at + HEADER - 4, bytes.length);
    System.arraycopy(bytes, 0, chunk, at + HEADER, bytes.length);
    chunks = cs;
    s = (c << OFFSET_BITS) | ((at + HEADER) >>> 3);
    slots.set(id, s);
    return s;
  }

  /** The label of {@code slot} as text. */
  UTF8String text(int slot) {
    byte[] c = chunks[slot >>> OFFSET_BITS];
    long at = address(slot);
    return UTF8String.fromAddress(c, at, Platform.getInt(c, at - 4));
  }

  /** The label of {@code slot} as a row of {@code fields} fields. */
  UnsafeRow row(int slot, int fields) {
    byte[] c = chunks[slot >>> OFFSET_BITS];
    long at = address(slot);
    UnsafeRow r = new UnsafeRow(fields);
    r.pointTo(c, at, Platform.getInt(c, at - 4));
    return r;
  }

  /**
   * The arrays of every label made so far: {@code chunks()[chunk(slot)]} holds the bytes of such a
   * label's slot from {@link #address}, their length the int before them.
   */
  byte[][] chunks() {
    return chunks;
  }

  /** The array of {@link #chunks} that holds the bytes of {@code slot}. */
  static int chunk(int slot) {
    return slot >>> OFFSET_BITS;
  }

  /** Where the bytes of {@code slot} start in its array, as {@link Platform}'s reads take it. */
  static long address(int slot) {
    return Platform.BYTE_ARRAY_OFFSET + ((long) (slot & ((1 << OFFSET_BITS) - 1)) << 3);
  }

  /** {@code cs} and a new array of {@code size} bytes after them. */
  private static byte[][] grow(byte[][] cs, int size) {
    if (cs.length >= 1 << (31 - OFFSET_BITS)) {
      throw new IllegalStateException("labels beyond " + cs.length + " arrays of Spark values");
    }
    byte[][] more = Arrays.copyOf(cs, cs.length + 1);
    more[cs.length] = new byte[size];
    return more;
  }

  private static int align8(int n) {
    return (n + 7) & ~7;
  }
}
