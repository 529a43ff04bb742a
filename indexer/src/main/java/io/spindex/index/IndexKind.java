/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

/** What an index file holds. The numeric code is stored in the header (see docs/FORMAT.md). */
public enum IndexKind {
  /** Sorted, unique IPv4 addresses: membership. */
  IPV4_SET(1),
  /** Sorted, non-overlapping IPv4 ranges, each with a label: range lookup. */
  IPV4_RANGES(2),
  /** Products keyed by a 64-bit hash of their id, with int columns and the id text: EP diffs. */
  PRODUCTS(3);

  private final int code;

  IndexKind(int code) {
    this.code = code;
  }

  /** The value stored in the header's {@code kind} field. */
  public int code() {
    return code;
  }

  /** The kind for a header code, or {@code null} when this version does not know it. */
  static IndexKind forCode(int code) {
    for (IndexKind k : values()) {
      if (k.code == code) {
        return k;
      }
    }
    return null;
  }
}
