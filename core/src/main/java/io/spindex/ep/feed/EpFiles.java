/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep.feed;

import io.spindex.annotations.Internal;
import io.spindex.index.AtomicFiles;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.GZIPInputStream;

/** File plumbing of the EP commands: input channels, atomic outputs, the rejects file. */
@Internal
public final class EpFiles {
  private EpFiles() {}

  /** A channel over a plain or gzip file (recognised by its first bytes, whatever its name). */
  public static ReadableByteChannel open(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString(), null, "no such file (or not a regular file)");
    }
    if (io.spindex.text.Gzip.is(file)) {
      return Channels.newChannel(
          new GZIPInputStream(
              new BufferedInputStream(Files.newInputStream(file), 1 << 16), 1 << 16));
    }
    return FileChannel.open(file, StandardOpenOption.READ);
  }

  /** An output written to a temporary file beside its target and renamed into place on commit. */
  public static final class Output implements Closeable {
    private final Path target;
    private final Path tmp;
    private final FileChannel ch;
    private long bytes;
    private boolean committed;

    public Output(Path target) throws IOException {
      this.target = target.toAbsolutePath();
      this.tmp = AtomicFiles.createTemp(this.target);
      this.ch =
          FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    public void write(byte[] b, int from, int to) throws IOException {
      ByteBuffer buf = ByteBuffer.wrap(b, from, to - from);
      try {
        while (buf.hasRemaining()) {
          bytes += ch.write(buf);
        }
      } catch (IOException e) {
        // The file system says why ("File too large", "No space left on device") but not where.
        throw new IOException(
            target + ": writing failed after " + bytes + " bytes: " + e.getMessage(), e);
      }
    }

    public void write(String s) throws IOException {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      write(b, 0, b.length);
    }

    public long bytes() {
      return bytes;
    }

    public void commit() throws IOException {
      try {
        ch.close();
      } catch (IOException e) {
        throw new IOException(target + ": writing failed: " + e.getMessage(), e);
      }
      AtomicFiles.commit(tmp, target);
      committed = true;
    }

    @Override
    public void close() throws IOException {
      if (!committed) {
        ch.close();
        Files.deleteIfExists(tmp);
      }
    }
  }
}
