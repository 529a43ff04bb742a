/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

/** What an index file holds. The numeric code is stored in the header (see docs/FORMAT.md). */
public enum IndexKind {
  /**
   * Sorted, unique IP addresses: membership. IPv4, IPv6 or both (the name predates IPv6 and stays
   * for compatibility).
   */
  IPV4_SET(1, "IP set", "an IP set index"),
  /**
   * Sorted, non-overlapping IP ranges, each with a label: range lookup. IPv4, IPv6 or both (the
   * name predates IPv6 and stays for compatibility).
   */
  IPV4_RANGES(2, "IP ranges", "an IP range index"),
  /** Products keyed by a 64-bit hash of their id, with int columns and the id text: EP diffs. */
  PRODUCTS(3, "products", "a product index");

  private final int code;
  private final String displayName;
  private final String description;

  IndexKind(int code, String displayName, String description) {
    this.code = code;
    this.displayName = displayName;
    this.description = description;
  }

  /** What {@code spindex inspect} shows: {@code IP set}, {@code IP ranges}, {@code products}. */
  public String displayName() {
    return displayName;
  }

  /** For messages, with its article: {@code an IP set index}, {@code a product index}. */
  public String description() {
    return description;
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
