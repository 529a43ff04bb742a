/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;

/**
 * Reads a file sequentially by copying from read-only memory-mapped windows of it.
 *
 * <p>A {@link FileChannel} read into a heap array copies twice: from the page cache into a
 * temporary direct buffer, then into the array. A copy out of a mapping is one copy. Windows are
 * mapped one after the other ({@value #WINDOW} bytes each) and released by the garbage collector,
 * as every {@link MappedByteBuffer} is.
 *
 * <p>The file must not shrink while it is read: a read of a page that is gone fails with an {@link
 * InternalError}, as for any mapping, and the JVM raises it at a later point of the reading thread,
 * so it cannot be turned into an {@code IOException} here. Not thread-safe.
 */
final class MappedFileChannel implements ReadableByteChannel {
  static final int WINDOW = 64 << 20;

  private final FileChannel ch;
  private final int windowBytes;
  private final long size;
  private long pos;
  private MappedByteBuffer window;
  private long windowStart;

  /** Reads {@code ch} from its current position to its size at opening. */
  MappedFileChannel(FileChannel ch) throws IOException {
    this(ch, WINDOW);
  }

  /** As above with windows of {@code windowBytes} (tests: reads across window edges). */
  MappedFileChannel(FileChannel ch, int windowBytes) throws IOException {
    this.ch = ch;
    this.windowBytes = windowBytes;
    this.size = ch.size();
    this.pos = ch.position();
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (!ch.isOpen()) {
      throw new ClosedChannelException();
    }
    if (pos >= size) {
      return -1;
    }
    int total = 0;
    while (dst.hasRemaining() && pos < size) {
      if (window == null || pos >= windowStart + window.capacity()) {
        windowStart = pos;
        window = ch.map(FileChannel.MapMode.READ_ONLY, pos, Math.min(windowBytes, size - pos));
      }
      int at = (int) (pos - windowStart);
      int n = Math.min(dst.remaining(), window.capacity() - at);
      ByteBuffer src = window.duplicate();
      src.position(at).limit(at + n);
      dst.put(src);
      pos += n;
      total += n;
    }
    return total;
  }

  @Override
  public boolean isOpen() {
    return ch.isOpen();
  }

  @Override
  public void close() throws IOException {
    window = null;
    ch.close();
  }
}
