/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.annotations.Internal;
import io.spindex.text.RejectReason;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Line and lookup counts of one task (or, added up, of one job). Every line read is exactly one of:
 * written ({@link #linesOut}), left out by the filter ({@link #filtered}), counted in count mode
 * ({@link #counted}) or rejected; {@link #balanced()} checks that. Not thread-safe.
 */
@Internal
public final class LookupCounts {
  private static final String LINES_IN = "lines in";
  private static final String LINES_OUT = "lines out";
  private static final String FILTERED = "lines filtered out";
  private static final String COUNTED = "lines counted";
  private static final String LOOKUPS = "lookups";
  private static final String HITS = "hits";
  private static final String IPV6_LOOKUPS = "ipv6 lookups";
  private static final String IPV6_HITS = "ipv6 hits";
  private static final String REJECTS_PREFIX = "rejects ";

  long linesIn;
  long linesOut;
  long filtered;
  long counted;
  long lookups;
  long hits;
  long ipv6Lookups;
  long ipv6Hits;
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

  /** Lookups of IPv6 addresses (included in {@link #lookups}; the rest are IPv4). */
  public long ipv6Lookups() {
    return ipv6Lookups;
  }

  /** IPv6 lookups that found the address (included in {@link #hits}). */
  public long ipv6Hits() {
    return ipv6Hits;
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

  /** Rejects by reason label, in {@link RejectReason#LOOKUP} order, zero counts included. */
  public Map<String, Long> rejectsByReason() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (RejectReason r : RejectReason.LOOKUP) {
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

  /**
   * The balance as a person reads it, e.g. {@code 10 in = 7 out + 2 filtered out + 1 rejected} (the
   * Spark and MapReduce job summaries print this line).
   */
  public String balanceText(LookupMode mode) {
    String rhs;
    switch (mode) {
      case FILTER:
        rhs = linesOut + " out + " + filtered + " filtered out";
        break;
      case COUNT:
        rhs = counted + " counted";
        break;
      default:
        rhs = linesOut + " out";
    }
    return linesIn + " in = " + rhs + " + " + rejected() + " rejected";
  }

  /** Adds {@code other} into this. */
  public LookupCounts add(LookupCounts other) {
    linesIn += other.linesIn;
    linesOut += other.linesOut;
    filtered += other.filtered;
    counted += other.counted;
    lookups += other.lookups;
    hits += other.hits;
    ipv6Lookups += other.ipv6Lookups;
    ipv6Hits += other.ipv6Hits;
    for (int i = 0; i < rejects.length; i++) {
      rejects[i] += other.rejects[i];
    }
    return this;
  }

  /**
   * Every count by name (the names of the job summaries, accumulators and counters), rejects by
   * reason included: what a task hands its engine, and what {@link #fromMap} reads back.
   */
  public Map<String, Long> asMap() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put(LINES_IN, linesIn);
    m.put(LINES_OUT, linesOut);
    m.put(FILTERED, filtered);
    m.put(COUNTED, counted);
    m.put(LOOKUPS, lookups);
    m.put(HITS, hits);
    m.put(IPV6_LOOKUPS, ipv6Lookups);
    m.put(IPV6_HITS, ipv6Hits);
    for (RejectReason r : RejectReason.LOOKUP) {
      m.put(REJECTS_PREFIX + r.label(), rejects[r.ordinal()]);
    }
    return m;
  }

  /** The counts named in {@code m} as {@link #asMap} names them (missing ones are zero). */
  public static LookupCounts fromMap(Map<String, Long> m) {
    LookupCounts c = new LookupCounts();
    c.linesIn = m.getOrDefault(LINES_IN, 0L);
    c.linesOut = m.getOrDefault(LINES_OUT, 0L);
    c.filtered = m.getOrDefault(FILTERED, 0L);
    c.counted = m.getOrDefault(COUNTED, 0L);
    c.lookups = m.getOrDefault(LOOKUPS, 0L);
    c.hits = m.getOrDefault(HITS, 0L);
    c.ipv6Lookups = m.getOrDefault(IPV6_LOOKUPS, 0L);
    c.ipv6Hits = m.getOrDefault(IPV6_HITS, 0L);
    for (RejectReason r : RejectReason.LOOKUP) {
      c.rejects[r.ordinal()] = m.getOrDefault(REJECTS_PREFIX + r.label(), 0L);
    }
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
        + hits
        + " ipv6Lookups="
        + ipv6Lookups
        + " ipv6Hits="
        + ipv6Hits;
  }
}
