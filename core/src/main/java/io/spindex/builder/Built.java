/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.index.IndexHeader;
import io.spindex.index.IndexWriter;
import io.spindex.text.InputException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a build has assembled before it is written: the same for every kind of index. */
final class Built {
  IndexWriter writer;
  final Map<String, Long> counts = new LinkedHashMap<>();
  Rejects rejects;
  final List<String> notes = new ArrayList<>();

  /** Lines rejected while parsing elsewhere, before {@link #rejects} (a distributed build's). */
  long rejectedBefore;

  final Map<String, Long> phases = new LinkedHashMap<>();

  /**
   * Writes the index atomically to {@code output} and reports the build. A build that accepted no
   * line writes nothing, unless {@code allowEmpty} ({@link Assembled#empty}).
   *
   * @param started when the build started ({@link System#nanoTime()})
   */
  BuildReport writeTo(List<Path> inputs, Path output, long started, boolean allowEmpty)
      throws IOException {
    if (!Assembled.reconciles(counts)) {
      throw new IllegalStateException(output + ": " + Assembled.unreconciled(counts));
    }
    if (!allowEmpty && counts.get("accepted") == 0) {
      List<String> sources = new ArrayList<>();
      for (Path p : inputs) {
        sources.add(p.toString());
      }
      Map<String, Long> byReason = new LinkedHashMap<>(rejects.counts());
      throw new InputException(
          Assembled.nothingAccepted(
              counts,
              byReason,
              rejects.samples().isEmpty() ? null : rejects.samples().get(0).toString(),
              sources,
              output.toString(),
              java.nio.file.Files.exists(output)));
    }
    long t1 = System.nanoTime();
    IndexHeader h = writer.writeTo(output);
    long t2 = System.nanoTime();
    phases.put("write", t2 - t1);
    return new BuildReport(counts, rejects, notes, h, phases, t2 - started);
  }
}
