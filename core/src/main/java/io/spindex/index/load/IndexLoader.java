/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import io.spindex.annotations.Internal;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.SpindexIndex;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A strategy that turns a file into a {@link SpindexIndex}. The binary strategies are the constants
 * of {@link Loader}; the {@code text} baseline (parse the source text) lives with the builders. All
 * strategies produce indexes that answer every lookup identically.
 */
@Internal
public interface IndexLoader {
  /** Short lower-case name: {@code text}, {@code io}, {@code nio}, {@code mapped}. */
  String loaderName();

  /**
   * Loads {@code file}.
   *
   * @throws CorruptIndexException when the file is not a valid index (message names the file,
   *     section, offset, expected and found)
   * @throws IOException when it cannot be read
   */
  SpindexIndex load(Path file) throws IOException;

  /**
   * Whether this strategy checks every section checksum at open ({@link Loader#mappedUnchecked()}
   * does not). Part of a held index's identity: a checked request is never answered by an unchecked
   * load.
   */
  default boolean checksSections() {
    return true;
  }
}
