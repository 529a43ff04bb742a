/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.atomic.LongAdder;

/**
 * Splits bytes from a channel into lines without decoding them: blocks are read into one heap
 * buffer and each line is handed to a {@link Sink} as a slice of it (LF or CRLF; the CR is left in
 * the slice for the sink's trimming). A UTF-8 byte order mark at the very start is skipped. Lines
 * longer than {@link #MAX_LINE_BYTES} are reported to {@link Sink#tooLong} and skipped whole.
 *
 * <p>One instance per thread; the slices are valid only during the call.
 */
@Internal
public final class LineReader {
  /** Longest line handed to a sink. */
  public static final int MAX_LINE_BYTES = 1 << 20;

  private static final int BLOCK_BYTES = 4 << 20;

  /** Receives lines; {@code index} counts lines from 0 within what this reader reads. */
  public interface Sink {
    void line(byte[] buf, int from, int to, long index) throws IOException;

    /** A line over the limit; {@code buf[from, to)} is its start, for the message. */
    void tooLong(byte[] buf, int from, int to, long index) throws IOException;
  }

  private final byte[] block = new byte[BLOCK_BYTES];
  private final LongAdder progress;

  /**
   * @param progress counts bytes as they are read (for a progress display), or {@code null}
   */
  public LineReader(LongAdder progress) {
    this.progress = progress;
  }

  /**
   * Reads at most {@code limit} bytes (or to the end when {@code limit < 0}) and hands every line
   * to the sink; a last line without a line end counts as a line.
   *
   * @param atFileStart whether the channel is at the start of a file (a BOM is skipped)
   * @return the number of lines, including skipped over-long ones
   */
  public long read(ReadableByteChannel in, long limit, boolean atFileStart, Sink sink)
      throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(block);
    long left = limit < 0 ? Long.MAX_VALUE : limit;
    long index = 0;
    int start = 0; // start of the current, unfinished line in block
    int scan = 0; // where the search for the next LF resumes
    boolean skipping = false; // inside an over-long line, discarding until its LF
    boolean first = atFileStart;
    boolean eof = false;
    while (!eof) {
      if (buf.position() == block.length) {
        // The unfinished line fills the block: over the limit by definition.
        if (!skipping) {
          sink.tooLong(block, start, Math.min(block.length, start + 64), index);
          skipping = true;
        }
        buf.clear();
        start = 0;
        scan = 0;
      }
      int room = (int) Math.min(buf.remaining(), left);
      buf.limit(buf.position() + room);
      int n = room == 0 ? -1 : in.read(buf);
      buf.limit(block.length);
      if (n < 0) {
        eof = true;
      } else {
        left -= n;
        if (progress != null) {
          progress.add(n);
        }
      }
      int end = buf.position();
      if (first && end - start >= 3 || first && eof) {
        if (end - start >= 3
            && block[start] == (byte) 0xEF
            && block[start + 1] == (byte) 0xBB
            && block[start + 2] == (byte) 0xBF) {
          start += 3;
          scan = Math.max(scan, start);
        }
        first = false;
      }
      if (first) {
        continue;
      }
      for (int i = scan; i < end; i++) {
        if (block[i] == '\n') {
          if (skipping) {
            skipping = false;
          } else if (i - start > MAX_LINE_BYTES) {
            sink.tooLong(block, start, start + 64, index);
          } else {
            sink.line(block, start, i, index);
          }
          index++;
          start = i + 1;
        }
      }
      if (eof) {
        if (start < end) {
          if (skipping) {
            skipping = false;
          } else if (end - start > MAX_LINE_BYTES) {
            sink.tooLong(block, start, start + 64, index);
          } else {
            sink.line(block, start, end, index);
          }
          index++;
        } else if (skipping) {
          index++;
        }
        break;
      }
      // Keep the unfinished line: move it to the front of the block.
      int keep = end - start;
      if (skipping) {
        keep = 0;
      } else if (start > 0) {
        System.arraycopy(block, start, block, 0, keep);
      }
      start = 0;
      scan = keep;
      buf.position(keep);
    }
    return index;
  }
}
