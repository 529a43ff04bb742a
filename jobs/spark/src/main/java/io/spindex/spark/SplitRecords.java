/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.hadoop.LineChunk;
import io.spindex.job.LineTask;
import io.spindex.job.RecordSink;
import io.spindex.job.Route;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.io.LongWritable;
import scala.Tuple2;

/**
 * A Spark partition's output, lazily: feeds the split's lines (chunks of whole lines, no object per
 * line) to a {@link LineTask} until it has written records, then hands those out one at a time. The
 * records are copied once, into one buffer reused from batch to batch, and handed out as {@link
 * Record} views that {@link RoutedTextOutputFormat} writes before asking for the next. Count-mode
 * counts go to the {@link #COUNTS} directory as {@code key<TAB>count}, to be summed by the driver.
 */
final class SplitRecords implements Iterator<Tuple2<String, SplitRecords.Record>>, RecordSink {
  /** Where tasks' per-key counts go before the driver sums them. */
  static final String COUNTS = "_partial-counts/";

  /** A record: bytes {@code [off, off + len)} of a buffer; a view, reused. */
  static final class Record {
    byte[] b;
    int off;
    int len;
  }

  private final Iterator<Tuple2<LongWritable, LineChunk>> in;
  private final LineTask task;
  private final Runnable done;

  private byte[] buf = new byte[1 << 16];
  private int used;
  private String[] dirs = new String[256];
  private int[] ends = new int[256];
  private int count;
  private int at;
  private boolean finished;
  private final Record record = new Record();
  private final Tuple2<String, Record> toOutput = new Tuple2<>(Route.OUTPUT.dir(), record);
  private final Tuple2<String, Record> toRejects = new Tuple2<>(Route.REJECTS.dir(), record);
  private final Tuple2<String, Record> toCounts = new Tuple2<>(COUNTS, record);

  /**
   * @param done runs once, after the task finished (adds its counts to the job's)
   */
  SplitRecords(Iterator<Tuple2<LongWritable, LineChunk>> in, LineTask task, Runnable done) {
    this.in = in;
    this.task = task;
    this.done = done;
    task.begin(this);
  }

  @Override
  public void write(Route route, byte[] b, int off, int len) {
    add(route.dir(), b, off, len);
  }

  @Override
  public void count(byte[] key, long n) {
    byte[] c = ("\t" + n).getBytes(StandardCharsets.US_ASCII);
    byte[] line = Arrays.copyOf(key, key.length + c.length);
    System.arraycopy(c, 0, line, key.length, c.length);
    add(COUNTS, line, 0, line.length);
  }

  private void add(String dir, byte[] b, int off, int len) {
    if (count == ends.length) {
      ends = Arrays.copyOf(ends, count * 2);
      dirs = Arrays.copyOf(dirs, count * 2);
    }
    if (buf.length - used < len) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, used + len));
    }
    System.arraycopy(b, off, buf, used, len);
    used += len;
    dirs[count] = dir;
    ends[count++] = used;
  }

  @Override
  public boolean hasNext() {
    while (at == count) {
      at = 0;
      count = 0;
      used = 0;
      if (in.hasNext()) {
        in.next()._2().lines(task, this); // a chunk's records, buffered, then handed out
      } else if (!finished) {
        finished = true;
        task.finish(this);
        done.run();
      } else {
        return false;
      }
    }
    return true;
  }

  @Override
  public Tuple2<String, Record> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    int i = at++;
    record.b = buf;
    record.off = i == 0 ? 0 : ends[i - 1];
    record.len = ends[i] - record.off;
    String dir = dirs[i];
    return dir == COUNTS ? toCounts : dir.isEmpty() ? toOutput : toRejects;
  }
}
