/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import java.util.Arrays;

/**
 * One EP row as slices: slot {@code s} is {@code array(s)[from(s), to(s))}. After {@link #split}
 * the first slots are the line's fields, pointing into the line's own buffer (nothing is copied or
 * decoded); a transform step that changes a value points its slot at new bytes in the row's scratch
 * space. Slots past the input fields are columns a transform adds.
 *
 * <p>Not thread-safe: one per thread, reused row after row.
 */
public final class EpRow {
  private static final byte[] EMPTY = new byte[0];
  private static final long TABS = Bytes.repeat((byte) '\t');

  private byte[][] arrays;
  private int[] from;
  private int[] to;
  private byte[] scratch = new byte[1 << 16];
  private int scratchAt;

  /** A row with room for {@code slots} slots (input fields plus added columns). */
  public EpRow(int slots) {
    arrays = new byte[slots][];
    from = new int[slots];
    to = new int[slots];
  }

  /** Number of slots. */
  public int slots() {
    return arrays.length;
  }

  /**
   * Splits {@code line[start, end)} (no line end; a trailing CR is dropped) at tabs into the first
   * {@code fields} slots and empties the other slots.
   *
   * @return the number of fields the line has (may differ from {@code fields}: the caller rejects)
   */
  public int split(byte[] line, int start, int end, int fields) {
    int e = end > start && line[end - 1] == '\r' ? end - 1 : end;
    scratchAt = 0;
    int n = 0;
    int f = start;
    while (true) {
      int t = Bytes.indexOf(line, f, e, (byte) '\t', TABS);
      if (n < fields) {
        arrays[n] = line;
        from[n] = f;
        to[n] = t;
      }
      n++;
      if (t == e) {
        break;
      }
      f = t + 1;
    }
    clearFrom(Math.min(n, fields));
    return n;
  }

  /**
   * {@link #split} and a UTF-8 check ({@link Utf8#firstInvalid}) in one pass over the line: eight
   * ASCII bytes without a tab are skipped at once; other bytes are looked at one by one.
   *
   * @return the number of fields, or {@code -1 - i} when the byte at {@code i} starts no valid
   *     UTF-8 sequence
   */
  public int splitUtf8(byte[] line, int start, int end, int fields) {
    int e = end > start && line[end - 1] == '\r' ? end - 1 : end;
    scratchAt = 0;
    int n = 0;
    int f = start;
    int i = start;
    while (i < e) {
      int c;
      if (i + 8 <= e) {
        // The window's leading ASCII bytes are searched for a tab all at once; the first byte with
        // its top bit set (if any) starts a multi-byte sequence, checked below.
        long w = Bytes.le64(line, i);
        long high = w & 0x8080808080808080L;
        int ascii = high == 0 ? 8 : Long.numberOfTrailingZeros(high) >>> 3;
        long m = Bytes.matches(w, TABS) & (ascii == 8 ? -1L : (1L << (ascii << 3)) - 1);
        if (m != 0) {
          int t = i + (Long.numberOfTrailingZeros(m) >>> 3);
          if (n < fields) {
            arrays[n] = line;
            from[n] = f;
            to[n] = t;
          }
          n++;
          f = t + 1;
          i = f;
          continue;
        }
        i += ascii;
        if (ascii == 8) {
          continue;
        }
        c = line[i];
      } else {
        c = line[i];
        if (c >= 0) {
          if (c == '\t') {
            if (n < fields) {
              arrays[n] = line;
              from[n] = f;
              to[n] = i;
            }
            n++;
            f = i + 1;
          }
          i++;
          continue;
        }
      }
      // Multi-byte sequences, as many as follow each other (a Korean word is several).
      do {
        if ((c & 0xF0) == 0xE0
            && i + 2 < e
            && (line[i + 1] & 0xC0) == 0x80
            && (line[i + 2] & 0xC0) == 0x80
            && (c != (byte) 0xE0 || (line[i + 1] & 0xFF) >= 0xA0)
            && (c != (byte) 0xED || (line[i + 1] & 0xFF) <= 0x9F)) {
          i += 3; // the common case in Korean text: a 3-byte sequence (Hangul is U+AC00..U+D7A3)
        } else {
          int len = Utf8.sequenceLength(line, i, e);
          if (len < 0) {
            return -1 - i;
          }
          i += len;
        }
      } while (i < e && (c = line[i]) < 0);
    }
    if (n < fields) {
      arrays[n] = line;
      from[n] = f;
      to[n] = e;
    }
    n++;
    clearFrom(Math.min(n, fields));
    return n;
  }

  private void clearFrom(int slot) {
    for (int s = slot; s < arrays.length; s++) {
      arrays[s] = EMPTY;
      from[s] = 0;
      to[s] = 0;
    }
  }

  public byte[] array(int slot) {
    return arrays[slot];
  }

  public int from(int slot) {
    return from[slot];
  }

  public int to(int slot) {
    return to[slot];
  }

  public int length(int slot) {
    return to[slot] - from[slot];
  }

  public boolean isEmpty(int slot) {
    return to[slot] == from[slot];
  }

  /** Points {@code slot} at {@code b[f, t)} (which must stay unchanged while the row is used). */
  public void set(int slot, byte[] b, int f, int t) {
    arrays[slot] = b;
    from[slot] = f;
    to[slot] = t;
  }

  /** Copies the value of {@code src} into {@code dst} (they then share bytes; both read-only). */
  public void copy(int src, int dst) {
    set(dst, arrays[src], from[src], to[src]);
  }

  /**
   * Reserves {@code n} bytes of scratch space for a new value and returns its start in {@link
   * #scratch()}; valid until the next {@link #split}. A full scratch array is replaced by a larger
   * one, so slices already handed out stay intact.
   */
  public int reserve(int n) {
    if (scratchAt + n > scratch.length) {
      scratch = new byte[Math.max(scratch.length * 2, n + (1 << 16))];
      scratchAt = 0;
    }
    int at = scratchAt;
    scratchAt += n;
    return at;
  }

  /** Gives back the unused tail of the last {@link #reserve} ({@code used} of it was used). */
  public void release(int start, int used) {
    scratchAt = start + used;
  }

  /** The current scratch array (changes after a {@link #reserve} that grows it). */
  public byte[] scratch() {
    return scratch;
  }

  /** Whether slot values are the same bytes (for tests and change detection). */
  public boolean sameBytes(int slot, byte[] b, int f, int t) {
    return Arrays.equals(arrays[slot], from[slot], to[slot], b, f, t);
  }
}
