/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.ep.feed.ByteSink;
import io.spindex.ep.feed.ChunkPipeline;
import io.spindex.ep.feed.LineCheck;
import io.spindex.text.Bytes;
import io.spindex.text.Rejects;

/**
 * A {@link ChunkPipeline.Processor} that hands each line of a chunk to {@link #line} and formats
 * rejects as reject records ({@link Rejects}): the text from the reason on (the source and offset
 * are added by the writer, which knows where the chunk starts). Not thread-safe.
 */
abstract class LineProcessor implements ChunkPipeline.Processor {
  private static final long LFS = Bytes.repeat((byte) '\n');

  @Override
  public final void process(ChunkPipeline.Chunk c) {
    if (c.oversized) {
      String reason = LineCheck.TOO_LONG;
      String detail = "more than " + (c.in.length - 1) + " bytes (first " + c.len + " kept)";
      oversized(reason);
      reject(c, reason, detail, c.in, 0, c.len);
      c.lines = 1;
      return;
    }
    byte[] b = c.in;
    int pos = 0;
    long n = 0;
    while (pos < c.len) {
      pos = lineAt(c, b, pos, n) + 1;
      n++;
    }
    c.lines = n;
  }

  /**
   * Processes line {@code index} of chunk {@code c}, which starts at {@code from}; returns the
   * index of its LF (or {@code c.len} for a last line without one). By default finds the LF and
   * calls {@link #line}.
   */
  int lineAt(ChunkPipeline.Chunk c, byte[] b, int from, long index) {
    int lf = Bytes.indexOf(b, from, c.len, (byte) '\n', LFS);
    line(c, b, from, lf, index);
    return lf;
  }

  /** Processes line {@code index} of chunk {@code c}: {@code b[from, to)}, LF excluded. */
  abstract void line(ChunkPipeline.Chunk c, byte[] b, int from, int to, long index);

  /** Counts a line the reader could not hold (over a chunk long). */
  abstract void oversized(String reason);

  /** Adds a reject record for the line {@code b[from, to)} of the chunk. */
  static void reject(
      ChunkPipeline.Chunk c, String reason, String detail, byte[] b, int from, int to) {
    ByteSink t = c.text;
    int end = to > from && b[to - 1] == '\r' ? to - 1 : to;
    byte[] tail = Rejects.tail(reason, detail);
    t.write(tail, 0, tail.length);
    t.write(b, from, end);
    t.write((byte) '\n');
    c.rejected(from);
  }
}
