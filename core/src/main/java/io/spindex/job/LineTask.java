/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import java.util.Map;

/**
 * The record loop of one job over one input split: lines of bytes in; records, rejects (with reason
 * and source position) and counts out through a {@link RecordSink}. Made by {@link LineJob#task}
 * once per split; every engine drives it the same way: {@link #begin}, {@link #line} for each line
 * in order, {@link #finish}, then {@link #counts}. Not thread-safe; the index and other side data
 * it reads are shared, read-only, per JVM.
 */
@Internal
public interface LineTask {
  /** Before the first line: records every part starts with (an EP file's header). */
  default void begin(RecordSink sink) {}

  /**
   * Line {@code b[from, to)} of the split (without its line end), which starts at byte {@code
   * offset} of its file. A task may hold lines back (to look a batch up together) and write their
   * records on a later call; it copies what it holds.
   */
  void line(byte[] b, int from, int to, long offset, RecordSink sink);

  /**
   * Whole lines {@code b[from, to)} — each ended by LF (or CR LF), the last one perhaps not — the
   * first starting at byte {@code offset} of the file: what an engine reading chunks of lines hands
   * over. The bytes are valid during the call only. By default, {@link #line} for each; a task may
   * look lines up in place instead of copying them.
   */
  default void lines(byte[] b, int from, int to, long offset, RecordSink sink) {
    for (int at = from; at < to; ) {
      int lf = lineFeed(b, at, to);
      line(b, at, withoutCr(b, at, lf), offset + (at - from), sink);
      at = lf + 1;
    }
  }

  /** Where the line starting at {@code at} ends: its LF, or {@code to}. */
  static int lineFeed(byte[] b, int at, int to) {
    return io.spindex.text.Bytes.lineFeed(b, at, to);
  }

  /** The end of line {@code b[at, lf)} without a CR before its LF. */
  static int withoutCr(byte[] b, int at, int lf) {
    return lf > at && b[lf - 1] == '\r' ? lf - 1 : lf;
  }

  /**
   * A line longer than the engine holds ({@code limit} bytes), which starts at byte {@code offset}
   * of the file: {@code b[from, to)} are its first bytes, the rest was skipped. By default an
   * error; a task that rejects over-long lines makes a reject of it.
   */
  default void tooLong(byte[] b, int from, int to, long offset, int limit, RecordSink sink) {
    throw new IllegalStateException(
        "a line at byte " + offset + " is longer than " + limit + " bytes");
  }

  /** After the last line: writes what was held back and any trailing records. */
  void finish(RecordSink sink);

  /**
   * The split's counts by name, after {@link #finish}. Engines add them up by name (named
   * accumulators, Hadoop counters); the job's {@link LineJob#summarize} reads the totals.
   */
  Map<String, Long> counts();
}
