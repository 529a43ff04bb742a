/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep.feed;

import io.spindex.annotations.Internal;
import io.spindex.text.Bytes;
import java.util.Arrays;

/**
 * One EP row as slices: slot {@code s} is {@code array(s)[from(s), to(s))}. After {@link #split}
 * the first slots are the line's fields, pointing into the line's own buffer (nothing is copied or
 * decoded); a transform step that changes a value points its slot at new bytes in the row's scratch
 * space. Slots past the input fields are columns a transform adds.
 *
 * <p>Not thread-safe: one per thread, reused row after row.
 */
@Internal
public final class EpRow {
  private static final byte[] EMPTY = new byte[0];
  private static final long TABS = Bytes.repeat((byte) '\t');

  private byte[][] arrays;
  private int[] from;
  private int[] to;
  private byte[] scratch = new byte[1 << 16];
  private int scratchAt;

  /** The row's own copy of a line ({@link #scanCopy}). */
  private byte[] line = new byte[1 << 10];

  /**
   * Bit {@code s}: slot {@code s} (below 64) holds a field as {@link #scanLine} split it, with no
   * byte a text normaliser looks at ({@link #isClean}).
   */
  private long clean;

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
    clean = 0;
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
    clean = 0;
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

  private static final long HIGHS = 0x8080808080808080L;
  private static final long LOWS7 = 0x7F7F7F7F7F7F7F7FL;

  /** What {@link #scanLine} returns when the line needs the byte-wise path. */
  public static final int SLOW = -1;

  /**
   * The common case of {@link LineCheck#check} and {@link #splitUtf8} fused with finding the line
   * end, eight bytes at a time with no branch per byte: finds the LF of the line starting at {@code
   * start}, splits the line at tabs into the first {@code fields} slots (a CR before the LF
   * dropped), checks that it is valid UTF-8 and, for the fields of {@code screen} (bit {@code f}:
   * field {@code f}), notes which hold a byte a text normaliser looks at (a control character,
   * U+007F, 0xC2 or 0xE3 lead bytes, two spaces in a row): the others are {@link #isClean}, and so
   * may be fields next to them that share a word with them; all other fields are not.
   *
   * <p>It accepts only what the byte-wise path accepts, and gives up on anything else: invalid or
   * rare UTF-8 (leads 0xC0, 0xC1, 0xE0, 0xE1, four-byte sequences; 0xED is checked here), a field
   * count other than {@code fields}, a line end not found by an 8-byte read before {@code limit}.
   * Length and blank-line checks are the caller's.
   *
   * @return the index of the line's LF, or {@link #SLOW}: the caller then finds the line end itself
   *     and checks the line with {@link LineCheck#check}
   */
  public int scanLine(byte[] b, int start, int limit, int fields, long screen) {
    int last = Math.min(limit, b.length) - 8;
    int n = 0;
    int f = start;
    long bit = 1; // the current field's bit in dirty (0 from field 64 on)
    long dirty = 0;
    long pend = 0; // continuation bytes the previous word's leads expect in bytes 0..1
    long edPend = 0;
    long spPrev = 0;
    for (int i = start; i <= last; i += 8) {
      long w = Bytes.le64(b, i);
      long x = w & LOWS7;
      long ctl = ~((x + 0x6060606060606060L) | w) & HIGHS; // bytes below 0x20, exactly
      long hi = w & HIGHS;
      // Words of fields no step screens are not looked at: the fields they touch are not clean.
      boolean on = ((bit | bit << 1) & screen) != 0;
      long odd = -1;
      if (on) {
        long sp = ~(((x ^ 0x2020202020202020L) + LOWS7) | w) & HIGHS;
        odd = ((x + 0x0101010101010101L) & ~w & HIGHS) | (sp & ((sp >>> 8) | spPrev));
        spPrev = sp >>> 56;
      } else {
        spPrev = 0;
      }
      if ((hi | pend) != 0) {
        // UTF-8 structure: every lead byte (11xxxxxx) is followed by one continuation byte
        // (10xxxxxx), three-byte leads (1110xxxx) by two, and nothing else is a continuation byte.
        long b6 = (w << 1) & HIGHS;
        long b5 = (w << 2) & HIGHS;
        long lead = hi & b6;
        long cont = hi ^ lead;
        long b3 = (w << 4) & HIGHS;
        if ((lead & ~(b5 & b3 & ~(w << 3))) == 0) {
          // The common case of Korean text: every lead is 1110 1xxx (E8..EF: Hangul, most CJK),
          // a three-byte sequence that is never overlong and never a byte the screen looks for;
          // of these only ED has a bound on the next byte (80..9F: no surrogates).
          long ed = lead & (w << 5) & ~(w << 6) & (w << 7);
          if ((((lead << 8) | (lead << 16) | pend) ^ cont | (((ed << 8) | edPend) & b5)) != 0) {
            return SLOW;
          }
          pend = (lead >>> 56) | (lead >>> 48);
          edPend = ed >>> 56;
        } else {
          long l3 = lead & b5;
          long expected = (lead << 8) | (l3 << 16) | pend;
          // Left to the byte-wise path: leads 1111xxxx (four-byte sequences, invalid bytes) and
          // leads with bits 4..1 clear: C0, C1 (overlong), E0 (overlong below A0), E1.
          long rare = (l3 & (w << 3)) | (lead & ~((w << 3) | (w << 4) | (w << 5) | (w << 6)));
          long ed = zeroBytes(w ^ 0xEDEDEDEDEDEDEDEDL); // next byte must be 80..9F
          long bad = (expected ^ cont) | rare | (((ed << 8) | edPend) & b5);
          if (bad != 0) {
            return SLOW;
          }
          pend = (lead >>> 56) | (l3 >>> 48);
          edPend = ed >>> 56;
          if (on) {
            odd |= zeroBytes(w ^ 0xC2C2C2C2C2C2C2C2L) | zeroBytes(w ^ 0xE3E3E3E3E3E3E3E3L);
          }
        }
      }
      if (odd != 0) {
        dirty |= bit;
      }
      for (; ctl != 0; ctl &= ctl - 1) {
        int p = i + (Long.numberOfTrailingZeros(ctl) >>> 3);
        byte c = b[p];
        if (c == '\t') {
          if (n < fields) {
            arrays[n] = b;
            from[n] = f;
            to[n] = p;
          }
          n++;
          f = p + 1;
          bit <<= 1;
          if (odd != 0) {
            dirty |= bit;
          }
        } else if (c == '\n') {
          if (n + 1 != fields) {
            return SLOW;
          }
          // As check and split drop a CR each: the line's, then one more if its value ends with
          // one.
          int e = p > f && b[p - 1] == '\r' ? p - 1 : p;
          arrays[n] = b;
          from[n] = f;
          to[n] = e > f && b[e - 1] == '\r' ? e - 1 : e;
          clearFrom(fields);
          scratchAt = 0;
          clean = ~dirty & (fields >= 64 ? -1L : (1L << fields) - 1);
          return p;
        } else {
          dirty |= bit; // a control character (or the CR of a CRLF)
        }
      }
    }
    return SLOW;
  }

