/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.index.IndexHolder;
import io.spindex.index.Loader;
import io.spindex.lookup.IpLocator;
import io.spindex.lookup.LineBatch;
import io.spindex.lookup.LineLookup;
import io.spindex.lookup.LookupCounts;
import io.spindex.lookup.LookupMode;
import io.spindex.lookup.RejectReason;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;

/**
 * ip-lookup's map task: acquires the index from the distributed cache once per task JVM in {@link
 * #setup} (through {@link IndexHolder}), runs {@link LineLookup} over the split's lines (a batch at
 * a time), writes annotated or filtered lines to the output and rejected lines to {@code
 * OUT/_rejects/}. In count mode it writes nothing per line and emits its per-label totals in {@link
 * #cleanup} (in-mapper combining), for the combiner and reducer to sum. Counters are looked up once
 * in setup and added once in cleanup.
 */
public final class IpLookupMapper extends Mapper<LongWritable, Text, Writable, Writable> {
  static final String REJECTS = "rejects";
  static final String REJECTS_BASE = "_rejects/part";

  private LineLookup lookup;
  private LookupMode mode;
  private byte[] source;
  private MultipleOutputs<Writable, Writable> mos;
  private final Text out = new Text();
  private final LineBatch batch = new LineBatch();
  private final Counter[] counters = new Counter[SpindexCounter.values().length];

  @Override
  protected void setup(Context context) throws IOException, InterruptedException {
    Configuration conf = context.getConfiguration();
    for (SpindexCounter c : SpindexCounter.values()) {
      counters[c.ordinal()] = context.getCounter(c);
    }
    String loader = conf.get(IpLookupTool.CONF_LOADER);
    // The distributed cache links the index into the task's working directory under this name.
    IndexHolder.Acquired acquired =
        IndexHolder.acquire(
            Paths.get(conf.get(IpLookupTool.CONF_INDEX_NAME)), Loader.forOption(loader));
    counter(SpindexCounter.TASKS).increment(1);
    if (acquired.loadedByThisCall()) {
      counter(SpindexCounter.INDEX_LOADS).increment(1);
      counter(SpindexCounter.INDEX_BYTES).increment(acquired.bytes());
      counter(SpindexCounter.loadMicros(loader)).increment(acquired.loadNanos() / 1000);
      counter(SpindexCounter.loads(loader)).increment(1);
    }
    mode = LookupMode.byName(conf.get(IpLookupTool.CONF_MODE));
    IpLocator locator =
        IpLocator.parse(conf.get(IpLookupTool.CONF_IP), conf.get(IpLookupTool.CONF_DELIMITER));
    lookup =
        new LineLookup(
            locator, acquired.index(), mode, conf.getBoolean(IpLookupTool.CONF_KEEP_HITS, true));
    InputSplit split = context.getInputSplit();
    String name =
        split instanceof FileSplit ? ((FileSplit) split).getPath().toString() : split.toString();
    source = name.getBytes(StandardCharsets.UTF_8);
    mos = new MultipleOutputs<>(context);
  }

  private Counter counter(SpindexCounter c) {
    return counters[c.ordinal()];
  }

  /** Lines are looked up {@value LineLookup#BATCH} at a time; see {@link #flush}. */
  @Override
  protected void map(LongWritable offset, Text line, Context context)
      throws IOException, InterruptedException {
    if (batch.add(line.getBytes(), 0, line.getLength(), offset.get())) {
      flush(context);
    }
  }

  /**
   * Looks the batch's lines up together ({@link LineLookup#applyAll}: the index's cache misses
   * overlap) and writes their records in input order.
   */
  private void flush(Context context) throws IOException, InterruptedException {
    batch.lookUp(lookup);
    for (int i = 0; i < batch.count(); i++) {
      switch (batch.result(i)) {
        case LineLookup.WRITE_OUT:
          batch.select(lookup, i);
          out.set(lookup.out(), 0, lookup.outLength());
          context.write(NullWritable.get(), out);
          break;
        case LineLookup.WRITE_INPUT:
          out.set(batch.bytes(), batch.from(i), batch.length(i));
          context.write(NullWritable.get(), out);
          break;
        case LineLookup.REJECTED:
          int n = batch.rejectRecord(lookup, source, i); // may grow lookup.out(): call it first
          out.set(lookup.out(), 0, n);
          mos.write(REJECTS, NullWritable.get(), out, REJECTS_BASE);
          break;
        default:
          break;
      }
    }
    batch.clear();
  }

  @Override
  protected void cleanup(Context context) throws IOException, InterruptedException {
    try {
      flush(context);
      if (mode == LookupMode.COUNT) {
        LongWritable lines = new LongWritable();
        Text label = new Text();
        // The sink runs synchronously; checked exceptions are carried out of the lambda.
        IOException[] failed = new IOException[1];
        lookup.drainCounts(
            (l, count) -> {
              label.set(l, 0, l.length);
              lines.set(count);
              try {
                context.write(label, lines);
              } catch (IOException e) {
                failed[0] = e;
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failed[0] = new IOException(e);
              }
            });
        if (failed[0] != null) {
          throw failed[0];
        }
      }
      LookupCounts c = lookup.counts();
      counter(SpindexCounter.RECORDS_IN).increment(c.linesIn());
      counter(SpindexCounter.RECORDS_OUT).increment(c.linesOut());
      counter(SpindexCounter.FILTERED_OUT).increment(c.filtered());
      counter(SpindexCounter.COUNTED).increment(c.counted());
      counter(SpindexCounter.LOOKUPS).increment(c.lookups());
      counter(SpindexCounter.HITS).increment(c.hits());
      counter(SpindexCounter.MISSES).increment(c.misses());
      counter(SpindexCounter.REJECTED).increment(c.rejected());
      for (RejectReason r : RejectReason.values()) {
        counter(SpindexCounter.rejects(r)).increment(c.rejects(r));
      }
    } finally {
      mos.close();
    }
  }
}
