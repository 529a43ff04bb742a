/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.ep.feed.Utf8;
import io.spindex.index.Murmur3;
import io.spindex.text.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The side file of a {@code map} step: UTF-8 text, one {@code key<TAB>value} per line (LF or CRLF,
 * optional BOM), blank lines and lines starting with {@code #} skipped. Keys are matched byte for
 * byte. Looked up from bytes without allocating (open addressing on a 64-bit hash). Immutable after
 * loading and thread-safe.
 */
final class ValueMap {
  private final byte[][] keys;
  private final byte[][] values;
  private final long[] hashes;
  private final int mask;
  private final int size;

  private ValueMap(byte[][] keys, byte[][] values, long[] hashes, int size) {
    this.keys = keys;
    this.values = values;
    this.hashes = hashes;
    this.mask = keys.length - 1;
    this.size = size;
  }

  /**
   * Loads a side file.
   *
   * @throws InputException naming {@code file:line} for a line without a tab, a repeated key or
   *     invalid UTF-8
   */
  public static ValueMap load(Path file) throws IOException {
    byte[] all = Files.readAllBytes(file);
    int start = all.length >= 3 && (all[0] & 0xFF) == 0xEF && (all[1] & 0xFF) == 0xBB ? 3 : 0;
    int lines = 0;
    for (byte x : all) {
      lines += x == '\n' ? 1 : 0;
    }
    int cap = Integer.highestOneBit(Math.max(4, (lines + 1) * 2) - 1) << 1;
    byte[][] keys = new byte[cap][];
    byte[][] values = new byte[cap][];
    long[] hashes = new long[cap];
    int size = 0;
    int lineNo = 0;
    for (int f = start; f < all.length; ) {
      int nl = f;
      while (nl < all.length && all[nl] != '\n') {
        nl++;
      }
      lineNo++;
      int e = nl > f && all[nl - 1] == '\r' ? nl - 1 : nl;
      String where = file + ":" + lineNo;
      if (e > f && all[f] != '#') {
        if (Utf8.firstInvalid(all, f, e) >= 0) {
          throw new InputException(where + ": not valid UTF-8");
        }
        int tab = f;
        while (tab < e && all[tab] != '\t') {
          tab++;
        }
        if (tab == e) {
          throw new InputException(where + ": expected key<TAB>value, found no tab");
        }
        byte[] k = Arrays.copyOfRange(all, f, tab);
        long h = Murmur3.hash64(k, 0, k.length);
        int slot = (int) h & (cap - 1);
        while (keys[slot] != null) {
          if (Arrays.equals(keys[slot], k)) {
            throw new InputException(
                where + ": key '" + new String(k, StandardCharsets.UTF_8) + "' appears twice");
          }
          slot = (slot + 1) & (cap - 1);
        }
        keys[slot] = k;
        values[slot] = Arrays.copyOfRange(all, tab + 1, e);
        hashes[slot] = h;
        size++;
      }
      f = nl + 1;
    }
    return new ValueMap(keys, values, hashes, size);
  }

  /** Number of keys. */
  public int size() {
    return size;
  }

  /** The value for key {@code b[from, to)}, or {@code null} (the array is shared: read only). */
  public byte[] get(byte[] b, int from, int to) {
    long h = Murmur3.hash64(b, from, to);
    for (int slot = (int) h & mask; keys[slot] != null; slot = (slot + 1) & mask) {
      if (hashes[slot] == h && Arrays.equals(keys[slot], 0, keys[slot].length, b, from, to)) {
        return values[slot];
      }
    }
    return null;
  }
}
