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
  boolean prefixTable = true;
  LongAdder progress;
  Long createdMillis;

  IndexBuilder() {}

  abstract B self();

  /** Builds the index and writes it atomically to {@code output}. */
  public abstract BuildReport build(List<Path> inputs, Path output) throws IOException;

  /** Makes the first rejected line fail the build. */
  public B strict(boolean strict) {
    this.strict = strict;
    return self();
  }

  /** Whether to write the /16 prefix table (default yes; off only to measure what it buys). */
  public B prefixTable(boolean on) {
    this.prefixTable = on;
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

  /** Applies the creation time, when one was set, to a writer. */
  IndexWriter created(IndexWriter w) {
    return createdMillis == null ? w : w.createdMillis(createdMillis);
  }
}
