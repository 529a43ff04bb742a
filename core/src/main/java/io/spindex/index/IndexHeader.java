/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The validated header and section directory of an index file. Immutable and cheap to read (one
 * small read at the start of the file), so jobs can tell which data they run on without loading it.
 */
public final class IndexHeader {
  private final Path file;
  private final IndexKind kind;

  /**
   * The format version this code writes, {@code major.minor}: {@code 1.0}. It reads every file of
   * major version 1.
   */
  public static final String FORMAT_VERSION = Layout.versionText(Layout.VERSION);

  private final int version;
  private final long rowCount;
  private final long createdMillis;
  private final long fileLength;
  private final byte[] sourceDigest;
  private final List<SectionEntry> sections;
  private final int headerCrc32c;

  /** When the sources were built (ms), -1 when unknown: see {@link #sourceMillis()}. */
  private final long sourceMillis;

  IndexHeader(
      Path file,
      IndexKind kind,
      int version,
      long rowCount,
      long createdMillis,
      long fileLength,
      byte[] sourceDigest,
      List<SectionEntry> sections,
      int headerCrc32c) {
    this(
        file,
        kind,
        version,
        rowCount,
        createdMillis,
        fileLength,
        sourceDigest,
        sections,
        headerCrc32c,
        -1);
  }

  private IndexHeader(
      Path file,
      IndexKind kind,
      int version,
      long rowCount,
      long createdMillis,
      long fileLength,
      byte[] sourceDigest,
      List<SectionEntry> sections,
      int headerCrc32c,
      long sourceMillis) {
    this.file = file;
    this.kind = kind;
    this.version = version;
    this.rowCount = rowCount;
    this.createdMillis = createdMillis;
    this.fileLength = fileLength;
    this.sourceDigest = sourceDigest.clone();
    this.sections = Collections.unmodifiableList(sections);
    this.headerCrc32c = headerCrc32c;
    this.sourceMillis = sourceMillis;
  }

  /** This header, knowing when the sources were built (their {@link SourceInfo#SOURCE_TIME}). */
  IndexHeader withSourceMillis(long millis) {
    return new IndexHeader(
        file,
        kind,
        version,
        rowCount,
        createdMillis,
        fileLength,
        sourceDigest,
        sections,
        headerCrc32c,
        millis);
  }

  /**
   * Whether {@code first} starts with the index magic ({@code \x89SPX\r\n\x1a\n}): a quick test of
   * what a file claims to be, before reading it as an index.
   */
  public static boolean startsLikeIndex(byte[] first) {
    return first.length >= Layout.MAGIC.length
        && Arrays.equals(Arrays.copyOf(first, Layout.MAGIC.length), Layout.MAGIC);
  }

  /**
   * Reads and validates the header and directory from the start of a stream: for indexes that are
   * not local files yet (a Hadoop path, an HTTP body). Reads exactly the header and directory.
   *
   * @param fileLength the length of the whole file, as its source reports it
   * @param name the file's name for messages
   */
  public static IndexHeader read(InputStream in, long fileLength, Path name) throws IOException {
    Layout.requireHeader(name, fileLength);
    byte[] fixed = readFully(in, Layout.HEADER_BYTES, name, 0);
    int dirBytes = Layout.directoryBytes(name, ByteBuffer.wrap(fixed), fileLength);
    byte[] all = Arrays.copyOf(fixed, Layout.HEADER_BYTES + dirBytes);
    byte[] dir = readFully(in, dirBytes, name, Layout.HEADER_BYTES);
    System.arraycopy(dir, 0, all, Layout.HEADER_BYTES, dirBytes);
    return Layout.decode(name, ByteBuffer.wrap(all), fileLength);
  }

  private static byte[] readFully(InputStream in, int n, Path name, long offset)
      throws IOException {
    byte[] b = in.readNBytes(n);
    if (b.length < n) {
      throw CorruptIndexException.at(
          name, "file", offset + b.length, (n - b.length) + " more bytes", "end of file");
    }
    return b;
  }

