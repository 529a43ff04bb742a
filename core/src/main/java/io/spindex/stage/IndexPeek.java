/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import io.spindex.index.IndexHeader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Paths;

/**
 * What staging needs to know of a source before copying it, read from the start of its stream (a
 * source may be remote): whether it is a Spindex index and, if so, its header checksum, which
 * covers the header and the directory and so identifies the whole content. A source that starts
 * like an index but whose header is damaged fails here, before anything is copied.
 */
final class IndexPeek {
  private static final IndexPeek NOT_AN_INDEX = new IndexPeek(false, 0);

  private final boolean index;
  private final int headerCrc32c;

  private IndexPeek(boolean index, int headerCrc32c) {
    this.index = index;
    this.headerCrc32c = headerCrc32c;
  }

  /** Reads the header of {@code source} (validated) if it starts like an index. */
  static IndexPeek of(StageSource source) throws IOException {
    try (InputStream in = new BufferedInputStream(source.open(), 8192)) {
      in.mark(16);
      byte[] magic = in.readNBytes(8);
      in.reset();
      if (!IndexHeader.startsLikeIndex(magic)) {
        return NOT_AN_INDEX;
      }
      return new IndexPeek(
          true, IndexHeader.read(in, source.length(), Paths.get(source.name())).headerCrc32c());
    }
  }

  /** Whether the source is a Spindex index. */
  boolean isIndex() {
    return index;
  }

  /** The header checksum as {@code IndexHeader.headerCrc32c()} reports it. */
  int headerCrc32c() {
    return headerCrc32c;
  }
}
