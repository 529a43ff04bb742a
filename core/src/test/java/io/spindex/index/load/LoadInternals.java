/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import java.io.IOException;
import java.nio.file.Path;

/** What the loaders keep to their package, for the tests of io.spindex.index. */
public final class LoadInternals {
  private LoadInternals() {}

  /** The path every snapshot of {@code file} starts with ({@link Snapshots}). */
  public static String snapshotPrefix(Path file) throws IOException {
    return Snapshots.directory().resolve(Snapshots.prefixOf(file)).toString();
  }
}
