/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.Layout;
import io.spindex.index.SectionSource;
import io.spindex.index.SpindexIndex;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The java.io strategy: the original article's {@code DataInputStream} loop, section by section.
 */
final class IoLoader {
  static SpindexIndex load(Path file) throws IOException {
    Loader.requireFile(file);
    long size = Files.size(file);
    Layout.requireHeader(file, size);
    try (InputStream raw = new FileInputStream(file.toFile());
        DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
      byte[] fixed = new byte[Layout.HEADER_BYTES];
      readFully(in, fixed, file, 0);
      int dirBytes = Layout.directoryBytes(file, ByteBuffer.wrap(fixed), size);
      byte[] all = new byte[Layout.HEADER_BYTES + dirBytes];
      System.arraycopy(fixed, 0, all, 0, fixed.length);
      readFully(in, all, file, Layout.HEADER_BYTES);
      IndexHeader h = Layout.decode(file, ByteBuffer.wrap(all), size);
      return SectionSource.assemble(h, "io", new StreamSource(h, in, all.length));
    }
  }

  private static void readFully(DataInputStream in, byte[] b, Path file, int from)
      throws IOException {
    try {
      in.readFully(b, from, b.length - from);
    } catch (java.io.EOFException eof) {
      throw CorruptIndexException.at(
          file, "header", from, (b.length - from) + " bytes", "end of file");
    }
  }
}
