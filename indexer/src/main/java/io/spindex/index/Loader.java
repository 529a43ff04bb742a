/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The binary loader strategies. Each validates the header and every section's CRC32C at open
 * ({@link #MAPPED} can skip the section checksums, see {@link #mappedUnchecked()}).
 */
@Internal
public enum Loader implements IndexLoader {
  /** java.io: {@code DataInputStream.readInt} over a {@code BufferedInputStream}, into int[]. */
  IO {
    @Override
    public SpindexIndex load(Path file) throws IOException {
      return IoLoader.load(file);
    }
  },
  /**
   * java.nio: {@code FileChannel} reads into one reused direct buffer, bulk-copied into int[] (and
   * long[]).
   */
  NIO {
    @Override
    public SpindexIndex load(Path file) throws IOException {
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
        IndexHeader h = readHeader(ch, file);
        return SectionSource.assemble(h, loaderName(), new NioSource(h, ch));
      }
    }
  },
  /** Maps each section and bulk-copies it into int[] (heap arrays, like io and nio). */
  MMAP {
    @Override
    public SpindexIndex load(Path file) throws IOException {
      return mapAndAssemble(file, this, true, true);
    }
  },
  /**
   * Zero-copy: read-only views over a mapping of a private snapshot of the file ({@link
   * Snapshots}): nothing done to the file afterwards (written over in place, truncated, deleted)
   * reaches the views. Nothing is copied to the heap; the page cache is shared by every JVM on the
   * host that maps the same version of the file, and only the host's first load of a version pays
   * for copying it.
   */
  MAPPED {
    @Override
    public SpindexIndex load(Path file) throws IOException {
      return mapAndAssemble(file, this, false, true);
    }
  };

  /** Size of the reused direct buffer of {@link #NIO}. */
  static final int NIO_BUFFER_BYTES = 1 << 20;

  @Override
  public String loaderName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * {@link #MAPPED} without section checksums: ready in microseconds whatever the size once the
   * host holds a snapshot of the version (the first load copies the file), for files that {@code
   * spindex verify} or a staging step has already checked. The header is still checked.
   */
  public static IndexLoader mappedUnchecked() {
    return new IndexLoader() {
      @Override
      public String loaderName() {
        return "mapped";
      }

      @Override
      public SpindexIndex load(Path file) throws IOException {
        return mapAndAssemble(file, MAPPED, false, false);
      }

      @Override
      public boolean checksSections() {
        return false;
      }
    };
  }

  /**
   * The loader a job option names: {@code io}, {@code nio}, {@code mmap}, {@code mapped} or {@code
   * mapped-unchecked} ({@link #mappedUnchecked()}). Shared by the Spark and MapReduce jobs.
   */
  public static IndexLoader forOption(String name) {
    if (name.equals(MAPPED_UNCHECKED)) {
      return mappedUnchecked();
    }
    for (Loader l : values()) {
      if (l.loaderName().equals(name)) {
        return l;
      }
    }
    throw new IllegalArgumentException(
        "unknown loader '" + name + "': expected one of " + String.join(", ", OPTION_NAMES));
  }

  /** The name of {@link #mappedUnchecked()} in options. */
  public static final String MAPPED_UNCHECKED = "mapped-unchecked";

  /** Every name {@link #forOption} takes, in the order usage text lists them. */
  public static final java.util.List<String> OPTION_NAMES =
      java.util.List.of("io", "nio", "mmap", "mapped", MAPPED_UNCHECKED);

  /** The loader called {@code name} ({@code io}, {@code nio}, {@code mmap}, {@code mapped}). */
  public static Loader byName(String name) {
    for (Loader l : values()) {
      if (l.loaderName().equals(name)) {
        return l;
      }
    }
    throw new IllegalArgumentException(
        "unknown loader '" + name + "': expected one of io, nio, mmap, mapped");
  }

  /** Reads and validates the header and directory of an open index file. */
  public static IndexHeader readHeader(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      return readHeader(ch, file);
    }
  }

  static IndexHeader readHeader(FileChannel ch, Path file) throws IOException {
    long size = ch.size();
    Layout.requireHeader(file, size);
    ByteBuffer fixed = ByteBuffer.allocate(Layout.HEADER_BYTES);
    readFully(ch, fixed, 0, file);
    int dirBytes = Layout.directoryBytes(file, fixed.flip(), size);
    ByteBuffer all = ByteBuffer.allocate(Layout.HEADER_BYTES + dirBytes);
    all.put(fixed.rewind());
    readFully(ch, all, Layout.HEADER_BYTES, file);
    return Layout.decode(file, all.flip(), size);
  }

  private static void readFully(FileChannel ch, ByteBuffer dst, long position, Path file)
      throws IOException {
    long pos = position;
    while (dst.hasRemaining()) {
      int n = ch.read(dst, pos);
      if (n < 0) {
        throw CorruptIndexException.at(
            file, "file", pos, dst.remaining() + " more bytes", "end of file");
      }
      pos += n;
    }
  }

  /**
   * Tells the zero-copy loaders ({@link #MAPPED}, {@link #mappedUnchecked()}) that {@code file} is
   * a copy an engine made for this application (Spark's {@code SparkFiles}, a staged copy, a
   * MapReduce cache file), which nothing writes in place: they map it as it is, without the private
   * snapshot a user's own file gets, so that a job's executors are ready as soon as before.
   */
  public static void privateCopy(Path file) {
    Snapshots.privateCopy(file);
  }

  private static SpindexIndex mapAndAssemble(
      Path file, Loader loader, boolean copy, boolean checksums) throws IOException {
    if (!copy) {
      return mapSnapshot(file, loader, checksums);
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      IndexHeader h = readHeader(ch, file);
      return SectionSource.assemble(h, loader.loaderName(), new MapSource(h, ch, copy, checksums));
    }
  }

  /**
   * The zero-copy views map a private snapshot of the file ({@link Snapshots}), never the file
   * itself, so that nothing done to the file can change or drop the pages a reader maps. Messages
   * name the file, and the snapshot must hold the version whose header the file had.
   */
  private static SpindexIndex mapSnapshot(Path file, Loader loader, boolean checksums)
      throws IOException {
    if (Snapshots.isPrivateCopy(file)) {
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
        IndexHeader h = readHeader(ch, file);
        return SectionSource.assemble(
            h, loader.loaderName(), new MapSource(h, ch, false, checksums));
      }
    }
    Snapshots.Stat opened = Snapshots.Stat.of(file);
    Path snapshot;
    IndexHeader expected;
    try (FileChannel source = FileChannel.open(file, StandardOpenOption.READ)) {
      expected = readHeader(source, file);
      snapshot = Snapshots.of(file, source, expected, opened);
    }
    try (FileChannel ch = FileChannel.open(snapshot, StandardOpenOption.READ)) {
      IndexHeader h = readHeader(ch, file);
      if (h.headerCrc32c() != expected.headerCrc32c()) {
        throw Snapshots.changedWhileInUse(
            file,
            "header checksum "
                + Layout.crcHex(expected.headerCrc32c())
                + " when opened, "
                + Layout.crcHex(h.headerCrc32c())
                + " in its copy");
      }
      return SectionSource.assemble(h, loader.loaderName(), new MapSource(h, ch, false, checksums));
    }
  }

  /** Reads sections in place with positional reads through one direct buffer. */
  static final class NioSource implements SectionSource {
    private final IndexHeader header;
    private final FileChannel channel;
    private final ByteBuffer buffer =
        ByteBuffer.allocateDirect(NIO_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);

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

    /** Reads the section through the buffer and checks its CRC32C; keeps nothing. */
    void checkCrc(SectionEntry e) throws IOException {
      read(e, (b, filled) -> {});
    }

    /** Receives each filled buffer and the number of elements before it. */
    private interface Chunk {
      void copy(ByteBuffer filled, int elementsBefore);
    }

    private void read(SectionEntry e, Chunk chunk) throws IOException {
      CRC32C crc = new CRC32C();
      long pos = e.offset();
      long end = e.offset() + e.length();
      int width = e.section().width();
      int filled = 0;
      while (pos < end) {
        buffer.clear();
        // The buffer holds whole elements: its capacity is a multiple of every width.
        buffer.limit((int) Math.min(buffer.capacity(), end - pos));
        readFully(channel, buffer, pos, header.file());
        buffer.flip();
        pos += buffer.remaining();
        crc.update(buffer.duplicate());
        chunk.copy(buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN), filled);
        filled += buffer.remaining() / width;
      }
      SectionSource.checkCrc(header, e, crc);
    }

    @Override
    public ByteBuffer bytes(SectionEntry e) throws IOException {
      ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(e.length()));
      readFully(channel, out, e.offset(), header.file());
      CRC32C crc = new CRC32C();
      crc.update(out.flip().duplicate());
      SectionSource.checkCrc(header, e, crc);
      return out;
    }
  }

  /**
   * Maps sections (in chunks of at most 1 GiB); copies them to the heap or keeps the views. A file
   * that fits one mapping is mapped once and its sections are slices of it: a mapping is released
   * only when the garbage collector finds it unreachable, and a process may hold only so many
   * ({@code vm.max_map_count}), so a load should not cost one per section.
   */
  private static final class MapSource implements SectionSource {
    private static final long CHUNK_BYTES = 4L * IntColumn.CHUNK_INTS;
    private final IndexHeader header;
    private final FileChannel channel;
    private final boolean copy;
    private final boolean checksums;
    private ByteBuffer whole;

    @Override
    public boolean checksRows() {
      return checksums;
    }

    MapSource(IndexHeader header, FileChannel channel, boolean copy, boolean checksums) {
      this.header = header;
      this.channel = channel;
      this.copy = copy;
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
      ByteBuffer[] chunks = map(e);
      if (!copy) {
        return IntColumn.view(chunks);
      }
      int[] out = new int[Math.toIntExact(e.elements())];
      int filled = 0;
      for (ByteBuffer c : chunks) {
        int n = c.remaining() >>> 2;
        c.order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out, filled, n);
        filled += n;
      }
      return IntColumn.of(out);
    }

    @Override
    public LongColumn longs(SectionEntry e) throws IOException {
      ByteBuffer[] chunks = map(e);
      if (!copy) {
        return LongColumn.view(chunks);
      }
      long[] out = new long[Math.toIntExact(e.elements())];
      int filled = 0;
      for (ByteBuffer c : chunks) {
        int n = c.remaining() >>> 3;
        c.order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out, filled, n);
        filled += n;
      }
      return LongColumn.of(out);
    }

    @Override
    public ByteBuffer bytes(SectionEntry e) throws IOException {
      ByteBuffer[] chunks = map(e);
      if (chunks.length != 1) {
        throw CorruptIndexException.at(
            header.file(),
            "section '" + e.section().displayName() + "'",
            e.offset(),
            "at most " + CHUNK_BYTES + " bytes",
            e.length() + " bytes");
      }
      if (!copy) {
        return chunks[0];
      }
      ByteBuffer out = ByteBuffer.allocate(chunks[0].remaining());
      out.put(chunks[0]);
      return out.flip();
    }
  }

  /**
   * The java.io strategy: the original article's {@code DataInputStream} loop, section by section.
   */
  private static final class IoLoader {
    static SpindexIndex load(Path file) throws IOException {
      long size = Files.size(file);
      Layout.requireHeader(file, size);
      try (InputStream raw = new FileInputStream(file.toFile());
          DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
        byte[] fixed = new byte[Layout.HEADER_BYTES];
        readFully(in, fixed, file, 0);
        int dirBytes = Layout.directoryBytes(file, ByteBuffer.wrap(fixed), size);
        byte[] all = new byte[Layout.HEADER_BYTES + dirBytes];
        System.arraycopy(fixed, 0, all, 0, fixed.length);
        readFully(in, all, file, Layout.HEADER_BYTES);
        IndexHeader h = Layout.decode(file, ByteBuffer.wrap(all), size);
        return SectionSource.assemble(h, "io", new StreamSource(h, in, all.length));
      }
    }

    private static void readFully(DataInputStream in, byte[] b, Path file, int from)
        throws IOException {
      try {
        in.readFully(b, from, b.length - from);
      } catch (java.io.EOFException eof) {
        throw CorruptIndexException.at(
            file, "header", from, (b.length - from) + " bytes", "end of file");
      }
    }
  }

  /**
   * Sections must come in file order from a stream; {@link SectionSource#assemble} asks for them in
   * a fixed order, so the whole index is read in one forward pass and handed out from there.
   */
  private static final class StreamSource implements SectionSource {
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
        if (e.section().width() == 4) {
          int[] values = new int[Math.toIntExact(e.elements())];
          for (int i = 0; i < values.length; i++) {
            values[i] = Integer.reverseBytes(in.readInt());
          }
          SectionSource.checkCrc(header, e, crcOf(values));
          loaded.add(values);
        } else if (e.section().width() == 8) {
          long[] values = new long[Math.toIntExact(e.elements())];
          for (int i = 0; i < values.length; i++) {
            values[i] = Long.reverseBytes(in.readLong());
          }
          SectionSource.checkCrc(header, e, crcOf(values));
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

  /** CRC32C of ints as they are stored (little-endian), for loaders that did not keep the bytes. */
  static CRC32C crcOf(int[] values) {
    CRC32C crc = new CRC32C();
    ByteBuffer chunk = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < values.length; ) {
      int n = Math.min(values.length - i, chunk.capacity() >>> 2);
      chunk.clear();
      chunk.asIntBuffer().put(values, i, n);
      chunk.limit(n << 2);
      crc.update(chunk);
      i += n;
    }
    return crc;
  }

  /** CRC32C of longs as they are stored (little-endian). */
  static CRC32C crcOf(long[] values) {
    CRC32C crc = new CRC32C();
    ByteBuffer chunk = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < values.length; ) {
      int n = Math.min(values.length - i, chunk.capacity() >>> 3);
      chunk.clear();
      chunk.asLongBuffer().put(values, i, n);
      chunk.limit(n << 3);
      crc.update(chunk);
      i += n;
    }
    return crc;
  }
}
