/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.side;

import io.spindex.annotations.Internal;
import io.spindex.index.load.IndexHolder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.spark.TaskContext;

/**
 * Once-per-JVM events (index staged, index loaded) waiting to be reported through accumulators.
 *
 * <p>Why a queue and not "the loading task adds 1": Spark drops the accumulator updates of a failed
 * task, and the load it did is never repeated in that JVM. So each task takes whatever is pending
 * when it starts and, if it fails, puts it back for the next task on this JVM. A load is therefore
 * counted once per JVM, by the first task after it that succeeds. Thread-safe.
 */
@Internal
public final class Ledger {
  private static final ConcurrentLinkedQueue<JvmEvent> PENDING = new ConcurrentLinkedQueue<>();

  private Ledger() {}

  /** Records a load that this JVM did (call only when {@code loadedByThisCall()}). */
  public static void loaded(IndexHolder.Acquired a, String loader) {
    PENDING.add(
        new JvmEvent(
            JvmEvent.LOAD,
            loader,
            a.loadNanos(),
            a.bytes(),
            String.format("%08x", a.index().header().headerCrc32c())));
  }

  /** Records a copy of the index to local disk. */
  static void staged(String source, long bytes, long nanos) {
    PENDING.add(new JvmEvent(JvmEvent.STAGE, source, nanos, bytes, null));
  }

  /** Takes the pending events for the current task; they go back to the queue if the task fails. */
  public static List<JvmEvent> takeForTask(TaskContext task) {
    List<JvmEvent> taken = new ArrayList<>();
    for (JvmEvent e = PENDING.poll(); e != null; e = PENDING.poll()) {
      taken.add(e);
    }
    if (!taken.isEmpty() && task != null) {
      task.addTaskFailureListener(
          new org.apache.spark.util.TaskFailureListener() {
            @Override
            public void onTaskFailure(TaskContext context, Throwable error) {
              PENDING.addAll(taken);
            }
          });
    }
    return taken;
  }
}
