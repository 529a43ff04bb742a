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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an EP job did, as counts that reconcile: {@code in = out + rejected}, and {@code rejected}
 * is the sum over reasons. Rows removed by a filter step are rejects too (reason {@code
 * filtered:...}): every input row not in the output is in the rejects output with its reason. Per
 * step: rows it changed and rows it rejected. One per thread or task, merged with {@link #add};
 * serializable so that engines can ship it (a Spark accumulator, a Hadoop counter group).
 */
@Internal
public final class EpCounts implements Serializable {
  private static final long serialVersionUID = 1L;

  long in;
  long out;
  long rejected;
  private final Map<String, Long> reasons = new TreeMap<>();
  private final Map<String, long[]> steps = new LinkedHashMap<>();

  /** The same arrays as {@link #steps}, by position, for the per-row path. */
  private transient long[][] byIndex;

  /** Counts for a job whose steps are called {@code stepLabels} (may be empty). */
  public EpCounts(List<String> stepLabels) {
    for (String s : stepLabels) {
      steps.put(s, new long[2]);
    }
  }

  void reject(String reason) {
    rejected++;
    reasons.merge(reason, 1L, Long::sum);
  }

  /** Counts a row step's result; {@code step} is the index of its label in the constructor's. */
  void step(int step, int result) {
    if (result > 0) {
      if (byIndex == null) {
        byIndex = steps.values().toArray(new long[0][]);
      }
      byIndex[step][result - 1]++;
    }
  }

  /** Adds {@code other}'s counts to these. */
  public void add(EpCounts other) {
    in += other.in;
    out += other.out;
    rejected += other.rejected;
    other.reasons.forEach((k, v) -> reasons.merge(k, v, Long::sum));
    other.steps.forEach(
        (k, v) -> {
          long[] mine = steps.computeIfAbsent(k, x -> new long[2]);
          mine[0] += v[0];
          mine[1] += v[1];
        });
  }

  /** Data rows read (the header line not included). */
  public long in() {
    return in;
  }

  /** Rows written. */
  public long out() {
    return out;
  }

  /** Rows not written, each for a reason. */
  public long rejected() {
    return rejected;
  }

  /** Rejects by reason, sorted by reason. */
  public Map<String, Long> reasons() {
    return Collections.unmodifiableMap(reasons);
  }

  /** Rows a step changed. */
  public long changed(String step) {
    long[] c = steps.get(step);
    return c == null ? 0 : c[0];
  }

  /** Rows a step rejected. */
  public long rejectedBy(String step) {
    long[] c = steps.get(step);
    return c == null ? 0 : c[1];
  }

  /** Whether {@code in = out + rejected} and the reasons add up. */
  public boolean reconciles() {
    long byReason = 0;
    for (long v : reasons.values()) {
      byReason += v;
    }
    return in == out + rejected && byReason == rejected;
  }

  /** The counts that {@link #asMap} gave (added up by name over tasks); other names are ignored. */
  public static EpCounts of(List<String> stepLabels, Map<String, Long> m) {
    EpCounts c = new EpCounts(stepLabels);
    c.in = m.getOrDefault("rows in", 0L);
    c.out = m.getOrDefault("rows out", 0L);
    c.rejected = m.getOrDefault("rows rejected", 0L);
    for (Map.Entry<String, Long> e : m.entrySet()) {
      String k = e.getKey();
      if (k.startsWith("rejected ")) {
        c.reasons.put(k.substring("rejected ".length()), e.getValue());
      }
    }
    c.steps.forEach(
        (k, v) -> {
          v[0] = m.getOrDefault("step " + k + " changed", 0L);
          v[1] = m.getOrDefault("step " + k + " rejected", 0L);
        });
    return c;
  }

  /** All counts as name/value pairs, in display order (for summaries and engine counters). */
  public Map<String, Long> asMap() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("rows in", in);
    m.put("rows out", out);
    m.put("rows rejected", rejected);
    reasons.forEach((k, v) -> m.put("rejected " + k, v));
    steps.forEach(
        (k, v) -> {
          m.put("step " + k + " changed", v[0]);
          m.put("step " + k + " rejected", v[1]);
        });
    return m;
  }

  /** A summary table: rows, rejects by reason, then one line per step (changed, rejected). */
  public String format() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%-44s %,14d%n", "rows in", in));
    sb.append(String.format(Locale.ROOT, "%-44s %,14d%n", "rows out", out));
    sb.append(String.format(Locale.ROOT, "%-44s %,14d%n", "rows rejected", rejected));
    reasons.forEach(
        (k, v) -> sb.append(String.format(Locale.ROOT, "%-44s %,14d%n", "  rejected " + k, v)));
    steps.forEach(
        (k, v) ->
            sb.append(
                String.format(
                    Locale.ROOT,
                    "%-30s changed %,10d  rejected %,10d%n",
                    "  step " + k,
                    v[0],
                    v[1])));
    return sb.toString();
  }
}
