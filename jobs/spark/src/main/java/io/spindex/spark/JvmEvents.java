/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.spark.side.JvmEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** Renders {@link JvmEvent}s as report table rows, one per event, by executor. */
final class JvmEvents {
  static final List<String> COLUMNS =
      Arrays.asList("executor", "host", "pid", "event", "loader/source", "ms", "bytes", "crc32c");

  private JvmEvents() {}

  static List<List<Object>> rows(List<JvmEvent> events) {
    List<JvmEvent> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparing((JvmEvent e) -> e.executorId).thenComparing(e -> e.what));
    List<List<Object>> rows = new ArrayList<>();
    for (JvmEvent e : sorted) {
      rows.add(
          Arrays.<Object>asList(
              e.executorId,
              e.host,
              e.pid,
              e.what,
              e.loader,
              e.millis(),
              e.bytes,
              e.headerCrc == null ? "" : e.headerCrc));
    }
    return rows;
  }
}
