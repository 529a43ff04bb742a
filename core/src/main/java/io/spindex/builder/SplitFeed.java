/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.ep.feed.EpSplitLines;
import io.spindex.text.LineReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Feeds the whole lines of an input split, chunk by chunk, to the one-machine build's line sink, as
 * {@link LineReader} would (same length limit, same snippet for an overlong line), and keeps every
 * line the sink rejects as a reject record ({@code source<TAB>offset<TAB>reason<TAB>detail
 * <TAB>line}, {@link io.spindex.text.Rejects}) for the distributed build ({@code build-index}). A
 * split does not know its lines' numbers, so the sink is told each line's byte offset in the input
 * instead: its index argument is {@code offset - 1}, which the sinks' messages show as {@code index
 * + 1}. Not thread-safe.
 */
final class SplitFeed {
  private final String source;
  private final String expected;
  private final LineReader.Sink sink;
  private final ByteArrayOutputStream rejects = new ByteArrayOutputStream();
  private String firstReject;
  private long lineOffset;
  private long lines;

  /**
   * @param source the input as reject records name it
   * @param expected what a reject record says was expected
   * @param rejects where {@code sink} records its rejected lines
   */
  SplitFeed(String source, String expected, LineReader.Sink sink, Rejects rejects) {
    this.source = source;
    this.expected = expected;
    this.sink = sink;
    rejects.listener(this::rejected);
  }

  private void rejected(String reason, String file, long line, byte[] b, int from, int to) {
    byte[] r = EpSplitLines.rejectRecord(source, lineOffset, reason, expected, b, from, to);
    rejects.write(r, 0, r.length);
    rejects.write('\n');
    if (firstReject == null) {
      firstReject =
          source + ":" + lineOffset + ": " + reason + ": '" + Rejects.snippet(b, from, to) + "'";
    }
  }

  /**
   * Feeds the whole lines of {@code b[off, off + len)}, which start at byte {@code fileOffset} of
   * the input; each line ends with LF except perhaps the input's last.
   */
  void lines(byte[] b, int off, int len, long fileOffset) {
    try {
      feed(b, off, len, fileOffset);
    } catch (IOException e) {
      // The builds' sinks parse into memory and throw none; a sink that did would be a bug here.
      throw new UncheckedIOException(e);
    }
  }

  private void feed(byte[] b, int off, int len, long fileOffset) throws IOException {
    int end = off + len;
    int start = off;
    while (start < end) {
      int lf = start;
      while (lf < end && b[lf] != '\n') {
        lf++;
      }
      lineOffset = fileOffset + (start - off);
      if (lf - start > LineReader.MAX_LINE_BYTES) {
        sink.tooLong(b, start, start + 64, lineOffset - 1);
      } else {
        sink.line(b, start, lf, lineOffset - 1);
      }
      lines++;
      start = lf + 1;
    }
  }

  /** Lines fed so far. */
  long lines() {
    return lines;
  }

  /** Every rejected line so far, as LF-terminated reject records. */
  byte[] rejectRecords() {
    return rejects.toByteArray();
  }

  /** {@code records} without the last record's LF (what a text output adds back). */
  static byte[] withoutLastLf(byte[] records) {
    int n = records.length;
    return n > 0 && records[n - 1] == '\n' ? java.util.Arrays.copyOf(records, n - 1) : records;
  }

  /** The first rejected line as the one-machine build's messages show it; {@code null} if none. */
  String firstReject() {
    return firstReject;
  }
}
