/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import java.util.Locale;

/**
 * How a range index stores its labels: whole ({@code label_offsets}, {@code label_bytes}, readable
 * by every Spindex) or by field ({@code label_value_ids} and the fields' values, format version 7:
 * each distinct value of a field once, a label as the ids of its values).
 */
@Internal
public enum LabelStore {
  /**
   * By field whenever the labels have declared fields ({@code --label-fields}, a MaxMind database's
   * fields), every label splits into them, and the file is smaller so.
   */
  AUTO,
  /** Whole: a file every older reader (format version 6 and before) reads. */
  WHOLE,
  /** By field whenever every label splits into its declared fields, whatever the size. */
  FIELDS;

  /** {@code auto}, {@code whole} or {@code fields}, any case. */
  public static LabelStore parse(String v) {
    for (LabelStore e : values()) {
      if (e.name().equalsIgnoreCase(v)) {
        return e;
      }
    }
    throw new IllegalArgumentException(
        "unknown label store '" + v + "': expected auto, whole or fields");
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
