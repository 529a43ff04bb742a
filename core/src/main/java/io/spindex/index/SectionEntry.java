/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;

/**
 * One row of the section directory: which section, where it lies and its CRC32C. Immutable. The
 * section of an optional entry whose id this version does not know is {@code null}: its bytes are
 * checked (bounds, checksum) and not read.
 */
@Internal
public final class SectionEntry {
  private final Section section;
  private final int id;
  private final int width;
  private final long offset;
  private final long length;
  private final int crc32c;

  SectionEntry(Section section, long offset, long length, int crc32c) {
    this(section, section.id(), section.width(), offset, length, crc32c);
  }

  SectionEntry(Section section, int id, int width, long offset, long length, int crc32c) {
    this.section = section;
    this.id = id;
    this.width = width;
    this.offset = offset;
    this.length = length;
    this.crc32c = crc32c;
  }

  /** The section, or {@code null} for an optional section of an id this version does not know. */
  public Section section() {
    return section;
  }

  /** The id in the directory. */
  public int id() {
    return id;
  }

  /** The name in messages: the section's, or {@code id N} for one this version does not know. */
  public String name() {
    return section != null ? section.displayName() : "id " + Integer.toUnsignedString(id);
  }

  /** Element width in bytes, as the directory gives it. */
  public int width() {
    return width;
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
    return length / width;
  }

  /** CRC32C of the section's bytes. */
  public int crc32c() {
    return crc32c;
  }
}
