/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;

/** One row of the section directory: where a section lies and its CRC32C. Immutable. */
@Internal
public final class SectionEntry {
  private final Section section;
  private final long offset;
  private final long length;
  private final int crc32c;

  SectionEntry(Section section, long offset, long length, int crc32c) {
    this.section = section;
    this.offset = offset;
    this.length = length;
    this.crc32c = crc32c;
  }

  public Section section() {
    return section;
  }

  /** Byte offset of the section from the start of the file; a multiple of 64. */
  public long offset() {
    return offset;
  }

  /** Length in bytes. */
  public long length() {
    return length;
  }

  /** Number of elements: {@code length / width}. */
  public long elements() {
    return length / section.width();
  }

  /** CRC32C of the section's bytes. */
  public int crc32c() {
    return crc32c;
  }
}
