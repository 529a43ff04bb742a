/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.index.search.IntColumn;
import io.spindex.index.search.LongColumn;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A read-only product index (kind {@code PRODUCTS}): one row per product id, ordered by the
 * unsigned 64-bit {@link #idHash id hash}, with int columns ({@code price_pc}, {@code shipping},
 * {@code content_hash}, then any extra fields chosen at build time) and the id text of every row.
 * Built from a full EP by {@code spindex build products}; read by ep-diff and by transform filters.
 *
 * <p>Thread-safe; lookups allocate nothing. {@link #NULL_INT} stands for an empty or non-integer
 * source value.
 */
public final class ProductIndex extends SpindexIndex {
  /** Returned by {@link #row} when no row has the id. */
  public static final int NONE = -1;

  /** The stored value of an int field that was empty or not an integer in the source. */
  public static final int NULL_INT = Integer.MIN_VALUE;

  /** Column of {@code price_pc}: always the first. */
  public static final int PRICE_PC = 0;

  /** Column of {@code shipping}: always the second. */
  public static final int SHIPPING = 1;

  /** Column of the row's content hash: always the third. */
  public static final int CONTENT_HASH = 2;

  /** The names of the three columns every product index has, in order. */
  public static final List<String> FIXED_COLUMNS =
      Collections.unmodifiableList(Arrays.asList("price_pc", "shipping", "content_hash"));

  private final LongColumn hashes;
  private final IntColumn prefix;
  private final IntColumn ints;
  private final int stride;
  private final List<String> columns;
  private final IntColumn idOffsets;
  private final ByteBuffer idBytes;

  /** The heap array behind {@link #idBytes} (io, nio loaders), or null (mapped). */
  private final byte[] idArray;

  private final int idArrayOffset;

  ProductIndex(
      IndexHeader header,
      String loader,
      LongColumn hashes,
      IntColumn prefix,
      IntColumn ints,
      List<String> columns,
      IntColumn idOffsets,
      ByteBuffer idBytes) {
    super(header, loader);
    this.hashes = hashes;
    this.prefix = prefix;
    this.ints = ints;
    this.columns = Collections.unmodifiableList(columns);
    this.stride = columns.size();
    this.idOffsets = idOffsets;
    this.idBytes = idBytes.asReadOnlyBuffer();
    // Never handed out: read here with Arrays.equals (vectorised), not byte by byte.
    this.idArray = idBytes.hasArray() ? idBytes.array() : null;
    this.idArrayOffset = idBytes.hasArray() ? idBytes.arrayOffset() + idBytes.position() : 0;
  }

  /**
   * The 64-bit hash a product id is keyed by: the first 64 bits of MurmurHash3 x64 128 (seed 0) of
   * the id's UTF-8 bytes as they stand in the feed ({@link Murmur3}).
   */
  public static long idHash(byte[] id, int from, int to) {
    return Murmur3.hash64(id, from, to);
  }

  @Override
  public ProductIndex asProducts() {
    return this;
  }

  @Override
  public int size() {
    return hashes.size();
  }

  /** The int column names: {@link #FIXED_COLUMNS} then the extra fields, in stored order. */
  public List<String> columnNames() {
    return columns;
  }

  /** The column called {@code name}, or -1. */
  public int column(String name) {
    return columns.indexOf(name);
  }

  /** The /16 prefix table over the top 16 bits of the hashes, or {@code null}. */
  IntColumn prefixTable() {
    return prefix;
  }

  /** The id hash of {@code row}; rows are in ascending unsigned order of it. */
  public long idHashOf(int row) {
    return hashes.get(row);
  }

  /** The row whose id hashes to {@code hash}, or {@link #NONE}. */
  public int row(long hash) {
    int lo;
    int hi;
    if (prefix != null) {
      int p = (int) (hash >>> 48);
      lo = prefix.get(p);
      hi = prefix.get(p + 1);
    } else {
      lo = 0;
      hi = hashes.size();
    }
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compareUnsigned(hashes.get(mid), hash);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid;
      } else {
        return mid;
      }
    }
    return NONE;
  }

  /**
   * The row of the product whose id is {@code id[from, to)} (UTF-8 bytes), or {@link #NONE}. The
   * stored id text is compared too, so an unknown id whose hash happens to equal a stored one's is
   * not taken for it.
   */
  public int rowOfId(byte[] id, int from, int to) {
    int r = row(idHash(id, from, to));
    return r != NONE && idEquals(r, id, from, to) ? r : NONE;
  }

  /** Whether the id of {@code row} is exactly the bytes {@code id[from, to)}. */
  public boolean idEquals(int row, byte[] id, int from, int to) {
    int a = idOffsets.get(row);
    int n = idOffsets.get(row + 1) - a;
    if (n != to - from) {
      return false;
    }
    if (idArray != null) {
      int at = idArrayOffset + a;
      return Arrays.equals(idArray, at, at + n, id, from, to);
    }
    for (int i = 0; i < n; i++) {
      if (idBytes.get(a + i) != id[from + i]) {
        return false;
      }
    }
    return true;
  }

  /** The value of int column {@code column} of {@code row} ({@link #NULL_INT} when absent). */
  public int value(int row, int column) {
    return ints.get(row * stride + column);
  }

  /** {@code price_pc} of {@code row}, or {@link #NULL_INT}. */
  public int pricePc(int row) {
    return ints.get(row * stride + PRICE_PC);
  }

  /** {@code shipping} of {@code row}, or {@link #NULL_INT}. */
  public int shipping(int row) {
    return ints.get(row * stride + SHIPPING);
  }

  /** The content hash of {@code row} (see docs/EP.md for what it covers). */
  public int contentHash(int row) {
    return ints.get(row * stride + CONTENT_HASH);
  }

  /** Length in bytes of the id of {@code row}. */
  public int idLength(int row) {
    return idOffsets.get(row + 1) - idOffsets.get(row);
  }

  /**
   * Copies the id bytes of {@code row} into {@code dst} at {@code at}.
   *
   * @return the position after the last byte copied
   */
  public int copyId(int row, byte[] dst, int at) {
    int a = idOffsets.get(row);
    int n = idOffsets.get(row + 1) - a;
    idBytes.duplicate().position(a).get(dst, at, n);
    return at + n;
  }

  /** A copy of the id bytes of {@code row}, exactly as in the source. */
  public byte[] idBytes(int row) {
    int a = idOffsets.get(row);
    int b = idOffsets.get(row + 1);
    if (a < 0 || b < a || b > idBytes.limit()) {
      // Only a file opened unchecked (whose offsets nothing checked) gets here: fail, never
      // allocate what a wrong offset asks for.
      throw new IllegalStateException(
          String.format(
              "%s: section 'id_offsets': expected row %d within the %d id bytes, found [%d, %d)"
                  + " (run spindex verify)",
              header().file(), row, idBytes.limit(), a, b));
    }
    byte[] out = new byte[b - a];
    copyId(row, out, 0);
    return out;
  }

  /** The id of {@code row} as a string. */
  public String id(int row) {
    return new String(idBytes(row), StandardCharsets.UTF_8);
  }

  /** Byte offset of the id of {@code row} in the id bytes; {@code size()} gives the end. */
  int idOffset(int row) {
    return idOffsets.get(row);
  }
}
