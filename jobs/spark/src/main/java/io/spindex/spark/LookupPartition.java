/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.index.IndexHolder;
import io.spindex.index.IndexLoader;
import io.spindex.index.Loader;
import io.spindex.lookup.IpLocator;
import io.spindex.lookup.LineBatch;
import io.spindex.lookup.LineLookup;
import io.spindex.lookup.LookupMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import scala.Tuple2;

/**
 * One ip-lookup task: acquires the index (loaded once per JVM), runs {@link LineLookup} over the
 * split's lines and yields routed output records lazily. The output {@link Text}s are reused: the
 * save action writes each record before asking for the next. Counts go to the accumulators once,
 * when the partition is exhausted.
 */
final class LookupPartition
    implements Function2<
        InputSplit, Iterator<Tuple2<LongWritable, Text>>, Iterator<Tuple2<Route, Text>>> {
  private static final long serialVersionUID = 1L;

  private final IndexRef index;
  private final HadoopConf conf;
  private final String loader;
  private final IpLocator locator;
  private final LookupMode mode;
  private final boolean keepHits;
  private final LookupMetrics metrics;

  LookupPartition(
      IndexRef index,
      HadoopConf conf,
      String loader,
      IpLocator locator,
      LookupMode mode,
      boolean keepHits,
      LookupMetrics metrics) {
    this.index = index;
    this.conf = conf;
    this.loader = loader;
    this.locator = locator;
    this.mode = mode;
    this.keepHits = keepHits;
    this.metrics = metrics;
  }

  static IndexLoader loaderNamed(String name) {
    return Loader.forOption(name);
  }

  @Override
  public Iterator<Tuple2<Route, Text>> call(
      InputSplit split, Iterator<Tuple2<LongWritable, Text>> lines) throws Exception {
    Path local = index.localPath(conf);
    IndexHolder.Acquired acquired = IndexHolder.acquire(local, loaderNamed(loader));
    if (acquired.loadedByThisCall()) {
      Ledger.loaded(acquired, loader);
    }
    metrics.reportJvmEvents(TaskContext.get());
    LineLookup lookup = new LineLookup(locator, acquired.index(), mode, keepHits);
    String source =
        split instanceof FileSplit ? ((FileSplit) split).getPath().toString() : split.toString();
    return new Out(lines, lookup, source.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The partition's output, lazily: lines are taken from the record reader a batch at a time
   * (copied, since the reader reuses its {@link Text}), looked up together with {@link
   * LineLookup#applyAll} so that the index's cache misses overlap, and handed out one record at a
   * time in input order.
   */
  private final class Out implements Iterator<Tuple2<Route, Text>> {
    private final Iterator<Tuple2<LongWritable, Text>> in;
    private final LineLookup lookup;
    private final byte[] source;
    private final Text out = new Text();
    private final Tuple2<Route, Text> outLine = new Tuple2<>(Route.LINES, out);
    private final Tuple2<Route, Text> outReject = new Tuple2<>(Route.REJECTS, out);
    private final ArrayDeque<Tuple2<Route, Text>> tail = new ArrayDeque<>();

    // Lines before `at` of the current batch are handed out.
    private final LineBatch batch = new LineBatch();
    private int at;

    private Tuple2<Route, Text> next;
    private boolean finished;

    Out(Iterator<Tuple2<LongWritable, Text>> in, LineLookup lookup, byte[] source) {
      this.in = in;
      this.lookup = lookup;
      this.source = source;
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
      while (at < batch.count() || fill()) {
        int i = at++;
        switch (batch.result(i)) {
          case LineLookup.WRITE_OUT:
            batch.select(lookup, i);
            out.set(lookup.out(), 0, lookup.outLength());
            return outLine;
          case LineLookup.WRITE_INPUT:
            out.set(batch.bytes(), batch.from(i), batch.length(i));
            return outLine;
          case LineLookup.REJECTED:
            int n = batch.rejectRecord(lookup, source, i);
            out.set(lookup.out(), 0, n);
            return outReject;
          default:
            break;
        }
      }
      if (!finished) {
        finished = true;
        lookup.drainCounts(
            (label, count) -> {
              Text t = new Text();
              t.append(label, 0, label.length);
              byte[] c = ("\t" + count).getBytes(StandardCharsets.US_ASCII);
              t.append(c, 0, c.length);
              tail.add(new Tuple2<>(Route.PARTIAL_COUNTS, t));
            });
        metrics.add(lookup.counts());
      }
      return tail.poll();
    }

    /** Reads and looks up the next batch; false at the end of the input. */
    private boolean fill() {
      batch.clear();
      at = 0;
      while (in.hasNext()) {
        Tuple2<LongWritable, Text> kv = in.next();
        Text line = kv._2();
        if (batch.add(line.getBytes(), 0, line.getLength(), kv._1().get())) {
          break;
        }
      }
      if (batch.count() == 0) {
        return false;
      }
      batch.lookUp(lookup);
      return true;
    }
  }
}
