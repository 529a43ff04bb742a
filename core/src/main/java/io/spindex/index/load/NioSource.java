/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import io.spindex.index.IndexHeader;
import io.spindex.index.SectionEntry;
import io.spindex.index.SectionSource;
import io.spindex.index.search.IntColumn;
import io.spindex.index.search.LongColumn;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/** Reads sections in place with positional reads through one direct buffer. */
final class NioSource implements SectionSource {
  private final IndexHeader header;
  private final FileChannel channel;
  private final ByteBuffer buffer =
      ByteBuffer.allocateDirect(Loader.NIO_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);

  NioSource(IndexHeader header, FileChannel channel) {
    this.header = header;
    this.channel = channel;
  }

  @Override
  public IntColumn ints(SectionEntry e) throws IOException {
    int[] out = new int[Math.toIntExact(e.elements())];
    read(e, (b, filled) -> b.asIntBuffer().get(out, filled, b.remaining() >>> 2));
    return IntColumn.of(out);
  }

  @Override
  public LongColumn longs(SectionEntry e) throws IOException {
    long[] out = new long[Math.toIntExact(e.elements())];
    read(e, (b, filled) -> b.asLongBuffer().get(out, filled, b.remaining() >>> 3));
    return LongColumn.of(out);
  }

  /** Receives each filled buffer and the number of elements before it. */
  private interface Chunk {
    void copy(ByteBuffer filled, int elementsBefore);
  }

  private void read(SectionEntry e, Chunk chunk) throws IOException {
    CRC32C crc = new CRC32C();
    long pos = e.offset();
    long end = e.offset() + e.length();
    int width = e.width();
    int filled = 0;
    while (pos < end) {
      buffer.clear();
      // The buffer holds whole elements: its capacity is a multiple of every width.
      buffer.limit((int) Math.min(buffer.capacity(), end - pos));
      Loader.readFully(channel, buffer, pos, header.file());
      buffer.flip();
      pos += buffer.remaining();
      crc.update(buffer.duplicate());
      chunk.copy(buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN), filled);
      filled += buffer.remaining() / width;
    }
    SectionSource.checkCrc(header, e, crc);
  }

  @Override
  public void skip(SectionEntry e) throws IOException {
    read(e, (b, filled) -> {});
  }

  @Override
  public ByteBuffer bytes(SectionEntry e) throws IOException {
    ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(e.length()));
    Loader.readFully(channel, out, e.offset(), header.file());
    CRC32C crc = new CRC32C();
    crc.update(out.flip().duplicate());
    SectionSource.checkCrc(header, e, crc);
    return out;
  }
}
