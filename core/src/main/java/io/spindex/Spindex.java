/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex;

import io.spindex.index.SpindexIndex;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The entry point for using an index from Java: {@link #open} a {@code .spx} file and look up in
 * the read-only index it returns ({@link SpindexIndex#asSet()}, {@link SpindexIndex#asRanges()},
 * {@link SpindexIndex#asProducts()}). Each file is loaded once per JVM, however many threads, tasks
 * or queries open it; the index is thread-safe and its lookups allocate nothing.
 *
 * <pre>{@code
 * IpRanges geo = Spindex.open(Paths.get("ranges.spx"), Spindex.Mode.MAPPED).asRanges();
 * String label = geo.label(0x08080808); // 8.8.8.8; null when no range holds it
 * }</pre>
 *
 * A damaged or truncated file is a {@link io.spindex.index.CorruptIndexException} naming the file,
 * the section and the offset.
 */
public final class Spindex {
  private Spindex() {}

  /** Where an opened index lives. */
  public enum Mode {
    /**
     * Zero-copy views over a read-only mapping of a private snapshot of the file (so that a file
     * written over in place or truncated while in use changes nothing under the readers), every
     * section checksum verified at open: ready in milliseconds, off the Java heap, and the page
     * cache is shared by every JVM on the host that maps the same version; the host's first load of
     * a version copies the file once. The default.
     */
    MAPPED(Loader.MAPPED),
    /**
     * Copied into {@code int[]}/{@code long[]} arrays on the heap through a {@code FileChannel}
     * (the {@code nio} loader): independent of the file once loaded, at the cost of heap.
     */
    MEMORY(Loader.NIO);

    private final Loader loader;

    Mode(Loader loader) {
      this.loader = loader;
    }
  }

  /** {@link #open(Path, Mode)} with {@link Mode#MAPPED}. */
  public static SpindexIndex open(Path file) throws IOException {
    return open(file, Mode.MAPPED);
  }

  /**
   * The index at {@code file}, loaded with {@code mode} by the first caller in this JVM and shared
   * with every later one (the same file, unchanged, and the same mode).
   *
   * @throws io.spindex.index.CorruptIndexException when the file is not a valid index
   * @throws java.nio.file.NoSuchFileException when there is no such file
   */
  public static SpindexIndex open(Path file, Mode mode) throws IOException {
    return IndexHolder.acquire(file, mode.loader).index();
  }
}
