/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Holds each index file loaded once per JVM, however many threads, tasks or queries ask for it: the
 * first caller for a file loads it, concurrent callers for the same file wait for that one load and
 * then share the read-only index.
 *
 * <p>One version per file and load strategy: absolute path, loader name and whether the loader
 * checks the section checksums (a checked request is never answered by an index loaded without the
 * checks). Every acquire compares the file's identity (file key, i.e. device and inode, size and
 * modification time: one {@code stat}, no read) with the held version's; a file replaced by atomic
 * rename is loaded again on the next acquire, and the held version is replaced, so the old one is
 * freed (unmapped, for {@code mapped}) once the last task that still uses it lets it go. A file
 * overwritten in place (same inode, new size or time) is loaded again the same way: no loader's
 * index reads the file after its load ({@code mapped} maps a private snapshot of it), so the tasks
 * that hold the old version finish on it. A failed load is not remembered: the next caller tries
 * again. Thread-safe.
 */
@Internal
public final class IndexHolder {
  private static final ConcurrentHashMap<Key, Slot> HELD = new ConcurrentHashMap<>();

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
   * Returns the index at {@code file} loaded with {@code loader}: the version held for it when the
   * file is still the same one, else a new load (by exactly one caller; the others wait for it).
   */
  public static Acquired acquire(Path file, IndexLoader loader) throws IOException {
    Path abs = file.toAbsolutePath().normalize();
    Key key = new Key(abs, loader.loaderName() + (loader.checksSections() ? "" : "/unchecked"));
    Slot slot = HELD.computeIfAbsent(key, k -> new Slot());
    Snapshots.Stat now = Snapshots.Stat.of(abs);
    Version held = slot.current;
    if (held != null && held.identity.sameAs(now)) {
      return held.acquired;
    }
    synchronized (slot) {
      held = slot.current;
      now = Snapshots.Stat.of(abs);
      if (held != null && held.identity.sameAs(now)) {
        return held.acquired;
      }
      IndexHeader header = Loader.readHeader(abs);
      if (held != null
          && held.identity.key == null
          && held.acquired.index().header().headerCrc32c() == header.headerCrc32c()
          && held.acquired.bytes() == header.fileLength()) {
        return held.acquired; // no file key on this file system: the header tells
      }
      long t0 = System.nanoTime();
      SpindexIndex index = loader.load(abs);
      Acquired a = new Acquired(index, System.nanoTime() - t0, header.fileLength(), false);
      slot.current = new Version(now, a);
      return a.reported();
    }
  }

  /** Forgets every held index (tests; a job that wants its memory back). */
  public static void clear() {
    HELD.clear();
  }

  /** How many indexes this JVM holds (one per file and load strategy). */
  public static int size() {
    int n = 0;
    for (Slot s : HELD.values()) {
      n += s.current == null ? 0 : 1;
    }
    return n;
  }

  private static final class Slot {
    volatile Version current;
  }

  private static final class Version {
    final Snapshots.Stat identity;
    final Acquired acquired;

    Version(Snapshots.Stat identity, Acquired acquired) {
      this.identity = identity;
      this.acquired = acquired;
    }
  }

  private static final class Key {
    final Path path;
    final String loader;

    Key(Path path, String loader) {
      this.path = path;
      this.loader = loader;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key)) {
        return false;
      }
      Key k = (Key) o;
      return path.equals(k.path) && loader.equals(k.loader);
    }

    @Override
    public int hashCode() {
      return Objects.hash(path, loader);
    }
  }
}
