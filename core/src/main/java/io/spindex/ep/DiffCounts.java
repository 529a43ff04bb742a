/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.annotations.Internal;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an ep-diff did: {@code in = inserted + updated + unchanged + rejected} for today's rows;
 * {@code out = inserted + updated + deleted} rows written. One per task, merged with {@link #add}.
 */
@Internal
public final class DiffCounts implements Serializable {
  private static final long serialVersionUID = 1L;

  long in;
  long inserted;
  long updated;
  long unchanged;
  long rejected;
  long deleted;

  /** Rejected rows whose id was still read: yesterday's product is kept, not deleted. */
  long rejectedKnownId;

  private final Map<String, Long> reasons = new TreeMap<>();

  void reject(String reason) {
    rejected++;
    reasons.merge(reason, 1L, Long::sum);
  }

  /** Adds {@code other}'s counts to these. */
  public void add(DiffCounts other) {
    in += other.in;
    inserted += other.inserted;
    updated += other.updated;
    unchanged += other.unchanged;
    rejected += other.rejected;
    deleted += other.deleted;
    rejectedKnownId += other.rejectedKnownId;
    other.reasons.forEach((k, v) -> reasons.merge(k, v, Long::sum));
  }

  /** Adds D rows written after the bitmaps were merged. */
  public void addDeleted(long n) {
    deleted += n;
  }

  public long in() {
    return in;
  }

  public long inserted() {
    return inserted;
  }

  public long updated() {
    return updated;
  }

  public long unchanged() {
    return unchanged;
  }

  public long rejected() {
    return rejected;
  }

  public long deleted() {
    return deleted;
  }

  /** Summary rows written: I + U + D. */
  public long out() {
    return inserted + updated + deleted;
  }

  public Map<String, Long> reasons() {
    return Collections.unmodifiableMap(reasons);
  }

  /** Whether today's rows add up: {@code in = I + U + unchanged + rejected}, reasons included. */
  public boolean reconciles() {
    long byReason = 0;
    for (long v : reasons.values()) {
      byReason += v;
    }
    return in == inserted + updated + unchanged + rejected && byReason == rejected;
  }

  /** The counts that {@link #asMap} gave (added up by name over tasks); other names are ignored. */
  public static DiffCounts of(Map<String, Long> m) {
    DiffCounts c = new DiffCounts();
    c.in = m.getOrDefault("rows in", 0L);
    c.inserted = m.getOrDefault("inserted (I)", 0L);
    c.updated = m.getOrDefault("updated (U)", 0L);
    c.unchanged = m.getOrDefault("unchanged", 0L);
    c.rejected = m.getOrDefault("rows rejected", 0L);
    c.rejectedKnownId = m.getOrDefault("rejected, id known (kept)", 0L);
    c.deleted = m.getOrDefault("deleted (D)", 0L);
    for (Map.Entry<String, Long> e : m.entrySet()) {
      if (e.getKey().startsWith("rejected ")) {
        c.reasons.put(e.getKey().substring("rejected ".length()), e.getValue());
      }
    }
    return c;
  }

  /** All counts by name, in display order. */
  public Map<String, Long> asMap() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("rows in", in);
    m.put("inserted (I)", inserted);
    m.put("updated (U)", updated);
    m.put("unchanged", unchanged);
    m.put("rows rejected", rejected);
    reasons.forEach((k, v) -> m.put("rejected " + k, v));
    m.put("rejected, id known (kept)", rejectedKnownId);
    m.put("deleted (D)", deleted);
    m.put("rows out", out());
    return m;
  }

  public String format() {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Long> e : asMap().entrySet()) {
      String k = e.getKey();
      String indent = k.startsWith("rejected ") ? "  " : "";
      sb.append(String.format(Locale.ROOT, "%-44s %,14d%n", indent + k, e.getValue()));
    }
    return sb.toString();
  }
}
