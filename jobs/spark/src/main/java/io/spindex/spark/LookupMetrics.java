/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.lookup.LookupCounts;
import io.spindex.lookup.RejectReason;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.LongAccumulator;

/**
 * The named accumulators of ip-lookup (shown in the Spark UI under these names). Registered on the
 * driver; tasks add their counts once, when their partition is done.
 *
 * <p>Exactness: Spark applies a task's accumulator updates only if the task succeeds, and for a
 * result stage (every lookup here runs in the result stage of a save) only once per partition, so
 * the line and lookup counters are exact even when tasks are retried or speculated. The index load
 * counters are exact per JVM (see {@link Ledger}): a JVM that loaded the index and then died before
 * any task of it succeeded is not counted, and a new executor that loads again is.
 */
final class LookupMetrics implements Serializable {
  private static final long serialVersionUID = 1L;

  static final String PREFIX = "spindex ";

  final LongAccumulator linesIn;
  final LongAccumulator linesOut;
  final LongAccumulator filtered;
  final LongAccumulator counted;
  final LongAccumulator lookups;
  final LongAccumulator hits;
  final LongAccumulator misses;
  final LongAccumulator[] rejects;
  final LongAccumulator indexLoads;
  final LongAccumulator loadMs;
  final LongAccumulator indexBytes;
  final LongAccumulator stageMs;
  final CollectionAccumulator<JvmEvent> events;
  final CountsByKey tasksByExecutor;

  LookupMetrics(JavaSparkContext sc, String loader) {
    linesIn = sc.sc().longAccumulator(PREFIX + "lines in");
    linesOut = sc.sc().longAccumulator(PREFIX + "lines out");
    filtered = sc.sc().longAccumulator(PREFIX + "lines filtered out");
    counted = sc.sc().longAccumulator(PREFIX + "lines counted");
    lookups = sc.sc().longAccumulator(PREFIX + "lookups");
    hits = sc.sc().longAccumulator(PREFIX + "hits");
    misses = sc.sc().longAccumulator(PREFIX + "misses");
    RejectReason[] reasons = RejectReason.values();
    rejects = new LongAccumulator[reasons.length];
    for (RejectReason r : reasons) {
      rejects[r.ordinal()] = sc.sc().longAccumulator(PREFIX + "rejects " + r.label());
    }
    indexLoads = sc.sc().longAccumulator(PREFIX + "index loads");
    loadMs = sc.sc().longAccumulator(PREFIX + "index load ms (" + loader + ")");
    indexBytes = sc.sc().longAccumulator(PREFIX + "index bytes loaded");
    stageMs = sc.sc().longAccumulator(PREFIX + "index stage ms");
    events = sc.sc().collectionAccumulator(PREFIX + "index loads by JVM");
    tasksByExecutor = new CountsByKey();
    sc.sc().register(tasksByExecutor, PREFIX + "tasks by executor");
  }

  /** In a task: adds the per-JVM events pending in this JVM (see {@link Ledger}). */
  void reportJvmEvents(TaskContext task) {
    List<JvmEvent> taken = Ledger.takeForTask(task);
    for (JvmEvent e : taken) {
      events.add(e);
      if (e.what.equals(JvmEvent.LOAD)) {
        indexLoads.add(1);
        loadMs.add(Math.round(e.millis()));
        indexBytes.add(e.bytes);
      } else {
        stageMs.add(Math.round(e.millis()));
      }
    }
  }

  /** In a task, once at the end of its partition: adds the partition's counts. */
  void add(LookupCounts c) {
    linesIn.add(c.linesIn());
    linesOut.add(c.linesOut());
    filtered.add(c.filtered());
    counted.add(c.counted());
    lookups.add(c.lookups());
    hits.add(c.hits());
    misses.add(c.misses());
    for (RejectReason r : RejectReason.values()) {
      rejects[r.ordinal()].add(c.rejects(r));
    }
    SparkEnv env = SparkEnv.get();
    tasksByExecutor.add(env == null ? "?" : env.executorId());
  }

  /** On the driver after the job: the job's totals. */
  LookupCounts totals() {
    long[] r = new long[rejects.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = rejects[i].value();
    }
    return LookupCounts.of(
        linesIn.value(),
        linesOut.value(),
        filtered.value(),
        counted.value(),
        lookups.value(),
        hits.value(),
        r);
  }
}
