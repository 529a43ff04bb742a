/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep.feed;

import io.spindex.annotations.Internal;
import io.spindex.index.Murmur3;
import io.spindex.index.ProductIndex;
import io.spindex.text.InputException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a product index stores of an EP row, for one input header: the id, the int columns ({@code
 * price_pc}, {@code shipping}, the content hash, extra int fields) exactly as {@code spindex build
 * products} stores them and as ep-diff compares them. One definition for the builder and the diff.
 *
 * <p>The <b>content hash</b> covers every field except {@code class} and {@code update_time} (which
 * change without the product changing): the fields with a non-empty value, in ascending order of
 * their names, each as {@code NAME 0x1F VALUE 0x1E} (UTF-8 bytes as in the feed), hashed with
 * {@link Murmur3} and cut to its low 32 bits. Column order and empty columns do not change it; any
 * byte of any value does. Immutable and thread-safe; the scratch buffer is the caller's.
 */
@Internal
public final class ProductColumns {
  /** Fields left out of the content hash: they are about the feed, not the product. */
  public static final Set<String> NOT_CONTENT =
      Collections.unmodifiableSet(new HashSet<>(Arrays.asList("class", "update_time")));

  private final EpHeader header;
  private final int idSlot;
  private final int[] intSlots;
  private final int[] hashSlots;
  private final byte[][] hashNames;
  private final List<String> columnNames;

  /**
   * @param extraIntFields fields stored as extra int columns after the fixed three
   * @throws InputException when the header lacks {@code id}, {@code price_pc}, {@code shipping} or
   *     an extra field
   */
  public ProductColumns(EpHeader header, List<String> extraIntFields, String where)
      throws InputException {
    this.header = header;
    List<String> need = new ArrayList<>(Arrays.asList("id"));
    need.addAll(extraIntFields);
    for (String f : need) {
      if (!header.has(f)) {
        throw new InputException(
            where + ": the header has no field '" + f + "' (fields: " + header + ")");
      }
    }
    idSlot = header.indexOf("id");
    columnNames = new ArrayList<>(ProductIndex.FIXED_COLUMNS);
    intSlots = new int[3 + extraIntFields.size()];
    intSlots[ProductIndex.PRICE_PC] = header.indexOf("price_pc");
    intSlots[ProductIndex.SHIPPING] = header.indexOf("shipping");
    intSlots[ProductIndex.CONTENT_HASH] = -1;
    for (int i = 0; i < extraIntFields.size(); i++) {
      String f = extraIntFields.get(i);
      if (columnNames.contains(f)) {
        throw new InputException("int field '" + f + "' listed twice");
      }
      columnNames.add(f);
      intSlots[3 + i] = header.indexOf(f);
    }
    List<String> sorted = new ArrayList<>();
    for (String n : header.names()) {
      if (!NOT_CONTENT.contains(n)) {
        sorted.add(n);
      }
    }
    Collections.sort(sorted);
    hashSlots = new int[sorted.size()];
    hashNames = new byte[sorted.size()][];
    for (int i = 0; i < hashSlots.length; i++) {
      hashSlots[i] = header.indexOf(sorted.get(i));
      hashNames[i] = sorted.get(i).getBytes(StandardCharsets.UTF_8);
    }
  }

  public EpHeader header() {
    return header;
  }

  /** The slot (column) of {@code id}. */
  public int idSlot() {
    return idSlot;
  }

  /** Names of the int columns: {@link ProductIndex#FIXED_COLUMNS} then the extra fields. */
  public List<String> columnNames() {
    return Collections.unmodifiableList(columnNames);
  }

  /** The id hash of a split row. */
  public long idHash(EpRow row) {
    return ProductIndex.idHash(row.array(idSlot), row.from(idSlot), row.to(idSlot));
  }

  /** The int value of column {@code c} of a split row, as the index stores it. */
  public int value(EpRow row, int c, ByteSink scratch) {
    if (c == ProductIndex.CONTENT_HASH) {
      return contentHash(row, scratch);
    }
    int s = intSlots[c];
    if (s < 0) {
      return ProductIndex.NULL_INT;
    }
    return EpInts.toColumn(row.array(s), row.from(s), row.to(s));
  }

  /** Writes every int column of a split row to {@code out} at {@code at}. */
  public void values(EpRow row, int[] out, int at, ByteSink scratch) {
    for (int c = 0; c < intSlots.length; c++) {
      out[at + c] = value(row, c, scratch);
    }
  }

  /** Number of int columns. */
  public int columns() {
    return intSlots.length;
  }

  /** The content hash of a split row (see the class comment). */
  public int contentHash(EpRow row, ByteSink scratch) {
    int n = 0;
    for (int i = 0; i < hashSlots.length; i++) {
      int len = row.length(hashSlots[i]);
      n += len == 0 ? 0 : hashNames[i].length + len + 2;
    }
    scratch.clear();
    scratch.ensure(n);
    byte[] b = scratch.array();
    int at = 0;
    for (int i = 0; i < hashSlots.length; i++) {
      int s = hashSlots[i];
      int len = row.length(s);
      if (len == 0) {
        continue;
      }
      byte[] name = hashNames[i];
      System.arraycopy(name, 0, b, at, name.length);
      at += name.length;
      b[at++] = 0x1F;
      System.arraycopy(row.array(s), row.from(s), b, at, len);
      at += len;
      b[at++] = 0x1E;
    }
    return (int) Murmur3.hash64(b, 0, at);
  }
}
