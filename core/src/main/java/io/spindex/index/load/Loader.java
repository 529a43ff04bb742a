/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import io.spindex.annotations.Internal;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.Layout;
import io.spindex.index.Section;
import io.spindex.index.SectionEntry;
import io.spindex.index.SectionSource;
import io.spindex.index.SpindexIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The binary loader strategies users choose: {@link #IO} and {@link #NIO} read the file into heap
 * arrays, {@link #MAPPED} reads it in place. Each validates the header and every section's CRC32C
 * at open ({@link #MAPPED} can skip the section checksums, see {@link #mappedUnchecked()}).
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
      try (FileChannel ch = open(file)) {
        IndexHeader h = readHeader(ch, file);
        return SectionSource.assemble(h, loaderName(), new NioSource(h, ch));
      }
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
      return mapSnapshot(file, this, true);
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
   * spindex verify} or a staging step has already checked. The header is still checked, and so are
   * the {@code prefix6} tables that every IPv6 lookup walks (as many reads as the walk's layout).
   */
  public static IndexLoader mappedUnchecked() {
    return new IndexLoader() {
      @Override
      public String loaderName() {
        return "mapped";
      }

      @Override
      public SpindexIndex load(Path file) throws IOException {
        return mapSnapshot(file, MAPPED, false);
      }

      @Override
      public boolean checksSections() {
        return false;
      }
    };
  }

  /**
   * The loader a job option names: {@code io}, {@code nio}, {@code mapped} or {@code
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
      java.util.List.of("io", "nio", "mapped", MAPPED_UNCHECKED);

  /** The loader called {@code name} ({@code io}, {@code nio}, {@code mapped}). */
  public static Loader byName(String name) {
    for (Loader l : values()) {
      if (l.loaderName().equals(name)) {
        return l;
      }
    }
    throw new IllegalArgumentException(
        "unknown loader '" + name + "': expected one of io, nio, mapped");
  }

  /**
   * Opens an index file for reading; a directory is one line naming it (the channel's own error
   * says only "Is a directory").
   */
  static FileChannel open(Path file) throws IOException {
    requireFile(file);
    return FileChannel.open(file, StandardOpenOption.READ);
  }

  /** Fails naming {@code file} when it is a directory. */
  static void requireFile(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      throw new java.nio.file.FileSystemException(
          file.toString(), null, "a directory, not an index file");
    }
  }

  /** Reads and validates the header and directory of an open index file. */
  public static IndexHeader readHeader(Path file) throws IOException {
    try (FileChannel ch = open(file)) {
      return readHeader(ch, file);
    }
  }

  /**
   * {@link #readHeader(Path)}, and when the sources were built ({@link IndexHeader#sourceMillis}):
   * the header, the directory and section {@code source_info} (its checksum checked), a few hundred
   * bytes; what a driver that does not load the index reads to say which version and how fresh.
   */
  public static IndexHeader readVersion(Path file) throws IOException {
    try (FileChannel ch = open(file)) {
      IndexHeader h = readHeader(ch, file);
      SectionEntry e = h.find(Section.SOURCE_INFO);
      if (e == null) {
        return h;
      }
      ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(e.length()));
      readFully(ch, b, e.offset(), file);
      return SectionSource.withSourceInfo(h, e, b.array());
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

  static void readFully(FileChannel ch, ByteBuffer dst, long position, Path file)
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

  /**
   * The zero-copy views map a private snapshot of the file ({@link Snapshots}), never the file
   * itself, so that nothing done to the file can change or drop the pages a reader maps. Messages
   * name the file, and the snapshot must hold the version whose header the file had.
   */
  private static SpindexIndex mapSnapshot(Path file, Loader loader, boolean checksums)
      throws IOException {
    if (Snapshots.isPrivateCopy(file)) {
      try (FileChannel ch = open(file)) {
        IndexHeader h = readHeader(ch, file);
        return SectionSource.assemble(h, loader.loaderName(), new MapSource(h, ch, checksums));
      }
    }
    Snapshots.Stat opened = Snapshots.Stat.of(file);
    Path snapshot;
    IndexHeader expected;
    try (FileChannel source = open(file)) {
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
      return SectionSource.assemble(h, loader.loaderName(), new MapSource(h, ch, checksums));
    } catch (CorruptIndexException e) {
      // A snapshot that fails its checks is never reused: the next load copies the file again.
      Files.deleteIfExists(snapshot);
      throw e;
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
