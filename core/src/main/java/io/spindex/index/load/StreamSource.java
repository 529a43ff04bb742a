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
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Sections must come in file order from a stream; {@link SectionSource#assemble} asks for them in a
 * fixed order, so the whole index is read in one forward pass, every checksum checked (an optional
 * section of an id this version does not know included), and handed out from there.
 */
final class StreamSource implements SectionSource {
  private final IndexHeader header;
  private final List<Object> loaded = new ArrayList<>();
  private final List<SectionEntry> order;

  StreamSource(IndexHeader header, DataInputStream in, long position) throws IOException {
    this.header = header;
    this.order = new ArrayList<>(header.sections());
    order.sort(Comparator.comparingLong(SectionEntry::offset));
    long pos = position;
    for (SectionEntry e : order) {
      skip(in, e.offset() - pos, header);
      pos = e.offset() + e.length();
      if (e.width() == 4) {
        int[] values = new int[Math.toIntExact(e.elements())];
        for (int i = 0; i < values.length; i++) {
          values[i] = Integer.reverseBytes(in.readInt());
        }
        SectionSource.checkCrc(header, e, Loader.crcOf(values));
        loaded.add(values);
      } else if (e.width() == 8) {
        long[] values = new long[Math.toIntExact(e.elements())];
        for (int i = 0; i < values.length; i++) {
          values[i] = Long.reverseBytes(in.readLong());
        }
        SectionSource.checkCrc(header, e, Loader.crcOf(values));
        loaded.add(values);
      } else {
        byte[] bytes = new byte[Math.toIntExact(e.length())];
        in.readFully(bytes);
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        SectionSource.checkCrc(header, e, crc);
        loaded.add(bytes);
      }
    }
  }

  private static void skip(DataInputStream in, long n, IndexHeader h) throws IOException {
    for (long left = n; left > 0; ) {
      long skipped = in.skip(left);
      if (skipped <= 0) {
        throw CorruptIndexException.at(
            h.file(), "file", h.fileLength() - left, left + " more bytes", "end of file");
      }
      left -= skipped;
    }
  }

  private Object get(SectionEntry e) {
    return loaded.get(order.indexOf(e));
  }

  @Override
  public void skip(SectionEntry e) {
    // Read and checked with the others.
  }

  @Override
  public IntColumn ints(SectionEntry e) {
    return IntColumn.of((int[]) get(e));
  }

  @Override
  public LongColumn longs(SectionEntry e) {
    return LongColumn.of((long[]) get(e));
  }

  @Override
  public ByteBuffer bytes(SectionEntry e) {
    return ByteBuffer.wrap((byte[]) get(e));
  }
}
