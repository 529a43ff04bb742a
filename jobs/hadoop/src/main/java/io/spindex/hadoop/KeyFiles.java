/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.hadoop;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;

/**
 * The sorted partitions of a distributed IP list build, one file of little-endian keys each ({@code
 * part-00000}, ...), written by the sort's tasks and read back in order by the driver as the index
 * writer asks for keys.
 */
@Internal
public final class KeyFiles implements IndexWriter.IntRuns, Closeable {
  private final Configuration conf;
  private final Path dir;
  private final long[] rows;
  private final byte[] buf = new byte[1 << 20];
  private int file = -1;
  private long leftInFile;
  private long next;
  private InputStream in;

  /** The files of {@code dir}, partition {@code r} holding {@code rows[r]} keys. */
  public KeyFiles(Configuration conf, Path dir, long[] rows) {
    this.conf = conf;
    this.dir = dir;
    this.rows = rows;
  }

  /** The file of partition {@code r} in {@code dir}. */
  public static Path part(Path dir, int r) {
    return new Path(dir, String.format(Locale.ROOT, "part-%05d", r));
  }

  /** Writes {@code keys} little-endian to {@code file}, replacing it (a retried task's). */
  public static void write(Configuration conf, Path file, int[] keys) throws IOException {
    try (OutputStream out = file.getFileSystem(conf).create(file, true)) {
      ByteBuffer b = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
      IntBuffer ints = b.asIntBuffer();
      for (int at = 0; at < keys.length; ) {
        int k = Math.min(ints.capacity(), keys.length - at);
        ints.clear();
        ints.put(keys, at, k);
        out.write(b.array(), 0, k * 4);
        at += k;
      }
    }
  }

  @Override
  public void fill(long first, int[] into, int n) {
    if (first != next) {
      throw new IllegalStateException("keys read out of order: " + first + ", not " + next);
    }
    try {
      for (int at = 0; at < n; ) {
        while (leftInFile == 0) {
          close();
          Path p = part(dir, ++file);
          in = p.getFileSystem(conf).open(p);
          leftInFile = rows[file];
        }
        int k = (int) Math.min(Math.min(n - at, leftInFile), buf.length / 4);
        IOUtils.readFully(in, buf, 0, k * 4);
        ByteBuffer.wrap(buf, 0, k * 4)
            .order(ByteOrder.LITTLE_ENDIAN)
            .asIntBuffer()
            .get(into, at, k);
        at += k;
        leftInFile -= k;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    next += n;
  }

  @Override
  public void close() throws IOException {
    if (in != null) {
      in.close();
      in = null;
    }
  }
}
