/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexWriter;
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
