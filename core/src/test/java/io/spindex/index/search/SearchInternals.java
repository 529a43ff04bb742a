/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

/**
 * What the search structures keep to their package, for the tests of io.spindex.index that build
 * files and look inside the structures a loader made of them.
 */
public final class SearchInternals {
  private SearchInternals() {}

  /** {@link Prefix6#root}: the element offset of block {@code p}'s table, 0 when it has none. */
  public static int root(Prefix6 tables, int p) {
    return tables.root(p);
  }

  /** {@link Prefix6#element}: element {@code i} of the section. */
  public static int element(Prefix6 tables, int i) {
    return tables.element(i);
  }

  /** {@link Keys128#flip}: 64 bits as stored. */
  public static long flip(long bits) {
    return Keys128.flip(bits);
  }

  /** {@link Tiled6#bytes}: the heap bytes of the rows and their side tables. */
  public static long bytes(Tiled6 rows) {
    return rows.bytes();
  }

  /** {@link Tiled6#oddCount}: rows whose start has low bits set. */
  public static int oddCount(Tiled6 rows) {
    return rows.oddCount();
  }

  /** {@link Tiled6#inexactCount}: rows whose 32 bits do not tell their start. */
  public static int inexactCount(Tiled6 rows) {
    return rows.inexactCount();
  }
}
