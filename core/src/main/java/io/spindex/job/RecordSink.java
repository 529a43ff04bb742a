/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;

/**
 * Where a {@link LineTask} puts what it makes: records of a {@link Route}, and per-key counts that
 * the engine sums over every task (count mode's lines per label). The engine adapters implement it
 * (a Spark partition's output iterator, a Hadoop {@code Context}); tests collect into lists. The
 * bytes passed are the task's buffers, valid only during the call: copy them to keep them.
 */
@Internal
public interface RecordSink {
  /** One record {@code b[off, off + len)}, without a line end. */
  void write(Route route, byte[] b, int off, int len);

  /**
   * Where a task may append {@link Route#OUTPUT} records itself, each ended by LF, instead of
   * calling {@link #write} with a copy: the local driver's chunk buffer. Null (the default) when
   * records go through {@link #write} only. Valid during the current call into the task.
   */
  default io.spindex.ep.feed.ByteSink outputBuffer() {
    return null;
  }

  /** Adds {@code n} to the job-wide count of {@code key} (count mode's label). */
  void count(byte[] key, long n);
}
