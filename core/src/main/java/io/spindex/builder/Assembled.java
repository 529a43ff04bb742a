/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexWriter;
import io.spindex.text.Clip;
import java.util.Map;

/** An index laid out and ready to write, with the counts of its build. */
@Internal
public final class Assembled {
  public final IndexWriter writer;

  /** The build's counts, by name, in the order its summary shows them. */
  public final Map<String, Long> counts;

  /**
   * Lines rejected while the index was assembled (duplicate product ids), as LF-terminated reject
   * records; empty when none.
   */
  public final byte[] rejectRecords;

  Assembled(IndexWriter writer, Map<String, Long> counts) {
    this(writer, counts, new byte[0]);
  }

  Assembled(IndexWriter writer, Map<String, Long> counts, byte[] rejectRecords) {
    this.writer = writer;
    this.counts = counts;
    this.rejectRecords = rejectRecords;
  }

  /**
   * Whether every line read was skipped, accepted or rejected: a build that does not writes
   * nothing.
   */
  public boolean reconciles() {
    return reconciles(counts);
  }

  static boolean reconciles(Map<String, Long> c) {
    return c.get("lines") == c.get("skipped") + c.get("accepted") + c.get("rejected");
  }

  /**
   * Whether the build accepted no line: an empty input (a failed download), every line rejected (a
   * file of another format), everything skipped. Such an index replaces a good one with nothing, so
   * builds write it only when asked to ({@code --allow-empty}).
   */
  public boolean empty() {
    return counts.get("accepted") == 0;
  }

  /**
   * What a build that accepted nothing says, in one line: the inputs, their counts, the most
   * frequent reject reasons, and that the output was left as it was. Every value is clipped.
   *
   * @param rejectsByReason rejected lines by reason (any order; the largest are named)
   * @param firstReject the first rejected line as {@code FILE:LINE: reason: 'text'}, or null
   * @param outputExists whether an older file lies at {@code output} (kept)
   */
  public static String nothingAccepted(
      Map<String, Long> counts,
      Map<String, Long> rejectsByReason,
      String firstReject,
      java.util.List<String> sources,
      String output,
      boolean outputExists) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(3, sources.size()); i++) {
      sb.append(i == 0 ? "" : ", ").append(Clip.of(sources.get(i), 80));
    }
    if (sources.size() > 3) {
      sb.append(" and ").append(sources.size() - 3).append(" more");
    }
    long lines = counts.get("lines");
    sb.append(": nothing accepted (");
    if (lines == 0) {
      sb.append(counts.getOrDefault("source bytes", 0L) == 0 ? "0 bytes" : "no lines");
    } else {
      sb.append(lines).append(lines == 1 ? " line: " : " lines: ");
      sb.append(counts.get("skipped")).append(" skipped, ");
      sb.append(counts.get("rejected")).append(" rejected");
      java.util.List<Map.Entry<String, Long>> top =
          new java.util.ArrayList<>(rejectsByReason.entrySet());
      top.sort(Map.Entry.<String, Long>comparingByValue().reversed());
      for (int i = 0; i < Math.min(3, top.size()); i++) {
        sb.append(i == 0 ? ": " : ", ")
            .append(Clip.of(top.get(i).getKey(), 40))
            .append(' ')
            .append(top.get(i).getValue());
      }
      if (firstReject != null) {
        sb.append("; first ").append(Clip.of(firstReject, 100));
      }
    }
    sb.append("); ").append(Clip.of(output, 80));
    sb.append(outputExists ? " left as it was" : " not written");
    return sb.append(" (--allow-empty writes an empty index)").toString();
  }

  /** What a build that does not reconcile says. */
  public String unreconciled() {
    return unreconciled(counts);
  }

  static String unreconciled(Map<String, Long> c) {
    return "counts do not reconcile: lines "
        + c.get("lines")
        + " != skipped "
        + c.get("skipped")
        + " + accepted "
        + c.get("accepted")
        + " + rejected "
        + c.get("rejected")
        + "; nothing written (please report)";
  }
}
