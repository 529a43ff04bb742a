/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import io.spindex.annotations.Internal;
import io.spindex.index.AtomicFiles;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Locale;

/**
 * Copies a file (typically an index) to a local path, checks the copy, and renames it into place:
 * the "ship the index to every executor's disk" step, shared by {@code spindex stage} and the Spark
 * and MapReduce jobs.
 *
 * <p><b>Idempotent.</b> When the destination already holds the same content, nothing is copied: an
 * index is the same when its length and header checksum (which covers every section checksum) equal
 * the source's; another file when its length and modification time do (the copy is given the
 * source's time). Call it as often as you like; only the first call per host copies.
 *
 * <p><b>Safe when several threads or JVMs on a host stage the same destination at once.</b> The
 * destination only ever appears by an atomic rename of a checked temporary file beside it, so a
 * reader never sees a partial file. Copiers take a per-path lock in the JVM and an OS file lock on
 * {@code .NAME.lock} beside the destination; whoever gets it second re-checks, finds the file
 * current, and returns without copying ({@link StageResult#copied()} false). A process that dies
 * mid-copy leaves only a {@code .NAME.*.tmp} file and releases its lock.
 *
 * <p><b>Checked before it is visible.</b> See {@link StageOptions.Check}: by default every section
 * checksum of an index copy is verified, so a corrupt source or a bad transfer never replaces a
 * good file; the message names the source, section and offset.
 *
 * <p>Staging does not {@code fsync}: a staged file is a cache of the source. Stateless and
 * thread-safe.
 */
@Internal
public final class Stager {
  private Stager() {}

  /** {@link #stage(StageSource, Path, StageOptions)} with the defaults. */
  public static StageResult stage(StageSource source, Path destination) throws IOException {
    return stage(source, destination, StageOptions.defaults());
  }

  /**
   * Makes {@code destination} hold the content of {@code source}, copying only if it does not
   * already.
   *
   * @throws StageException when the copy fails its check, the source changed meanwhile, or the
   *     destination's file system lacks room; nothing is written under the destination's name
   * @throws IOException from the source or the local file system, or when the lock wait times out
   */
  public static StageResult stage(StageSource source, Path destination, StageOptions options)
      throws IOException {
    long t0 = System.nanoTime();
    Path out = destination.toAbsolutePath().normalize();
    if (Files.isDirectory(out)) {
      throw new StageException(out + ": is a directory");
    }
    Files.createDirectories(out.getParent());
    long length = source.length();
    IndexPeek peek = IndexPeek.of(source);
    if (options.check == StageOptions.Check.DEEP && !peek.isIndex()) {
      throw new StageException(source.name() + ": not a Spindex index (a deep check needs one)");
    }
    String current = options.force ? null : current(source, out, length, peek);
    if (current == null) {
      HostLock lock = HostLock.acquire(out, options.lockTimeout);
      try {
        // Whoever held the lock before us may have staged it meanwhile.
        current = options.force ? null : current(source, out, length, peek);
        if (current == null) {
          return copy(source, out, length, peek, options, t0);
        }
      } finally {
        lock.close();
      }
    }
    return new StageResult(
        source.name(),
        out,
        length,
        false,
        peek.isIndex(),
        peek.isIndex() ? peek.headerCrc32c() : 0,
        current,
        System.nanoTime() - t0,
        0);
  }

  /** Why {@code out} already holds the source's content, or null when it does not. */
  private static String current(StageSource source, Path out, long length, IndexPeek peek)
      throws IOException {
    if (!Files.isRegularFile(out) || Files.size(out) != length) {
      return null;
    }
    if (peek.isIndex()) {
      try {
        return Loader.readHeader(out).headerCrc32c() == peek.headerCrc32c()
            ? "already current (same length and header CRC32C)"
            : null;
      } catch (CorruptIndexException e) {
        return null;
      }
    }
    long m = source.lastModifiedMillis();
    return m >= 0 && Files.getLastModifiedTime(out).toMillis() == m
        ? "already current (same length and modification time)"
        : null;
  }

  private static StageResult copy(
      StageSource source, Path out, long length, IndexPeek peek, StageOptions options, long t0)
      throws IOException {
    long free = Files.getFileStore(out.getParent()).getUsableSpace();
    if (free < length) {
      throw new StageException(
          String.format(
              Locale.ROOT,
              "%s: %,d bytes to stage but only %,d free in %s",
              source.name(),
              length,
              free,
              out.getParent()));
    }
    Path tmp = AtomicFiles.createTemp(out);
    try {
      long c0 = System.nanoTime();
      long n = source.copyTo(tmp, options.progress);
      long copyNanos = System.nanoTime() - c0;
      long size = Files.size(tmp);
      if (n != length || size != length) {
        throw new StageException(
            String.format(
                Locale.ROOT,
                "%s: copied %,d bytes but its length is %,d (changed during the copy?);"
                    + " %s not written",
                source.name(),
                size,
                length,
                out));
      }
      String checked = check(source, out, tmp, peek, options.check);
      long modified = source.lastModifiedMillis();
      if (modified >= 0) {
        Files.setLastModifiedTime(tmp, FileTime.fromMillis(modified));
      }
      AtomicFiles.commit(tmp, out);
      return new StageResult(
          source.name(),
          out,
          length,
          true,
          peek.isIndex(),
          peek.isIndex() ? peek.headerCrc32c() : 0,
          checked,
          System.nanoTime() - t0,
          copyNanos);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Checks the copy; returns what was checked. */
  private static String check(
      StageSource source, Path out, Path tmp, IndexPeek peek, StageOptions.Check check)
      throws IOException {
    if (!peek.isIndex() || check == StageOptions.Check.SIZE) {
      return "length";
    }
    IndexHeader h;
    String what;
    try {
      if (check == StageOptions.Check.DEEP) {
        h = IndexVerifier.verify(tmp);
        what = "deep (everything spindex verify checks)";
      } else {
        h = IndexVerifier.checksums(tmp);
        what = "header + " + h.sections().size() + " section CRC32Cs";
      }
    } catch (CorruptIndexException e) {
      String m = e.getMessage();
      String prefix = tmp + ": ";
      throw new StageException(
          source.name()
              + ": corrupt, not staged to "
              + out
              + ": "
              + (m.startsWith(prefix) ? m.substring(prefix.length()) : m),
          e);
    }
    if (h.headerCrc32c() != peek.headerCrc32c()) {
      throw new StageException(
          String.format(
              Locale.ROOT,
              "%s: changed during the copy (header crc %08x, then %08x); %s not written",
              source.name(),
              peek.headerCrc32c(),
              h.headerCrc32c(),
              out));
    }
    return what;
  }
}
