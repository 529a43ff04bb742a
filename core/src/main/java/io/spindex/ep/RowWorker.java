/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.annotations.Internal;
import io.spindex.ep.feed.ByteSink;

/**
 * Line-wise EP work of one thread ({@link EpTransform.Worker}, {@link EpDiff.Worker}): a row in, an
 * output row or a reject out. What the engines' line loops call.
 */
@Internal
public interface RowWorker {
  /**
   * Handles row {@code b[from, to)} (without its LF): appends the output row with its LF to {@code
   * out} and returns {@code true}, or returns {@code false} and leaves the reason in {@link
   * #rejectReason()} and {@link #rejectDetail()}.
   */
  boolean apply(byte[] b, int from, int to, ByteSink out);

  /**
   * {@link #apply} on the line starting at {@code from}, its end not yet known: the line ends at
   * the first LF before {@code limit}, or at {@code limit}. A worker that finds the line end in the
   * same pass that checks the line does so (ep-transform's fused scan); by default the LF is found
   * first. Only bytes before {@code limit} are read; a CR before the LF is not part of the row.
   *
   * @return the index of the line's LF ({@code limit} for a last line without one) when the row was
   *     accepted, or {@code -1 -} that index when it was rejected
   */
  default int nextRow(byte[] b, int from, int limit, ByteSink out) {
    int lf = io.spindex.text.Bytes.lineFeed(b, from, limit);
    int end = lf > from && b[lf - 1] == '\r' ? lf - 1 : lf;
    return apply(b, from, end, out) ? lf : -1 - lf;
  }

  /**
   * Counts a row rejected for {@code reason} that was never handed over (a line longer than the
   * reader holds).
   */
  void rejectUnread(String reason);

  /** Why the last rejected row was rejected. */
  String rejectReason();

  /** The specifics of the last reject. */
  String rejectDetail();
}
