/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;

/**
 * Parses the lines of one input split of a distributed build into a part ({@link IpListPart},
 * {@link RangePart}, {@link ProductPart}). Not thread-safe.
 *
 * @param <P> the part
 */
@Internal
public interface SplitParser<P> {
  /**
   * Parses the whole lines of {@code b[off, off + len)}, which start at byte {@code fileOffset} of
   * the input; each line ends with LF except perhaps the input's last.
   */
  void lines(byte[] b, int off, int len, long fileOffset);

  /** The part of everything parsed. */
  P finish();
}
