/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongConsumer;

/**
 * Where {@link Stager} copies a file from: a local file ({@link #local(Path)}), or anything else a
 * job can open as a stream. This is the plug-in point for engines: the core has no Hadoop
 * dependency, so a Spark or MapReduce module implements it over a Hadoop {@code FileSystem} in a
 * few lines and stages an index from HDFS, S3A or ABFS to local disk once per executor JVM:
 *
 * <pre>{@code
 * final class HadoopSource implements StageSource {
 *   private final FileSystem fs;
 *   private final FileStatus status;              // fs.getFileStatus(path), taken once
 *
 *   public String name() { return status.getPath().toString(); }
 *   public long length() { return status.getLen(); }
 *   public long lastModifiedMillis() { return status.getModificationTime(); }
 *   public InputStream open() throws IOException {
 *     return fs.open(status.getPath(), bufferBytes());   // large reads suit remote stores
 *   }
 * }
 * }</pre>
 *
 * <p>Contract: {@link #length()} and {@link #lastModifiedMillis()} describe the same version of the
 * content that {@link #open()} returns (take them from one status call); {@link #open()} may be
 * called more than once per staging (once to read the first 128 bytes, once to copy) and each
 * stream starts at byte 0. Implementations must be safe to use from several threads if the same
 * instance is staged from several threads; {@link Stager} itself calls one source from one thread.
 */
@Internal
public interface StageSource {
  /** The source as a person would name it in a message: a path or URI. */
  String name();

  /** Exact length of the content in bytes. */
  long length() throws IOException;

  /**
   * Last modification time in milliseconds since the epoch, or -1 when unknown. {@link Stager}
   * gives the staged copy the same time, and takes a staged copy of a non-index file as current
   * when length and time match (rsync's quick check). An index is recognised by its header checksum
   * instead, which identifies its content.
   */
  long lastModifiedMillis() throws IOException;

  /** Opens the content at byte 0. The caller closes the stream. */
  InputStream open() throws IOException;

  /** Read size of the default {@link #copyTo}: 4 MiB, because remote streams favour large reads. */
  default int bufferBytes() {
    return 4 << 20;
  }

  /**
   * Writes the whole content into {@code target}, an empty temporary file beside the destination.
   * The default reads {@link #open()} in {@link #bufferBytes()} pieces and writes them through a
   * {@link FileChannel}; a source with a faster path overrides it (the local source uses {@code
   * FileChannel.transferTo}).
   *
   * @param progress called with each number of bytes written, from the calling thread
   * @return bytes written
   */
  default long copyTo(Path target, LongConsumer progress) throws IOException {
    byte[] buf = new byte[bufferBytes()];
    long total = 0;
    try (InputStream in = open();
        FileChannel out = FileChannel.open(target, StandardOpenOption.WRITE)) {
      int n;
      while ((n = in.readNBytes(buf, 0, buf.length)) > 0) {
        ByteBuffer bb = ByteBuffer.wrap(buf, 0, n);
        while (bb.hasRemaining()) {
          out.write(bb);
        }
        total += n;
        progress.accept(n);
      }
    }
    return total;
  }

  /** A local file, copied with {@code FileChannel.transferTo} (the fastest method measured). */
  static StageSource local(Path file) {
    return new LocalSource(file);
  }
}
