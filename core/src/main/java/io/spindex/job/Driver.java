/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.ep.feed.EpHeader;
import io.spindex.index.IndexHeader;
import java.io.IOException;

/**
 * What a job's {@link LineJob#plan} asks of the engine on the driver (the Spark driver, the
 * MapReduce client): shipping side data and reading the first bytes of inputs. Each engine has one
 * implementation; tests have one over local files.
 */
@Internal
public interface Driver {
  /**
   * Ships {@code path} to the tasks: {@code how} is {@code auto}, {@code files}, {@code stage} or
   * {@code local} (see {@link SideFile}). {@code auto} takes a file the user already shipped (by
   * {@code --files} / {@code -files}, matched by name or path), ships a local file, and stages any
   * other Hadoop path.
   *
   * @throws java.io.FileNotFoundException naming {@code path} when the driver cannot find it
   */
  SideFile ship(String path, String how) throws IOException;

  /**
   * Reads and checks the header of the index {@code f} on the driver, whatever its ship mode.
   *
   * @throws io.spindex.index.CorruptIndexException naming the user's path when it is not an index
   */
  IndexHeader indexHeader(SideFile f) throws IOException;

  /**
   * The header line of the first input file of {@code input} (a path or glob; files in name order),
   * decompressed when its codec is known.
   */
  EpHeader firstEpHeader(String input) throws IOException;

  /** Tells the person who runs the job something worth a line (an old index): standard error. */
  default void warn(String line) {
    System.err.println(line);
  }
}
