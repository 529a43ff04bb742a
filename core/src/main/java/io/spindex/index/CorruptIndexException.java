/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import io.spindex.index.search.Malformed;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An index file that is not a valid Spindex index: wrong magic, unknown version, a section out of
 * bounds, a checksum mismatch, unsorted keys. The message names the file, the section, the byte
 * offset, what was expected and what was found.
 */
public final class CorruptIndexException extends IOException {
  private static final long serialVersionUID = 1L;

  /** An exception with this message (which names the file); for Spindex's loaders. */
  @Internal
  public CorruptIndexException(String message) {
    super(message);
  }

  /** An element of section {@code e} that breaks its structure's rules, at its byte offset. */
  static CorruptIndexException at(Path file, SectionEntry e, Malformed m) {
    return at(
        file,
        "section '" + e.name() + "'",
        e.offset() + (long) e.width() * m.element(),
        m.expected(),
        m.found());
  }

  /** The message every check gives: file, what (a section, the header), offset, expected, found. */
  @Internal
  public static CorruptIndexException at(
      Path file, String section, long offset, String expected, String found) {
    return new CorruptIndexException(
        String.format(
            "%s: %s at offset %d: expected %s, found %s", file, section, offset, expected, found));
  }
}
