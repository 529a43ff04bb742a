/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A byte range {@code [pos, end)} of the file still to be written, owned by one worker. Another
 * worker may take over its upper half ({@link #splitOff}), which lowers {@code end}; the owner then
 * stops at the new end. Thread-safe: both fields are guarded by the segment's monitor, and {@link
 * #write} holds it while writing so that {@code pos} never counts bytes that are not in the file
 * yet (the resume state is built from {@code pos}).
 */
final class Segment {
  private long pos;
  private long end;

  Segment(long start, long end) {
    this.pos = start;
    this.end = end;
  }

  synchronized long pos() {
    return pos;
  }

  synchronized long end() {
    return end;
  }

  synchronized long remaining() {
    return end - pos;
  }

  synchronized boolean done() {
    return pos >= end;
  }

  /** {start, end} of what is left, or null when done. */
  synchronized long[] missing() {
    return pos < end ? new long[] {pos, end} : null;
  }

  /**
   * Writes the buffer's bytes at {@code pos}, but no further than {@code end}.
   *
   * @return bytes written: fewer than the buffer held when the segment's end was reached
   */
  synchronized int write(FileChannel ch, ByteBuffer buf) throws IOException {
    int n = (int) Math.min(buf.remaining(), end - pos);
    if (n <= 0) {
      return 0;
    }
    buf.limit(buf.position() + n);
    long at = pos;
    while (buf.hasRemaining()) {
      at += ch.write(buf, at);
    }
    pos += n;
    return n;
  }

  /**
   * Gives away the upper half of what is left, if each half would be at least {@code minBytes}: the
   * caller downloads the returned segment, this one stops at the split point.
   */
  synchronized Segment splitOff(long minBytes) {
    long left = end - pos;
    if (left < 2 * minBytes) {
      return null;
    }
    long mid = pos + left / 2;
    Segment upper = new Segment(mid, end);
    end = mid;
    return upper;
  }

  @Override
  public synchronized String toString() {
    return "[" + pos + ", " + end + ")";
  }
}
