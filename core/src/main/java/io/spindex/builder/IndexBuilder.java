/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The options every index builder has, in one place. Not thread-safe: configure, then build.
 *
 * @param <B> the concrete builder, so that the setters chain
 */
@Internal
public abstract class IndexBuilder<B extends IndexBuilder<B>> {
  boolean strict;
  boolean allowEmpty;
  double ipv6TableBudget = IndexWriter.IPV6_TABLE_BUDGET;
  LongAdder progress;
  Long createdMillis;

  IndexBuilder() {}

  abstract B self();

  /** Builds the index and writes it atomically to {@code output}. */
  public abstract BuildReport build(List<Path> inputs, Path output) throws IOException;

  /**
   * Writes an index even when no line was accepted (an empty input, every line rejected). Off by
   * default: such a build fails with an {@link io.spindex.text.InputException} and leaves the
   * output as it was, so that a failed download never replaces a good index with an empty one.
   */
  public B allowEmpty(boolean allowEmpty) {
    this.allowEmpty = allowEmpty;
    return self();
  }

  /** Makes the first rejected line fail the build. */
  public B strict(boolean strict) {
    this.strict = strict;
    return self();
  }

  /**
   * How much the tables of the dense IPv6 /16 blocks ({@code prefix6}) may add: at most {@code
   * budget} times the IPv6 rows' own bytes (16 a set key, 36 a range). The default ({@value
   * IndexWriter#IPV6_TABLE_BUDGET}) suits every index; tests raise it to give small indexes tables
   * (the block map alone is 256 KiB). A budget of 0 writes none.
   */
  public B ipv6Tables(double budget) {
    if (!(budget >= 0)) {
      throw new IllegalArgumentException("ipv6 tables: the budget must be >= 0");
    }
    this.ipv6TableBudget = budget;
    return self();
  }

  /** Counts source bytes as they are read (for a progress display). */
  public B progress(LongAdder bytesRead) {
    this.progress = bytesRead;
    return self();
  }

  /** Fixed creation time for reproducible files (default: now). */
  public B createdMillis(long millis) {
    this.createdMillis = millis;
    return self();
  }

  /**
   * When the sources were built (default: a MaxMind database's build time, else the newest
   * modification time of the input files; a distributed build's engine gives its files' times): for
   * what knows better, such as {@code spindex update}. Written as {@code source_info}'s {@code
   * source_time}, never later than the created time.
   */
  public B sourceMillis(long millis) {
    this.sourceMillis = millis;
    return self();
  }

  Long sourceMillis;

  /** Applies the creation time and the source time, when they were set, to a writer. */
  IndexWriter created(IndexWriter w) {
    if (createdMillis != null) {
      w.createdMillis(createdMillis);
    }
    if (sourceMillis != null) {
      w.sourceMillis(sourceMillis);
    }
    return w;
  }

  /**
   * Gives a local build's writer the newest modification time of its input files as the source
   * time, unless it has one ({@link #sourceMillis(long)}, a database's build time).
   */
  static void sourceTimeOfFiles(IndexWriter w, List<Path> inputs) throws IOException {
    if (w.hasSourceMillis()) {
      return;
    }
    long newest = -1;
    for (Path in : inputs) {
      newest = Math.max(newest, java.nio.file.Files.getLastModifiedTime(in).toMillis());
    }
    w.sourceMillisUnlessKnown(newest);
  }
}
