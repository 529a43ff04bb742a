/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;

/**
 * An element of a structure's column that breaks the structure's rules: which element, what was
 * expected there and what was found. The search code knows its columns, not the file: the code that
 * read the section turns this into a {@code CorruptIndexException} naming the file, the section and
 * the element's byte offset.
 */
@Internal
public final class Malformed extends Exception {
  private static final long serialVersionUID = 1L;

  private final long element;
  private final String expected;
  private final String found;

  Malformed(long element, String expected, String found) {
    super("element " + element + ": expected " + expected + ", found " + found);
    this.element = element;
    this.expected = expected;
    this.found = found;
  }

  /** The index of the element in its column (not a byte offset). */
  public long element() {
    return element;
  }

  public String expected() {
    return expected;
  }

  public String found() {
    return found;
  }
}
