/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one input split of a distributed build ({@code build-index} on Spark) parsed into, for the
 * builds whose rows meet on the driver in input order (ranges, products): where the split lies in
 * the input, its line counts and every line it rejected. The subclasses carry the rows.
 */
@Internal
public abstract class SplitPart implements Serializable, Cloneable {
  private static final long serialVersionUID = 1L;

  /** The input's index among the build's inputs. */
  public final int file;

  /** The split's first byte in its input. */
  public final long start;

  final long lines;
  final long skipped;

  /** Rejected lines by reason. */
  public final Map<String, Long> rejectCounts = new TreeMap<>();

  /** The first rejected line, as the one-machine build's messages show it; {@code null} if none. */
  public final String firstReject;

  private byte[] rejectRecords;

  SplitPart(
      int file, long start, long lines, long skipped, SplitFeed feed, Map<String, Long> rejects) {
    this.file = file;
    this.start = start;
    this.lines = lines;
    this.skipped = skipped;
    this.rejectCounts.putAll(rejects);
    this.firstReject = feed.firstReject();
    this.rejectRecords = feed.rejectRecords();
  }

  /** The rejected lines. */
  public final long rejected() {
    long n = 0;
    for (long c : rejectCounts.values()) {
      n += c;
    }
    return n;
  }

  /**
   * The reject records ({@code source<TAB>offset<TAB>reason<TAB>detail<TAB>line}) as one text of
   * lines without the last line's LF.
   */
  public final byte[] rejectRecordsWithoutLastLf() {
    return SplitFeed.withoutLastLf(rejectRecords);
  }

  /**
   * A copy of this part without its reject records (the executors write those), for the driver. A
   * copy, not this part: a cached part must keep its records for the rejects output.
   */
  @SuppressWarnings("unchecked")
  public final <P extends SplitPart> P withoutRejectRecords() {
    try {
      SplitPart p = (SplitPart) clone();
      p.rejectRecords = new byte[0];
      return (P) p;
    } catch (CloneNotSupportedException e) {
      throw new AssertionError("a SplitPart is Cloneable", e);
    }
  }
}
