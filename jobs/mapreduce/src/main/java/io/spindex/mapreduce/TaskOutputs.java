/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.job.RecordSink;
import io.spindex.job.Route;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;

/**
 * A task's {@link RecordSink}: records through {@link MultipleOutputs} (the main output under
 * {@code base}, rejects under {@code _rejects/}), per-key counts to the map output. The record loop
 * has no checked exceptions, so an I/O failure travels as {@link UncheckedIOException}; the task
 * unwraps it ({@link #rethrow}). Not thread-safe.
 */
final class TaskOutputs implements RecordSink {
  final MultipleOutputs<Writable, Writable> mos;
  private final TaskInputOutputContext<?, ?, Writable, Writable> context;
  private final String base;
  private final Text text = new Text();
  private final Text key = new Text();
  private final LongWritable n = new LongWritable();

  TaskOutputs(TaskInputOutputContext<?, ?, Writable, Writable> context, String base) {
    this.context = context;
    this.base = base;
    this.mos = new MultipleOutputs<>(context);
  }

  private interface Write {
    void run() throws IOException, InterruptedException;
  }

  private static void unchecked(Write w) {
    try {
      w.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new InterruptedIOException(e.getMessage()));
    }
  }

  /** The I/O failure behind {@code e}, to throw from the task. */
  static IOException rethrow(UncheckedIOException e) {
    return e.getCause();
  }

  @Override
  public void write(Route route, byte[] b, int off, int len) {
    text.set(b, off, len);
    if (route == Route.OUTPUT) {
      unchecked(() -> mos.write(LineJobMapper.OUTPUT, NullWritable.get(), text, base));
    } else {
      unchecked(
          () -> mos.write(LineJobMapper.REJECTS, NullWritable.get(), text, route.dir() + "part"));
    }
  }

  @Override
  public void count(byte[] label, long count) {
    key.set(label, 0, label.length);
    n.set(count);
    unchecked(() -> context.write(key, n));
  }
}
