/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import io.spindex.fetch.FetchException.Kind;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The checks made before a byte is downloaded: size limit and free disk space. */
final class Limits {
  private Limits() {}

  /** Fails when the announced length is over {@code --max-size}. */
  static void checkSize(FetchOptions options, long length, URI uri) throws FetchException {
    if (length > options.maxBytes) {
      throw new FetchException(
          Kind.FATAL,
          String.format(
              Locale.ROOT,
              "server announces %,d bytes, more than the maximum of %,d (--max-size): %s",
              length,
              options.maxBytes,
              uri));
    }
  }

  /** Fails when the file system of {@code beside} has less than {@code bytes} free. */
  static void checkSpace(Path beside, long bytes) throws IOException {
    Path dir = beside.toAbsolutePath().getParent();
    long free = Files.getFileStore(dir).getUsableSpace();
    if (free < bytes) {
      throw new FetchException(
          Kind.FATAL,
          String.format(
              Locale.ROOT, "%s: %,d bytes to download but only %,d free", dir, bytes, free));
    }
  }
}
