/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import java.util.Locale;

/**
 * What to do when source ranges overlap. Whatever wins, the index stores flattened, non-overlapping
 * ranges; every address keeps the label that the policy picks for it.
 */
@Internal
public enum OverlapPolicy {
  /** Fail the build, naming both lines (the default: overlaps are usually a data error). */
  FAIL,
  /** The smallest containing range wins, as in longest-prefix match; ties go to input order. */
  NARROWEST,
  /** The range that comes first in the input (across files, in argument order) wins. */
  FIRST,
  /** The range that comes last in the input wins. */
  LAST;

  /** Parses {@code fail}, {@code narrowest}, {@code first} or {@code last}. */
  public static OverlapPolicy parse(String s) {
    for (OverlapPolicy p : values()) {
      if (p.name().equalsIgnoreCase(s)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown overlap policy '" + s + "': expected fail, narrowest, first or last");
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
