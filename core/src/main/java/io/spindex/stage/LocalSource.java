/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongConsumer;

/**
 * A file on a local file system, copied with {@code FileChannel.transferTo}: the kernel copies
 * (copy_file_range or sendfile on Linux), the fastest of the copy methods measured (the bench
 * module's {@code CopyBenchmark}). Immutable and thread-safe.
 */
final class LocalSource implements StageSource {
  /** Bytes per transferTo call, so that progress moves on large files. */
  private static final long CHUNK = 64L << 20;

  private final Path file;

  LocalSource(Path file) {
    this.file = file.toAbsolutePath().normalize();
  }

  @Override
  public String name() {
    return file.toString();
  }

  @Override
  public long length() throws IOException {
    return Files.size(file);
  }

  @Override
  public long lastModifiedMillis() throws IOException {
    return Files.getLastModifiedTime(file).toMillis();
  }

  @Override
  public InputStream open() throws IOException {
    return Files.newInputStream(file);
  }

  @Override
  public long copyTo(Path target, LongConsumer progress) throws IOException {
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
        FileChannel out = FileChannel.open(target, StandardOpenOption.WRITE)) {
      long size = in.size();
      long pos = 0;
      while (pos < size) {
        long n = in.transferTo(pos, Math.min(CHUNK, size - pos), out);
        if (n <= 0) {
          throw new IOException(file + ": shorter than " + size + " bytes while copying");
        }
        pos += n;
        progress.accept(n);
      }
      return pos;
    }
  }
}
