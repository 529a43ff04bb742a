/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Loads each index once per JVM, however many tasks ask for it. Engine-agnostic: Spark executors
 * and MapReduce task JVMs call {@link #acquire} from every task; the first caller loads, the others
 * wait for that one load and then share the read-only index.
 *
 * <p>Indexes are keyed by identity: absolute path, loader name, whether the loader checks the
 * section checksums, and the header checksum (which covers every section checksum), so a file
 * replaced by a different index under the same name is loaded again, and a checked request is never
 * answered by an index loaded without the checks. A failed load is not remembered: the next caller
 * tries again. Thread-safe.
 */
public final class IndexHolder {
  private static final OncePerJvm<Key, Acquired> LOADED = new OncePerJvm<>();

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
   * Returns the index at {@code file} loaded with {@code loader}, loading it if no caller in this
   * JVM has yet. Reads the header (a few hundred bytes) on every call to learn the identity.
   */
  public static Acquired acquire(Path file, IndexLoader loader) throws IOException {
    Path abs = file.toAbsolutePath().normalize();
    IndexHeader header = Loader.readHeader(abs);
    Key key =
        new Key(
            abs,
            loader.loaderName() + (loader.checksSections() ? "" : "/unchecked"),
            header.headerCrc32c(),
            header.fileLength());
    OncePerJvm.Result<Acquired> r =
        LOADED.get(
            key,
            "loading " + abs,
            () -> {
              long t0 = System.nanoTime();
              SpindexIndex index = loader.load(abs);
              return new Acquired(index, System.nanoTime() - t0, header.fileLength(), false);
            });
    return r.computedByThisCall() ? r.value().reported() : r.value();
  }

  /** Forgets every loaded index (tests; a job that wants its memory back). */
  public static void clear() {
    LOADED.clear();
  }

  /** How many indexes this JVM holds. */
  public static int size() {
    return LOADED.size();
  }

  private static final class Key {
    final Path path;
    final String loader;
    final int crc;
    final long length;

    Key(Path path, String loader, int crc, long length) {
      this.path = path;
      this.loader = loader;
      this.crc = crc;
      this.length = length;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key)) {
        return false;
      }
      Key k = (Key) o;
      return crc == k.crc && length == k.length && path.equals(k.path) && loader.equals(k.loader);
    }

    @Override
    public int hashCode() {
      return Objects.hash(path, loader, crc, length);
    }
  }
}
