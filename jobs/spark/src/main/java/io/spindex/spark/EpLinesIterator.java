/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.ep.ByteSink;
import io.spindex.ep.EpHeader;
import io.spindex.ep.EpSplitLines;
import io.spindex.ep.RowWorker;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import scala.Tuple2;

/**
 * The record loop shared by the EP jobs' partitions: skips each file's header line (offset 0),
 * checking that it equals the header the driver compiled against; hands every other line to its
 * {@link RowWorker}; routes output rows (LF stripped: the output format adds it) and rejects
 * ({@code FILE:OFFSET<TAB>reason<TAB>detail<TAB>line}). Lazily: each record is written before the
 * next is made, so the reused {@link Text} is safe.
 */
final class EpLinesIterator implements Iterator<Tuple2<Route, Text>> {
  private final Iterator<Tuple2<LongWritable, Text>> in;
  private final EpHeader expected;
  private final String source;
  private final RowWorker worker;
  private final Runnable finish;
  private final Text text = new Text();
  private final Tuple2<Route, Text> outLine = new Tuple2<>(Route.LINES, text);
  private final Tuple2<Route, Text> outReject = new Tuple2<>(Route.REJECTS, text);
  final ArrayDeque<Tuple2<Route, Text>> first = new ArrayDeque<>();
  final ArrayDeque<Tuple2<Route, Text>> tail = new ArrayDeque<>();
  private final ByteSink out = new ByteSink(1 << 16);
  private Tuple2<Route, Text> next;
  private boolean finished;

  /**
   * @param worker handles every line after the header
   * @param finish runs once after the last line: adds counts, may queue closing records into {@link
   *     #tail}
   */
  EpLinesIterator(
      Iterator<Tuple2<LongWritable, Text>> in,
      EpHeader expected,
      String source,
      RowWorker worker,
      Runnable finish) {
    this.in = in;
    this.expected = expected;
    this.source = source;
    this.worker = worker;
    this.finish = finish;
  }

  /** A record with a copy of {@code line} (without its final LF), for {@link #first} or tail. */
  static Tuple2<Route, Text> record(Route route, byte[] line) {
    Text t = new Text();
    int n = line.length > 0 && line[line.length - 1] == '\n' ? line.length - 1 : line.length;
    t.set(line, 0, n);
    return new Tuple2<>(route, t);
  }

  @Override
  public boolean hasNext() {
    if (next == null) {
      next = advance();
    }
    return next != null;
  }

  @Override
  public Tuple2<Route, Text> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Tuple2<Route, Text> n = next;
    next = null;
    return n;
  }

  private Tuple2<Route, Text> advance() {
    if (!first.isEmpty()) {
      return first.poll();
    }
    while (in.hasNext()) {
      Tuple2<LongWritable, Text> kv = in.next();
      Text line = kv._2();
      byte[] b = line.getBytes();
      int len = line.getLength();
      if (kv._1().get() == 0) {
        EpSplitLines.checkHeader(b, len, source, expected);
        continue;
      }
      out.clear();
      if (worker.apply(b, 0, len, out)) {
        if (out.length() == 0) {
          continue; // processed, nothing to write (e.g. an unchanged row of a diff)
        }
        text.set(out.array(), 0, out.length() - 1);
        return outLine;
      }
      byte[] r =
          EpSplitLines.rejectRecord(
              source, kv._1().get(), worker.rejectReason(), worker.rejectDetail(), b, len);
      text.set(r, 0, r.length);
      return outReject;
    }
    if (!finished) {
      finished = true;
      finish.run();
    }
    return tail.poll();
  }
}
