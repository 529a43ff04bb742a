/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import io.spindex.index.search.IntColumn;
import io.spindex.index.search.Keys128;
import io.spindex.index.search.LongColumn;
import io.spindex.index.search.Prefix6;
import io.spindex.index.search.SubTables;
import io.spindex.index.search.Tiled6;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Writes an index file atomically: sections go to a temporary file beside the target in ascending
 * id order (whatever order they were added in), the header (with every checksum) last, the file is
 * forced to disk and then renamed over the target. A crash at any point leaves the target as it
 * was; a leftover temporary file has a name that starts with a dot and ends in {@code .tmp}, and
 * nothing reads it.
 *
 * <p>Not thread-safe; the arrays handed in are read at {@link #writeTo} and must not change before.
 */
@Internal
public final class IndexWriter {
  private static final int BUFFER_BYTES = 1 << 20;

  private final IndexKind kind;
  private final long rowCount;
  private final byte[] sourceDigest;
  private final List<Pending> pending = new ArrayList<>();
  private long createdMillis = System.currentTimeMillis();
  private SourceInfo sourceInfo = SourceInfo.NONE;
  private long sourceMillis = -1;

  /**
   * The values of an int section made a run at a time, in order, for a section too large to hold in
   * one array next to everything else (an index generated rather than parsed).
   */
  @FunctionalInterface
  public interface IntRuns {
    /** Puts the values {@code first .. first + n - 1} into {@code into[0 .. n)}. */
    void fill(long first, int[] into, int n);
  }

  private static final class Pending {
    final Section section;
    final int[] ints;
    final long[] longs;
    final byte[] bytes;
    final IntRuns runs;
    final int count;

    Pending(Section section, int[] ints, long[] longs, byte[] bytes, int count) {
      this(section, ints, longs, bytes, null, count);
    }

    Pending(Section section, int[] ints, long[] longs, byte[] bytes, IntRuns runs, int count) {
      this.section = section;
      this.ints = ints;
      this.longs = longs;
      this.bytes = bytes;
      this.runs = runs;
      this.count = count;
    }

    long length() {
      return (long) count * section.width();
    }
  }

  /**
   * @param sourceDigest SHA-256 of the source bytes (32 bytes)
   */
  public IndexWriter(IndexKind kind, long rowCount, byte[] sourceDigest) {
    if (sourceDigest.length != Layout.DIGEST_BYTES) {
      throw new IllegalArgumentException("source digest must be 32 bytes (SHA-256)");
    }
    this.kind = kind;
    this.rowCount = rowCount;
    this.sourceDigest = sourceDigest.clone();
  }

  /**
   * The {@link Section#PREFIX16_V6} table for IPv6 keys given flipped (as stored): entry p is the
   * first row whose top 16 bits are {@code >= p}.
   */
  public static int[] prefixTable128(long[] flippedHi, int n) {
    return Keys128.prefixTable(flippedHi, n);
  }

  /**
   * The {@link Section#PREFIX6} tables for IPv6 keys given flipped (as stored) with their {@link
   * Section#PREFIX16_V6} table, or {@code null} when no /16 block is dense enough to need one.
   *
   * @param rowBytes the bytes a row takes in the file (16 for a set's keys, 36 for a range), of
   *     which the tables may add at most {@code budget} times
   */
  public static int[] tables128(
      long[] flippedHi, int n, int[] prefix, int rowBytes, double budget) {
    return Prefix6.build(flippedHi, n, prefix, rowBytes, budget);
  }

  /**
   * The {@link Section#PREFIX6} tables for IPv6 range rows ({@link Section#RANGE6_ROWS}): wider
   * buckets than {@link #tables128} makes for a set's keys, since 8 rows fill a cache line; {@code
   * null} when no /16 block needs one or they would take more than {@code budget} times the {@code
   * rowBytes} of each of the {@code n} rows.
   */
  public static int[] tablesForRows6(
      long[] flippedHi, int n, int[] prefix, int rowBytes, double budget) {
    return Tiled6.fileTables(flippedHi, prefix, (long) (budget * rowBytes * n / 4));
  }

  /**
   * The {@link Section#RANGE6_ROWS} section of IPv6 range rows: their starts (flipped, in order,
   * the low halves {@code null} when all 0), label ids (-1 for a gap) and the /16 prefix table and
   * tables (from {@link #tablesForRows6}, may be {@code null}) the file holds.
   */
  public static long[] rows6(
      long[] flippedHi, long[] flippedLo, int[] labels, int n, int[] prefix, int[] tables) {
    Keys128 starts =
        new Keys128(
            LongColumn.of(flippedHi, n),
            flippedLo == null
                ? LongColumn.constant(Long.MIN_VALUE, n, true)
                : LongColumn.of(flippedLo, n),
            IntColumn.of(prefix),
            tables == null ? null : new Prefix6(IntColumn.of(tables)));
    long[] packed = Tiled6.pack(starts, IntColumn.of(labels, n), starts);
    if (packed == null) {
      throw new IllegalStateException("tables that do not partition the rows");
    }
    return packed;
  }

  /** Builds with IPv6 keys: the {@code prefix6} tables at most this share of the rows' bytes. */
  public static final double IPV6_TABLE_BUDGET = Prefix6.BUDGET;

  /**
   * Bytes a value id of a field with {@code values} distinct values takes in section {@code
   * label_value_ids}: the fewest of 1 to 4 that count to it.
   */
  public static int valueIdBytes(long values) {
    return LabelDictionary.idBytes(values);
  }

  /** Range index builds: blocks with more rows than this may get a /24 sub-table. */
  public static final int DENSE_ROWS = SubTables.DENSE_ROWS;

  /** Range index builds: the sub-tables' bytes at most this share of the ranges' own bytes. */
  public static final double SUB_TABLE_BUDGET = SubTables.BUDGET;

  /**
   * The {@link Section#PREFIX24} section for IPv4 rows whose starts (flipped, as stored) and /16
   * {@code prefix} table are given, or {@code null} when no block needs a sub-table: blocks of more
   * than {@code minRows} rows, densest first, within {@code budget} times 12 bytes for each of the
   * {@code ranges} the rows hold.
   */
  public static int[] subTables(
      int[] flippedStarts, int ranges, int[] prefix, int minRows, double budget) {
    return SubTables.build(flippedStarts, ranges, prefix, minRows, budget);
  }

  /** Overrides the creation time (e.g. from SOURCE_DATE_EPOCH, for reproducible files). */
  public IndexWriter createdMillis(long millis) {
    this.createdMillis = millis;
    return this;
  }

  /**
   * What the sources said of themselves (section {@code source_info}), written with the {@link
   * SourceInfo#SOURCE_TIME} line of {@link #sourceMillis(long)} first.
   */
  public IndexWriter sourceInfo(SourceInfo info) {
    this.sourceInfo = info;
    return this;
  }

  /**
   * When the sources were built, in milliseconds since the epoch: written as section {@code
   * source_info}'s {@link SourceInfo#SOURCE_TIME}, to the second, and never later than the created
   * time (a source cannot be newer than its index; with a fixed created time the bytes stay
   * reproducible).
   */
  public IndexWriter sourceMillis(long millis) {
    this.sourceMillis = millis;
    return this;
  }

  /** Whether {@link #sourceMillis(long)} was given. */
  public boolean hasSourceMillis() {
    return sourceMillis >= 0;
  }

  /**
   * {@link #sourceMillis(long)} when none was given yet and {@code millis} is a time (not -1): a
   * better-informed source time (a database's own build time, a server's {@code Last-Modified}) set
   * before stays.
   */
  public IndexWriter sourceMillisUnlessKnown(long millis) {
    if (!hasSourceMillis() && millis >= 0) {
      this.sourceMillis = millis;
    }
    return this;
  }

  /**
   * Adds the {@code source_info} section of {@link #sourceInfo} and {@link #sourceMillis}; returns
   * the source time as written (-1: none).
   */
  private long addSourceInfo() {
    pending.removeIf(p -> p.section == Section.SOURCE_INFO);
    SourceInfo info =
        hasSourceMillis()
            ? sourceInfo.withSourceTime(Math.min(sourceMillis, createdMillis))
            : sourceInfo;
    if (!info.isEmpty()) {
      byte[] b = info.bytes();
      pending.add(new Pending(Section.SOURCE_INFO, null, null, b, b.length));
    }
    return info.sourceTimeMillis();
  }

  /** Adds an int32 section: the first {@code count} values, written little-endian. */
  public IndexWriter ints(Section section, int[] values, int count) {
    require(section, 4, count <= values.length);
    pending.add(new Pending(section, values, null, null, count));
    return this;
  }

  /** An int section of {@code count} values made by {@code runs} while the file is written. */
  public IndexWriter ints(Section section, IntRuns runs, int count) {
    require(section, 4, count >= 0);
    pending.add(new Pending(section, null, null, null, runs, count));
    return this;
  }

  /** Adds an int64 section: the first {@code count} values, written little-endian. */
  public IndexWriter longs(Section section, long[] values, int count) {
    require(section, 8, count <= values.length);
    pending.add(new Pending(section, null, values, null, count));
    return this;
  }

  /** Adds a byte section: the first {@code count} bytes. */
  public IndexWriter bytes(Section section, byte[] values, int count) {
    require(section, 1, count <= values.length);
    pending.add(new Pending(section, null, null, values, count));
    return this;
  }

  private void require(Section section, int width, boolean countFits) {
    if (section == Section.SOURCE_INFO) {
      throw new IllegalArgumentException("source_info is written from sourceInfo(SourceInfo)");
    }
    if (section.width() != width || !countFits) {
      throw new IllegalArgumentException("bad section data for " + section.displayName());
    }
    for (Pending p : pending) {
      if (p.section == section) {
        throw new IllegalArgumentException("section added twice: " + section.displayName());
      }
    }
  }

  /**
   * The index these sections make, without writing a file: what the {@code text} loader returns.
   * The header is the one {@link #writeTo} would write (same checksums), naming {@code source}.
   */
  public SpindexIndex toIndex(Path source, String loaderName) throws IOException {
    addSourceInfo();
    sortById();
    List<SectionEntry> entries = new ArrayList<>(pending.size());
    long offset = Layout.firstSectionOffset(pending.size());
    ByteBuffer buf = ByteBuffer.allocate(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (Pending p : pending) {
      entries.add(new SectionEntry(p.section, offset, p.length(), encode(buf, p, null, 0)));
      offset = Layout.align(offset + p.length());
    }
    ByteBuffer header = Layout.encode(kind, rowCount, createdMillis, offset, sourceDigest, entries);
    IndexHeader h = Layout.decode(source, header, offset);
    return SectionSource.assemble(
        h,
        loaderName,
        new SectionSource() {
          @Override
          public IntColumn ints(SectionEntry e) {
            Pending p = pendingFor(e.section());
            if (p.runs != null) {
              int[] all = new int[p.count];
              p.runs.fill(0, all, p.count);
              return IntColumn.of(all, p.count);
            }
            return IntColumn.of(p.ints, p.count);
          }

          @Override
          public LongColumn longs(SectionEntry e) {
            Pending p = pendingFor(e.section());
            return LongColumn.of(p.longs, p.count);
          }

          @Override
          public ByteBuffer bytes(SectionEntry e) {
            Pending p = pendingFor(e.section());
            return ByteBuffer.wrap(p.bytes, 0, p.count).slice();
          }

          @Override
          public void skip(SectionEntry e) {
            // A writer writes only sections it knows.
          }
        });
  }

  /** The sections in ascending id order: the order a 1.0 writer writes them in. */
  private void sortById() {
    pending.sort(java.util.Comparator.comparingInt(p -> p.section.id()));
  }

  private Pending pendingFor(Section s) {
    for (Pending p : pending) {
      if (p.section == s) {
        return p;
      }
    }
    throw new IllegalStateException("no section " + s);
  }

  /**
   * Writes the file and renames it into place; returns the header as a reader that read its index
   * will see it (its source time included).
   */
  public IndexHeader writeTo(Path target) throws IOException {
    long written = addSourceInfo();
    sortById();
    Path abs = target.toAbsolutePath();
    Path tmp = AtomicFiles.createTemp(abs);
    boolean done = false;
    try {
      ByteBuffer header;
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        List<SectionEntry> entries = new ArrayList<>(pending.size());
        long offset = Layout.firstSectionOffset(pending.size());
        ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (Pending p : pending) {
          int crc = writeSection(ch, buf, p, offset);
          entries.add(new SectionEntry(p.section, offset, p.length(), crc));
          offset = Layout.align(offset + p.length());
        }
        // Padding is written, not left as a hole, so the file length is exactly what we record.
        long end = ch.size();
        if (end < offset) {
          ch.write(ByteBuffer.allocate((int) (offset - end)), end);
        }
        long fileLength = offset;
        header = Layout.encode(kind, rowCount, createdMillis, fileLength, sourceDigest, entries);
        while (header.hasRemaining()) {
          ch.write(header, header.position());
        }
        ch.force(true);
      }
      AtomicFiles.commit(tmp, abs);
      done = true;
      return Layout.decode(abs, header.rewind(), Files.size(abs)).withSourceMillis(written);
    } catch (IOException e) {
      if (e instanceof java.nio.file.FileSystemException || e instanceof CorruptIndexException) {
        throw e; // names its file already
      }
      // "No space left on device" and the like, said of the file being written.
      throw new IOException(abs + ": " + e.getMessage(), e);
    } finally {
      if (!done) {
        Files.deleteIfExists(tmp);
      }
    }
  }

  private static int writeSection(FileChannel ch, ByteBuffer buf, Pending p, long offset)
      throws IOException {
    return encode(buf, p, ch, offset);
  }

  /** Encodes a section chunk by chunk through {@code buf}, writing it when {@code ch} is given. */
  private static int encode(ByteBuffer buf, Pending p, FileChannel ch, long offset)
      throws IOException {
    CRC32C crc = new CRC32C();
    long pos = offset;
    int perChunk = buf.capacity() / p.section.width();
    int[] run = p.runs == null ? null : new int[perChunk];
    for (long at = 0; at < p.count; at += perChunk) { // long: count may be near Integer.MAX_VALUE
      int i = (int) at;
      int n = (int) Math.min(perChunk, p.count - at);
      buf.clear();
      if (run != null) {
        p.runs.fill(i, run, n);
        buf.asIntBuffer().put(run, 0, n);
        buf.limit(n * 4);
      } else if (p.ints != null) {
        buf.asIntBuffer().put(p.ints, i, n);
        buf.limit(n * 4);
      } else if (p.longs != null) {
        buf.asLongBuffer().put(p.longs, i, n);
        buf.limit(n * 8);
      } else {
        buf.put(p.bytes, i, n).flip();
      }
      crc.update(buf.duplicate());
      while (ch != null && buf.hasRemaining()) {
        pos += ch.write(buf, pos);
      }
    }
    return (int) crc.getValue();
  }
}
