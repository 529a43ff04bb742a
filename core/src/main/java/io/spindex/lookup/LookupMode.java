/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.annotations.Internal;
import java.util.Locale;

/** What an ip-lookup job does with each line whose address it found. */
@Internal
public enum LookupMode {
  /**
   * Write the line with {@code <TAB>label} appended: the range's label or {@code \N} for a range
   * index, {@code true} or {@code false} for a set.
   */
  ANNOTATE,
  /** Write the line unchanged when its address matches (or, with keep=misses, when it does not). */
  FILTER,
  /**
   * Write nothing per line; count lines per label ({@code \N} for no range; true/false for sets).
   */
  COUNT;

  /** The lower-case name used in options. */
  public String optionName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The mode called {@code name} ({@code annotate}, {@code filter}, {@code count}). */
  public static LookupMode byName(String name) {
    for (LookupMode m : values()) {
      if (m.optionName().equals(name.trim().toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "unknown mode '" + name + "': expected annotate, filter or count");
  }
}