  /**
   * {@link #scanLine} for a line held on its own, as a Hadoop record is ({@code b[from, to)}, no LF
   * after it): copies it into the row's own buffer, followed by an LF and the zero bytes the scan's
   * eight-byte reads may look at; the row's slices then point into that copy.
   *
   * @return whether the scan split the whole line and vouched for it (a line holding an LF of its
   *     own is not vouched for)
   */
  public boolean scanCopy(byte[] b, int from, int to, int fields, long screen) {
    int n = to - from;
    if (line.length < n + 9) {
      line = new byte[Math.max(n + 9, line.length * 2)];
    }
    System.arraycopy(b, from, line, 0, n);
    line[n] = '\n';
    Bytes.putLe64(line, n + 1, 0);
    return scanLine(line, 0, n + 9, fields, screen) == n;
  }

  /** The top bit set in exactly the zero bytes of {@code x}. */
  private static long zeroBytes(long x) {
    return ~(((x & LOWS7) + LOWS7) | x) & HIGHS;
  }

  /**
   * Whether {@code slot} holds a field as {@link #scanLine} split it (or a copy), with no control
   * character, U+007F, 0xC2 or 0xE3 byte, nor two spaces in a row: the text normalisers could only
   * trim it.
   */
  public boolean isClean(int slot) {
    return slot < 64 && (clean >>> slot & 1) != 0;
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
    if (slot < 64) {
      clean &= ~(1L << slot);
    }
    arrays[slot] = b;
    from[slot] = f;
    to[slot] = t;
  }

  /** Copies the value of {@code src} into {@code dst} (they then share bytes; both read-only). */
  public void copy(int src, int dst) {
    boolean c = isClean(src);
    set(dst, arrays[src], from[src], to[src]);
    if (c && dst < 64) {
      clean |= 1L << dst;
    }
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
