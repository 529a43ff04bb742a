/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.SectionEntry;
import io.spindex.index.SectionSource;
import io.spindex.index.search.IntColumn;
import io.spindex.index.search.LongColumn;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * Maps sections (in chunks of at most 1 GiB) and hands out read-only views of them. A file that
 * fits one mapping is mapped once and its sections are slices of it: a mapping is released only
 * when the garbage collector finds it unreachable, and a process may hold only so many ({@code
 * vm.max_map_count}), so a load should not cost one per section.
 */
final class MapSource implements SectionSource {
  private static final long CHUNK_BYTES = 4L * IntColumn.CHUNK_INTS;
  private final IndexHeader header;
  private final FileChannel channel;
  private final boolean checksums;
  private ByteBuffer whole;

  @Override
  public boolean checksRows() {
    return checksums;
  }

  @Override
  public boolean inPlace() {
    return true;
  }

  MapSource(IndexHeader header, FileChannel channel, boolean checksums) {
    this.header = header;
    this.channel = channel;
    this.checksums = checksums;
  }

  private ByteBuffer[] map(SectionEntry e) throws IOException {
    int n = (int) Math.max(1, (e.length() + CHUNK_BYTES - 1) / CHUNK_BYTES);
    ByteBuffer[] chunks = new ByteBuffer[n];
    CRC32C crc = checksums ? new CRC32C() : null;
    for (int i = 0; i < n; i++) {
      long from = i * CHUNK_BYTES;
      long len = Math.min(CHUNK_BYTES, e.length() - from);
      chunks[i] = region(e.offset() + from, len);
      if (crc != null) {
        crc.update(chunks[i].duplicate());
      }
    }
    if (crc != null) {
      SectionSource.checkCrc(header, e, crc);
    }
    return chunks;
  }

  /** Bytes {@code [offset, offset + len)} of the file, mapped read-only. */
  private ByteBuffer region(long offset, long len) throws IOException {
    if (whole == null && channel.size() <= Integer.MAX_VALUE) {
      whole = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
    }
    if (whole == null || offset + len > whole.capacity()) {
      return channel.map(FileChannel.MapMode.READ_ONLY, offset, len);
    }
    ByteBuffer b = whole.duplicate();
    b.position((int) offset).limit((int) (offset + len));
    return b.slice();
  }

  @Override
  public IntColumn ints(SectionEntry e) throws IOException {
    return IntColumn.view(map(e));
  }

  @Override
  public LongColumn longs(SectionEntry e) throws IOException {
    return LongColumn.view(map(e));
  }

  @Override
  public void skip(SectionEntry e) throws IOException {
    map(e);
  }

  @Override
  public ByteBuffer bytes(SectionEntry e) throws IOException {
    ByteBuffer[] chunks = map(e);
    if (chunks.length != 1) {
      throw CorruptIndexException.at(
          header.file(),
          "section '" + e.name() + "'",
          e.offset(),
          "at most " + CHUNK_BYTES + " bytes",
          e.length() + " bytes");
    }
    return chunks[0];
  }
}
