/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

/**
 * Which worker downloads which bytes. The missing ranges are cut into about {@code parallel} pieces
 * of equal size; a worker that runs out of pieces takes over the upper half of the largest range
 * another worker is still on (as aria2 does), so that a slow connection does not hold up the end.
 * With equal connections that means exactly one request per connection. Thread-safe.
 */
final class Plan {
  private final List<Segment> all = new ArrayList<>();
  private final Deque<Segment> unassigned = new ArrayDeque<>();
  private final List<Segment> active = new ArrayList<>();
  private final long minSplit;

  /**
   * @param missing ranges {start, end} still to download, in file order, not empty
   * @param parallel the number of workers
   * @param minSplit the smallest piece worth a request of its own, in bytes
   */
  Plan(List<long[]> missing, int parallel, long minSplit) {
    this.minSplit = minSplit;
    long total = 0;
    for (long[] r : missing) {
      total += r[1] - r[0];
    }
    long piece = Math.max(minSplit, (total + parallel - 1) / parallel);
    for (long[] r : missing) {
      long len = r[1] - r[0];
      long pieces = Math.max(1, (len + piece - 1) / piece);
      for (long i = 0; i < pieces; i++) {
        long s = r[0] + len * i / pieces;
        long e = r[0] + len * (i + 1) / pieces;
        Segment seg = new Segment(s, e);
        all.add(seg);
        unassigned.add(seg);
      }
    }
  }

  /** Takes the first piece, the one a response to {@code Range: bytes=start-} already covers. */
  synchronized Segment takeFirst() {
    Segment s = unassigned.removeFirst();
    active.add(s);
    return s;
  }

  /** The next piece for a worker that finished {@code done} (null at the start), or null: stop. */
  synchronized Segment next(Segment done) {
    if (done != null) {
      active.remove(done);
    }
    Segment s = unassigned.pollFirst();
    if (s == null) {
      Segment victim = null;
      for (Segment a : active) {
        if (victim == null || a.remaining() > victim.remaining()) {
          victim = a;
        }
      }
      s = victim == null ? null : victim.splitOff(minSplit);
      if (s != null) {
        all.add(s);
      }
    }
    if (s != null) {
      active.add(s);
    }
    return s;
  }

  /** What is still missing, in file order: the content of the resume state. */
  synchronized List<long[]> missing() {
    List<long[]> m = new ArrayList<>();
    for (Segment s : all) {
      long[] r = s.missing();
      if (r != null) {
        m.add(r);
      }
    }
    m.sort(Comparator.comparingLong(r -> r[0]));
    return m;
  }

  /** Number of pieces, including those split off. */
  synchronized int pieces() {
    return all.size();
  }
}
