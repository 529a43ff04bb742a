/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.lookup.LookupCounts;
import io.spindex.lookup.Report;
import io.spindex.spark.side.JvmEvent;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What a job run returns to its caller (the launcher prints the report; tests assert on all). */
final class JobResult {
  final Report report;

  /** The job's counts added up over its tasks, by name. */
  final Map<String, Long> totals;

  final List<JvmEvent> jvmEvents;
  final Map<String, Long> tasksByExecutor;
  final boolean ok;

  JobResult(
      Report report,
      Map<String, Long> totals,
      List<JvmEvent> jvmEvents,
      Map<String, Long> tasksByExecutor,
      boolean ok) {
    this.report = report;
    this.totals = Collections.unmodifiableMap(new TreeMap<>(totals));
    this.jvmEvents = Collections.unmodifiableList(jvmEvents);
    this.tasksByExecutor = Collections.unmodifiableMap(tasksByExecutor);
    this.ok = ok;
  }

  /** ip-lookup's counts, read from {@link #totals}. */
  LookupCounts counts() {
    return LookupCounts.fromMap(totals);
  }
}
