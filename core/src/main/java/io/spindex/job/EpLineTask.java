/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.ep.RowWorker;
import io.spindex.ep.feed.ByteSink;
import io.spindex.ep.feed.EpHeader;
import io.spindex.ep.feed.EpSplitLines;
import io.spindex.ep.feed.LineCheck;
import io.spindex.text.Rejects;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The record loop of the EP jobs over one split: the first line of each file is its header, checked
 * against the first input's; every other line goes through a {@link RowWorker}, into an output row
 * or a reject record ({@link Rejects}).
 */
final class EpLineTask implements LineTask {
  private final RowWorker worker;
  private final Supplier<Map<String, Long>> counts;
  private final EpHeader expected;
  private final byte[] partHeader;
  private final String source;
  private final ByteSink out = new ByteSink(1 << 16);

  /**
   * @param partHeader the line every part starts with (with its LF), or null
   * @param counts the worker's counts by name
   */
  EpLineTask(
      RowWorker worker,
      Supplier<Map<String, Long>> counts,
      EpHeader expected,
      byte[] partHeader,
      String source) {
    this.worker = worker;
    this.counts = counts;
    this.expected = expected;
    this.partHeader = partHeader;
    this.source = source;
  }

  /** The row worker (ep-diff takes its seen rows after the split). */
  RowWorker worker() {
    return worker;
  }

  @Override
  public void begin(RecordSink sink) {
    if (partHeader != null) {
      sink.write(Route.OUTPUT, partHeader, 0, partHeader.length - 1);
    }
  }

  @Override
  public void line(byte[] b, int from, int to, long offset, RecordSink sink) {
    if (offset == 0) {
      EpSplitLines.checkHeader(b, from, to, source, expected);
      return;
    }
    out.clear();
    if (worker.apply(b, from, to, out)) {
      if (out.length() > 0) { // an unchanged row of a diff writes nothing
        sink.write(Route.OUTPUT, out.array(), 0, out.length() - 1);
      }
    } else {
      reject(b, from, to, offset, sink);
    }
  }

  private void reject(byte[] b, int from, int to, long offset, RecordSink sink) {
    byte[] r =
        Rejects.record(source, offset, worker.rejectReason(), worker.rejectDetail(), b, from, to);
    sink.write(Route.REJECTS, r, 0, r.length);
  }

  /**
   * A chunk of whole lines through the worker's {@link RowWorker#nextRow}: ep-transform finds each
   * line's end in the same pass that splits and checks it, and no line is copied.
   */
  @Override
  public void lines(byte[] b, int from, int to, long offset, RecordSink sink) {
    int at = from;
    if (offset == 0 && at < to) {
      int lf = LineTask.lineFeed(b, at, to);
      line(b, at, LineTask.withoutCr(b, at, lf), 0, sink); // the file's header
      at = lf + 1;
    }
    ByteSink direct = sink.outputBuffer(); // rows straight into the driver's buffer: no copy
    ByteSink o = direct != null ? direct : out;
    while (at < to) {
      out.clear();
      int r = worker.nextRow(b, at, to, o);
      int lf = r >= 0 ? r : -1 - r;
      if (r >= 0) {
        if (direct == null && out.length() > 0) {
          sink.write(Route.OUTPUT, out.array(), 0, out.length() - 1);
        }
      } else {
        reject(b, at, LineTask.withoutCr(b, at, lf), offset + (at - from), sink);
      }
      at = lf + 1;
    }
  }

  /** Rejects the line as {@link LineCheck#TOO_LONG}, keeping its first bytes. */
  @Override
  public void tooLong(byte[] b, int from, int to, long offset, int limit, RecordSink sink) {
    worker.rejectUnread(LineCheck.TOO_LONG);
    String detail = "more than " + limit + " bytes (first " + (to - from) + " kept)";
    byte[] r = Rejects.record(source, offset, LineCheck.TOO_LONG, detail, b, from, to);
    sink.write(Route.REJECTS, r, 0, r.length);
  }

  @Override
  public void finish(RecordSink sink) {}

  @Override
  public Map<String, Long> counts() {
    return counts.get();
  }
}
