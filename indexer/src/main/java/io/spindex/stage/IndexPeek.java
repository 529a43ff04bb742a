/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Recognises a Spindex index from its first 128 bytes, without a file to open: a staging source may
 * be a remote stream. Only the two fields staging needs, as docs/FORMAT.md specifies them: the
 * magic (bytes 0–7) and the header checksum (bytes 124–127, little-endian), which covers the header
 * and the directory and so identifies the whole content. {@code IndexPeekTest} checks both against
 * {@code io.spindex.index.Layout} through {@code Loader.readHeader}, so a format change that forgot
 * this class fails the build.
 */
final class IndexPeek {
  static final int BYTES = 128;
  private static final byte[] MAGIC = {(byte) 0x89, 'S', 'P', 'X', '\r', '\n', 0x1A, '\n'};
  private static final int OFF_HEADER_CRC = 124;

  private final byte[] head;

  private IndexPeek(byte[] head) {
    this.head = head;
  }

  /** Reads up to the first 128 bytes of {@code source}. */
  static IndexPeek of(StageSource source) throws IOException {
    try (InputStream in = source.open()) {
      return new IndexPeek(in.readNBytes(BYTES));
    }
  }

  static IndexPeek of(byte[] first) {
    return new IndexPeek(Arrays.copyOf(first, Math.min(first.length, BYTES)));
  }

  /** Whether the bytes start like a Spindex index (magic, and a whole header). */
  boolean isIndex() {
    return head.length == BYTES && Arrays.equals(Arrays.copyOf(head, MAGIC.length), MAGIC);
  }

  /** The header checksum as {@code IndexHeader.headerCrc32c()} reports it. */
  int headerCrc32c() {
    int o = OFF_HEADER_CRC;
    return (head[o] & 0xFF)
        | (head[o + 1] & 0xFF) << 8
        | (head[o + 2] & 0xFF) << 16
        | (head[o + 3] & 0xFF) << 24;
  }
}
