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
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import scala.Tuple2;

/**
 * The record loop shared by the EP jobs' partitions: first the partition's header record, if it
 * writes one; then skips each file's header line (offset 0), checking that it equals the header the
 * driver compiled against; hands every other line to its {@link RowWorker}; routes output rows (LF
 * stripped: the output format adds it) and rejects ({@code
 * FILE:OFFSET<TAB>reason<TAB>detail<TAB>line}). Lazily: each record is written before the next is
 * made, so the reused {@link Text} is safe.
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
  private final ByteSink out = new ByteSink(1 << 16);
  private Tuple2<Route, Text> header;
  private Tuple2<Route, Text> next;
  private boolean finished;

  /**
   * @param split the partition's input split: rejects name its file
   * @param partHeader the header line this partition writes first (with or without its LF), or
   *     {@code null}
   * @param worker handles every line after the file headers
   * @param finish runs once after the last line (adds the worker's counts to the job's)
   */
  EpLinesIterator(
      InputSplit split,
      Iterator<Tuple2<LongWritable, Text>> in,
      EpHeader expected,
      byte[] partHeader,
      RowWorker worker,
      Runnable finish) {
    this.in = in;
    this.expected = expected;
    this.source =
        split instanceof FileSplit ? ((FileSplit) split).getPath().toString() : split.toString();
    this.worker = worker;
    this.finish = finish;
    if (partHeader != null) {
      int n = partHeader.length > 0 && partHeader[partHeader.length - 1] == '\n' ? 1 : 0;
      Text t = new Text();
      t.set(partHeader, 0, partHeader.length - n);
      header = new Tuple2<>(Route.LINES, t);
    }
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
    if (header != null) {
      Tuple2<Route, Text> h = header;
      header = null;
      return h;
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
    return null;
  }
}
