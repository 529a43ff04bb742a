/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import io.spindex.annotations.Internal;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.SpindexIndex;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Holds each index file loaded once per JVM, however many threads, tasks or queries ask for it: the
 * first caller for a version loads it, concurrent callers for the same index wait for that one load
 * and then share the read-only index.
 *
 * <p>An index is named by its published path (a kept version, {@code OUT.spx.versions/T-CRC.spx},
 * is a version of {@code OUT.spx}: {@link KeptVersions}) and its load strategy (loader name, and
 * whether the loader checks section checksums: a checked request is never answered by an index
 * loaded without the checks). Of each index it holds the last {@link #versionsPerIndex} versions
 * used (default 2), each known by its header checksum; the least recently used beyond that is
 * dropped, and freed (unmapped, for {@code mapped}) once the last task that still uses it lets it
 * go. So a stream that sees fifty updates holds two versions, not fifty.
 *
 * <p>{@link #acquire(Path, IndexLoader)} answers the version the file is now: every call compares
 * the file's identity (file key, i.e. device and inode, size and modification time: one {@code
 * stat}, no read) with the versions held, and a file replaced by rename (or written in place: no
 * loader's index reads the file after its load, {@code mapped} maps a private snapshot) is loaded
 * again. {@link #acquire(Path, IndexLoader, int)} answers one version, the one a job, query or
 * micro-batch was planned on, whatever the file is now: held, or loaded from the file when it is
 * still that version, or from the kept version of that checksum. A failed load is not remembered:
 * the next caller tries again. Thread-safe.
 */
@Internal
public final class IndexHolder {
  private static final ConcurrentHashMap<Key, Slot> HELD = new ConcurrentHashMap<>();

  /** The default of {@link #versionsPerIndex}. */
  public static final int DEFAULT_VERSIONS = 2;

  private static volatile int versionsPerIndex = DEFAULT_VERSIONS;

  private IndexHolder() {}

  /** What {@link #acquire} returns: the index, how it was loaded, and whether this call did it. */
  public static final class Acquired {
    private final SpindexIndex index;
    private final long loadNanos;
    private final long bytes;
    private final boolean loadedByThisCall;

    Acquired(SpindexIndex index, long loadNanos, long bytes, boolean loadedByThisCall) {
      this.index = index;
      this.loadNanos = loadNanos;
      this.bytes = bytes;
      this.loadedByThisCall = loadedByThisCall;
    }

    public SpindexIndex index() {
      return index;
    }

    /** Wall time of the one load, in nanoseconds. */
    public long loadNanos() {
      return loadNanos;
    }

    /** Size of the index file in bytes. */
    public long bytes() {
      return bytes;
    }

    /**
     * True for exactly one call per loaded index and JVM: the one whose call performed the load.
     * Report load statistics (counters, accumulators) only when this is true.
     */
    public boolean loadedByThisCall() {
      return loadedByThisCall;
    }

    /** The same load, as told to the one caller that performed it. */
    private Acquired reported() {
      return new Acquired(index, loadNanos, bytes, true);
    }
  }

  /**
   * How many versions of each index this JVM holds at most (1 or more). Spark executors set it from
   * {@code spark.spindex.versions}, MapReduce tasks from {@code spindex.versions}.
   */
  public static void versionsPerIndex(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("versions: expected 1 or more, got " + n);
    }
    versionsPerIndex = n;
  }

  /** How many versions of each index this JVM holds at most. */
  public static int versionsPerIndex() {
    return versionsPerIndex;
  }

  /**
   * Returns the index at {@code file} loaded with {@code loader}: a held version when the file is
   * still that version, else a new load (by exactly one caller; the others wait for it).
   */
  public static Acquired acquire(Path file, IndexLoader loader) throws IOException {
    return acquire(file, loader, null, null);
  }

  /**
   * Returns the version of the index at {@code file} whose header checksum is {@code headerCrc32c}:
   * held, loaded from {@code file} when that is still the version, or loaded from the kept version
   * of that checksum ({@link KeptVersions#find}).
   *
   * @throws CorruptIndexException naming the file when none of these has the version (the file was
   *     replaced, by other means than {@code spindex update}, while a job or query used it)
   */
  public static Acquired acquire(Path file, IndexLoader loader, int headerCrc32c)
      throws IOException {
    return acquire(file, loader, null, Integer.valueOf(headerCrc32c));
  }

  /**
   * {@link #acquire(Path, IndexLoader, int)} of an engine's local copy ({@code file}: a shipped or
   * staged copy, whose name says nothing of the index) of the index published at {@code index} (the
   * path the user gave, or a kept version's): versions of one index count together towards the
   * bound, wherever their copies lie.
   */
  public static Acquired acquire(Path file, IndexLoader loader, String index, int headerCrc32c)
      throws IOException {
    return acquire(file, loader, index, Integer.valueOf(headerCrc32c));
  }

  private static Acquired acquire(Path file, IndexLoader loader, String name, Integer crc)
      throws IOException {
    Path abs = file.toAbsolutePath().normalize();
    Key key =
        new Key(
            name != null
                ? KeptVersions.publishedOf(name)
                : KeptVersions.publishedOf(abs).toString(),
            loader.loaderName() + (loader.checksSections() ? "" : "/unchecked"));
    Slot slot = HELD.computeIfAbsent(key, k -> new Slot());
    Version held = crc != null ? slot.byCrc(crc) : slot.byFile(abs, Snapshots.Stat.of(abs));
    if (held != null) {
      return held.acquired;
    }
    synchronized (slot) {
      Snapshots.Stat now = Snapshots.Stat.of(abs);
      held = crc != null ? slot.byCrc(crc) : slot.byFile(abs, now);
      if (held != null) {
        return held.acquired;
      }
      IndexHeader header = Loader.readHeader(abs);
      Path from = abs;
      if (crc != null && header.headerCrc32c() != crc) {
        from = KeptVersions.find(KeptVersions.publishedOf(abs), crc);
        if (from == null) {
          throw changedWhileInUse(abs, crc, header.headerCrc32c());
        }
        header = Loader.readHeader(from);
        now = Snapshots.Stat.of(from);
      }
      Version same = slot.byCrc(header.headerCrc32c());
      if (same != null && same.acquired.bytes() == header.fileLength()) {
        // The same version under another name (the published file and its kept version), or a
        // file system without file keys: the header tells.
        slot.add(new Version(from, now, header.headerCrc32c(), same.acquired));
        return same.acquired;
      }
      long t0 = System.nanoTime();
      SpindexIndex index = loader.load(from);
      Acquired a = new Acquired(index, System.nanoTime() - t0, header.fileLength(), false);
      slot.add(new Version(from, now, header.headerCrc32c(), a));
      return a.reported();
    }
  }

  private static CorruptIndexException changedWhileInUse(Path file, int wanted, int found) {
    return new CorruptIndexException(
        String.format(
            Locale.ROOT,
            "%s: changed while in use: the job started on the version with header checksum %08x,"
                + " this task found %08x and no kept copy of the first (%s); publish indexes"
                + " with 'spindex update', which keeps the versions readers still use",
            file,
            wanted,
            found,
            KeptVersions.dir(file).getFileName()));
  }

  /** Forgets every held index (tests; a job that wants its memory back). */
  public static void clear() {
    HELD.clear();
  }

  /** How many indexes this JVM holds (one per file and load strategy). */
  public static int size() {
    int n = 0;
    for (Slot s : HELD.values()) {
      n += s.isEmpty() ? 0 : 1;
    }
    return n;
  }

  /** How many distinct versions this JVM holds, of every index. */
  public static int versions() {
    int n = 0;
    for (Slot s : HELD.values()) {
      n += s.distinctVersions();
    }
    return n;
  }

  /**
   * The versions held of one index, most recently used first; at most {@link #versionsPerIndex}.
   */
  private static final class Slot {
    private volatile List<Version> versions = List.of();

    Version byCrc(int crc) {
      for (Version v : versions) {
        if (v.crc == crc) {
          return used(v);
        }
      }
      return null;
    }

    Version byFile(Path file, Snapshots.Stat now) {
      for (Version v : versions) {
        if (v.file.equals(file) && v.identity.sameAs(now)) {
          return used(v);
        }
      }
      return null;
    }

    /** Moves {@code v} to the front (no lock: the order is a hint, the list is replaced whole). */
    private Version used(Version v) {
      List<Version> now = versions;
      if (!now.isEmpty() && now.get(0) != v) {
        synchronized (this) {
          List<Version> moved = new ArrayList<>(versions);
          if (moved.remove(v)) {
            moved.add(0, v);
            versions = List.copyOf(moved);
          }
        }
      }
      return v;
    }

    /**
     * Adds {@code v} first, and drops the least recently used versions beyond the bound (callers
     * hold the lock). Entries of one version under two names (the published file and its kept
     * version) count once.
     */
    void add(Version v) {
      List<Version> next = new ArrayList<>();
      next.add(v);
      java.util.Set<Integer> crcs = new java.util.HashSet<>();
      crcs.add(v.crc);
      for (Version old : versions) {
        if (!crcs.contains(old.crc) && crcs.size() >= versionsPerIndex) {
          continue;
        }
        crcs.add(old.crc);
        if (!(old.file.equals(v.file) && old.crc == v.crc)) {
          next.add(old);
        }
      }
      versions = List.copyOf(next);
    }

    boolean isEmpty() {
      return versions.isEmpty();
    }

    int distinctVersions() {
      java.util.Set<Integer> crcs = new java.util.HashSet<>();
      for (Version v : versions) {
        crcs.add(v.crc);
      }
      return crcs.size();
    }
  }

  private static final class Version {
    final Path file;
    final Snapshots.Stat identity;
    final int crc;
    final Acquired acquired;

    Version(Path file, Snapshots.Stat identity, int crc, Acquired acquired) {
      this.file = file;
      this.identity = identity;
      this.crc = crc;
      this.acquired = acquired;
    }
  }

  private static final class Key {
    /** The published path of the index (for a kept version, the file it was published at). */
    final String published;

    final String loader;

    Key(String published, String loader) {
      this.published = published;
      this.loader = loader;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key)) {
        return false;
      }
      Key k = (Key) o;
      return published.equals(k.published) && loader.equals(k.loader);
    }

    @Override
    public int hashCode() {
      return Objects.hash(published, loader);
    }
  }
}
