/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.stage.StageSource;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * Ways to copy one local file to another: the list the original copy-methods article measured, for
 * {@link CopyBenchmark} to stage a file with each of them against what {@code spindex stage} does
 * ({@code FileChannel.transferTo}, {@link StageSource#local}). Every method writes the same bytes
 * (tested); they differ only in speed. {@link #source} gives a method as the {@link StageSource}
 * that {@code Stager} copies from, so that every row goes through the same staging.
 */
enum CopyMethod {
  /** java.io streams with 8 KiB buffers, one byte per call: the article's slowest baseline. */
  STREAM_BYTE {
    @Override
    long copy(Path src, Path dst, LongConsumer progress) throws IOException {
      long n = 0;
      try (InputStream in = new BufferedInputStream(Files.newInputStream(src), 8192);
          OutputStream out =
              new BufferedOutputStream(
                  Files.newOutputStream(dst, StandardOpenOption.TRUNCATE_EXISTING), 8192)) {
        int b;
        while ((b = in.read()) >= 0) {
          out.write(b);
          if ((++n & ((1 << 20) - 1)) == 0) {
            progress.accept(1 << 20);
          }
        }
      }
      progress.accept(n & ((1 << 20) - 1));
      return n;
    }
  },
  /** java.io streams, 8 KiB arrays per call: what a careful java.io copy does. */
  STREAM_ARRAY {
    @Override
    long copy(Path src, Path dst, LongConsumer progress) throws IOException {
      long n = 0;
      byte[] buf = new byte[8192];
      try (InputStream in = Files.newInputStream(src);
          OutputStream out = Files.newOutputStream(dst, StandardOpenOption.TRUNCATE_EXISTING)) {
        int r;
        while ((r = in.read(buf)) >= 0) {
          out.write(buf, 0, r);
          n += r;
          progress.accept(r);
        }
      }
      return n;
    }
  },
  /** FileChannel read/write through one 8 KiB direct buffer (the article's scatter/gather). */
  CHANNEL_8K {
    @Override
    long copy(Path src, Path dst, LongConsumer progress) throws IOException {
      return channelCopy(src, dst, 8192, progress);
    }
  },
  /** FileChannel read/write through one 1 MiB direct buffer. */
  CHANNEL_1M {
    @Override
    long copy(Path src, Path dst, LongConsumer progress) throws IOException {
      return channelCopy(src, dst, 1 << 20, progress);
    }
  },
  /** Maps the source (1 GiB at a time) and writes the mapping to the target channel. */
  MAP {
    @Override
    long copy(Path src, Path dst, LongConsumer progress) throws IOException {
      try (FileChannel in = FileChannel.open(src, StandardOpenOption.READ);
          FileChannel out = FileChannel.open(dst, StandardOpenOption.WRITE)) {
        long size = in.size();
        for (long pos = 0; pos < size; ) {
          long len = Math.min(1L << 30, size - pos);
          MappedByteBuffer m = in.map(FileChannel.MapMode.READ_ONLY, pos, len);
          while (m.hasRemaining()) {
            out.write(m);
          }
          pos += len;
          progress.accept(len);
        }
        return size;
      }
    }
  },
  /** {@code FileChannel.transferFrom}: the same kernel path, driven from the target. */
  TRANSFER_FROM {
    @Override
    long copy(Path src, Path dst, LongConsumer progress) throws IOException {
      return transfer(src, dst, progress, (in, out, pos, len) -> out.transferFrom(in, pos, len));
    }
  },
  /** {@code Files.copy(src, dst, REPLACE_EXISTING)}: the JDK's own file copy. */
  FILES_COPY {
    @Override
    long copy(Path src, Path dst, LongConsumer progress) throws IOException {
      Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
      long n = Files.size(dst);
      progress.accept(n);
      return n;
    }
  };

  /** Bytes per transferFrom call, so that progress moves on large files (as stage's transferTo). */
  private static final long CHUNK = 64L << 20;

  /** The benchmark's name of the method, e.g. {@code transfer-from}. */
  String benchName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The method called {@code name} by the benchmark. */
  static CopyMethod byBenchName(String name) {
    for (CopyMethod m : values()) {
      if (m.benchName().equals(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown copy method '" + name + "'");
  }

  /** {@code file} as a stage source that this method copies. */
  StageSource source(Path file) {
    StageSource local = StageSource.local(file);
    CopyMethod method = this;
    return new StageSource() {
      @Override
      public String name() {
        return local.name();
      }

      @Override
      public long length() throws IOException {
        return local.length();
      }

      @Override
      public long lastModifiedMillis() throws IOException {
        return local.lastModifiedMillis();
      }

      @Override
      public InputStream open() throws IOException {
        return local.open();
      }

      @Override
      public long copyTo(Path target, LongConsumer progress) throws IOException {
        return method.copy(file, target, progress);
      }
    };
  }

  /**
   * Copies {@code src} into {@code dst}, an existing (empty) file.
   *
   * @return bytes copied
   */
  abstract long copy(Path src, Path dst, LongConsumer progress) throws IOException;

  /** One kernel transfer of up to {@code len} bytes at {@code pos}; returns the bytes moved. */
  private interface Transfer {
    long move(FileChannel in, FileChannel out, long pos, long len) throws IOException;
  }

  /** Copies {@code src} to {@code dst} in {@link #CHUNK}-sized transfers, reporting each one. */
  private static long transfer(Path src, Path dst, LongConsumer progress, Transfer t)
      throws IOException {
    try (FileChannel in = FileChannel.open(src, StandardOpenOption.READ);
        FileChannel out = FileChannel.open(dst, StandardOpenOption.WRITE)) {
      long size = in.size();
      long pos = 0;
      while (pos < size) {
        long n = t.move(in, out, pos, Math.min(CHUNK, size - pos));
        if (n <= 0) {
          throw new IOException(src + ": shorter than " + size + " bytes while copying");
        }
        pos += n;
        progress.accept(n);
      }
      return pos;
    }
  }

  private static long channelCopy(Path src, Path dst, int bufferBytes, LongConsumer progress)
      throws IOException {
    ByteBuffer buf = ByteBuffer.allocateDirect(bufferBytes);
    long n = 0;
    try (FileChannel in = FileChannel.open(src, StandardOpenOption.READ);
        FileChannel out = FileChannel.open(dst, StandardOpenOption.WRITE)) {
      while (in.read(buf) >= 0) {
        buf.flip();
        int r = buf.remaining();
        while (buf.hasRemaining()) {
          out.write(buf);
        }
        buf.clear();
        n += r;
        progress.accept(r);
      }
    }
    return n;
  }
}