  /** The file this header was read from. */
  public Path file() {
    return file;
  }

  public IndexKind kind() {
    return kind;
  }

  /** The file's format version, {@code major.minor} (1.0 for this code's files). */
  public String formatVersion() {
    return Layout.versionText(version);
  }

  /** Addresses in a set, ranges in a range index. */
  public long rowCount() {
    return rowCount;
  }

  /** When the index was written, in milliseconds since the epoch (UTC). */
  public long createdMillis() {
    return createdMillis;
  }

  /**
   * When the sources were built, in milliseconds since the epoch (UTC): section {@code
   * source_info}'s {@link SourceInfo#SOURCE_TIME}. -1 when the file does not say, and when only the
   * header was read: a header that came with its index ({@link SpindexIndex#header()}, the
   * verifier's) or from {@link io.spindex.index.load.Loader#readVersion} knows it; one read from a
   * stream ({@link #read}) or by {@code Loader.readHeader} does not.
   */
  public long sourceMillis() {
    return sourceMillis;
  }

  /**
   * What a database's age is counted from: when its sources were built ({@link #sourceMillis()}),
   * else when the index was ({@link #createdMillis()}).
   */
  public long freshAsOfMillis() {
    return sourceMillis >= 0 ? sourceMillis : createdMillis;
  }

  /** Total file length in bytes, as recorded by the writer. */
  public long fileLength() {
    return fileLength;
  }

  /** SHA-256 of the source text bytes the index was built from, in input order. */
  public byte[] sourceDigest() {
    return sourceDigest.clone();
  }

  /** The source digest as 64 lower-case hex digits. */
  public String sourceDigestHex() {
    StringBuilder sb = new StringBuilder(64);
    for (byte b : sourceDigest) {
      sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return sb.toString();
  }

  /**
   * Which version of an index this is, in one line for summaries, counters and logs: {@code
   * a38f42af (source sha256 3f2a..., built 2026-11-29T03:00:00Z, source built
   * 2026-11-28T22:00:00Z)}: the header checksum, which names the content, the SHA-256 of what it
   * was built from, when the index was built and, when known ({@link #sourceMillis()}), when its
   * sources were.
   */
  public String versionText() {
    return String.format(java.util.Locale.ROOT, "%08x", headerCrc32c)
        + " (source sha256 "
        + sourceDigestHex()
        + ", built "
        + SourceInfo.timeText(createdMillis)
        + (sourceMillis >= 0 ? ", source built " + SourceInfo.timeText(sourceMillis) : "")
        + ")";
  }

  /** IPv6 rows of a set or range index (0 for an IPv4-only file); the rest are IPv4 rows. */
  public long ipv6Rows() {
    SectionEntry e = find(kind == IndexKind.IPV4_SET ? Section.KEYS6_HI : Section.RANGE6_STARTS_HI);
    return e == null ? 0 : e.elements();
  }

  /**
   * The section directory, in its order (which is file order for files Spindex writes), optional
   * sections of ids this version does not know included ({@link SectionEntry#section} null).
   */
  @Internal
  public List<SectionEntry> sections() {
    return sections;
  }

  /**
   * CRC32C of the header and directory. The directory holds every section's CRC32C, so this value
   * identifies the whole content of the index: two files with the same value hold the same index.
   */
  public int headerCrc32c() {
    return headerCrc32c;
  }

  /** The entry for a section, or {@code null} when the file has none. */
  @Internal
  public SectionEntry find(Section section) {
    for (SectionEntry e : sections) {
      if (e.section() == section) {
        return e;
      }
    }
    return null;
  }

  /** The entry for a section this kind must have. */
  SectionEntry require(Section section) throws CorruptIndexException {
    SectionEntry e = find(section);
    if (e == null) {
      throw CorruptIndexException.at(
          file,
          "directory",
          Layout.HEADER_BYTES,
          "a '" + section.displayName() + "' section for kind " + kind,
          "none");
    }
    return e;
  }
}
