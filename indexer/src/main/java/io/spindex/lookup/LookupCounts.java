/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Line and lookup counts of one task (or, added up, of one job). Every line read is exactly one of:
 * written ({@link #linesOut}), left out by the filter ({@link #filtered}), counted in count mode
 * ({@link #counted}) or rejected; {@link #balanced()} checks that. Not thread-safe.
 */
public final class LookupCounts {
  long linesIn;
  long linesOut;
  long filtered;
  long counted;
  long lookups;
  long hits;
  final long[] rejects = new long[RejectReason.values().length];

  /** Lines read. */
  public long linesIn() {
    return linesIn;
  }

  /** Lines written to the main output (annotate, filter). */
  public long linesOut() {
    return linesOut;
  }

  /** Lines whose address was looked up but which the filter left out. */
  public long filtered() {
    return filtered;
  }

  /** Lines counted under a label (count mode). */
  public long counted() {
    return counted;
  }

  /** Addresses looked up (lines not rejected). */
  public long lookups() {
    return lookups;
  }

  /** Lookups that found the address in the set or in a range. */
  public long hits() {
    return hits;
  }

  /** Lookups that did not. */
  public long misses() {
    return lookups - hits;
  }

  /** Rejected lines for one reason. */
  public long rejects(RejectReason reason) {
    return rejects[reason.ordinal()];
  }

  /** Rejected lines, all reasons. */
  public long rejected() {
    long n = 0;
    for (long r : rejects) {
      n += r;
    }
    return n;
  }

  /** Rejects by reason label, in {@link RejectReason} order, zero counts included. */
  public Map<String, Long> rejectsByReason() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (RejectReason r : RejectReason.values()) {
      m.put(r.label(), rejects[r.ordinal()]);
    }
    return m;
  }

  /**
   * Whether {@code in = out + filtered + counted + rejected} and {@code lookups = in - rejected}.
   */
  public boolean balanced() {
    long rejected = rejected();
    return linesIn == linesOut + filtered + counted + rejected && lookups == linesIn - rejected;
  }

  /** Adds {@code other} into this. */
  public LookupCounts add(LookupCounts other) {
    linesIn += other.linesIn;
    linesOut += other.linesOut;
    filtered += other.filtered;
    counted += other.counted;
    lookups += other.lookups;
    hits += other.hits;
    for (int i = 0; i < rejects.length; i++) {
      rejects[i] += other.rejects[i];
    }
    return this;
  }

  /**
   * Sets every count (engines rebuild job totals from their counters with this).
   *
   * @param rejectsByOrdinal indexed by {@link RejectReason#ordinal()}
   */
  public static LookupCounts of(
      long linesIn,
      long linesOut,
      long filtered,
      long counted,
      long lookups,
      long hits,
      long[] rejectsByOrdinal) {
    LookupCounts c = new LookupCounts();
    c.linesIn = linesIn;
    c.linesOut = linesOut;
    c.filtered = filtered;
    c.counted = counted;
    c.lookups = lookups;
    c.hits = hits;
    System.arraycopy(rejectsByOrdinal, 0, c.rejects, 0, c.rejects.length);
    return c;
  }

  @Override
  public String toString() {
    return "in="
        + linesIn
        + " out="
        + linesOut
        + " filtered="
        + filtered
        + " counted="
        + counted
        + " rejected="
        + rejected()
        + " lookups="
        + lookups
        + " hits="
        + hits;
  }
}
