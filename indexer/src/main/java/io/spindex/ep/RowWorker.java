/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

/**
 * Line-wise EP work of one thread ({@link EpTransform.Worker}, {@link EpDiff.Worker}): a row in, an
 * output row or a reject out. What the engines' line loops call.
 */
public interface RowWorker {
  /**
   * Handles row {@code b[from, to)} (without its LF): appends the output row with its LF to {@code
   * out} and returns {@code true}, or returns {@code false} and leaves the reason in {@link
   * #rejectReason()} and {@link #rejectDetail()}.
   */
  boolean apply(byte[] b, int from, int to, ByteSink out);

  /** Why the last rejected row was rejected. */
  String rejectReason();

  /** The specifics of the last reject. */
  String rejectDetail();
}
