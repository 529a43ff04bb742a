/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexHeader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a build did, as numbers that reconcile: {@code lines = skipped + accepted + rejected}, and
 * for sets {@code accepted = rows + duplicates}; in a product index a row whose id came before is a
 * {@code duplicate-id} reject. Immutable.
 */
@Internal
public final class BuildReport {
  private final Map<String, Long> counts;
  private final Map<String, Long> rejectsByReason;
  private final List<String> rejectSamples;
  private final List<String> notes;
  private final IndexHeader header;
  private final long elapsedNanos;
  private final Map<String, Long> phaseNanos;

  BuildReport(
      Map<String, Long> counts,
      Rejects rejects,
      List<String> notes,
      IndexHeader header,
      Map<String, Long> phaseNanos,
      long elapsedNanos) {
    this.phaseNanos = Collections.unmodifiableMap(new LinkedHashMap<>(phaseNanos));
    this.counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
    this.rejectsByReason = rejects.counts();
    List<String> samples = new ArrayList<>();
    for (Rejects.Sample s : rejects.samples()) {
      samples.add(s.toString());
    }
    this.rejectSamples = Collections.unmodifiableList(samples);
    this.notes = Collections.unmodifiableList(new ArrayList<>(notes));
    this.header = header;
    this.elapsedNanos = elapsedNanos;
  }

  /** Named counts in a fixed order: lines, skipped, accepted, rejected, then kind-specific ones. */
  public Map<String, Long> counts() {
    return counts;
  }

  public long count(String name) {
    Long v = counts.get(name);
    return v == null ? 0 : v;
  }

  /** Rejected lines by reason, e.g. {@code not-ipv4 -> 12}. */
  public Map<String, Long> rejectsByReason() {
    return rejectsByReason;
  }

  /** The first few rejected lines as {@code file:line: reason: 'text'}. */
  public List<String> rejectSamples() {
    return rejectSamples;
  }

  /** Things the build decided that a user should know (a skipped header, a detected delimiter). */
  public List<String> notes() {
    return notes;
  }

  /** The header of the written index ({@code null} for an in-memory build). */
  public IndexHeader header() {
    return header;
  }

  public long elapsedNanos() {
    return elapsedNanos;
  }

  /** Wall time of each phase (read, sort, write ...), in nanoseconds, in order. */
  public Map<String, Long> phaseNanos() {
    return phaseNanos;
  }

  /** A human-readable summary table. */
  public String format() {
    StringBuilder sb = new StringBuilder();
    for (String n : notes) {
      sb.append("note: ").append(n).append('\n');
    }
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      sb.append(String.format(Locale.ROOT, "%-22s %,15d%n", e.getKey(), e.getValue()));
    }
    for (Map.Entry<String, Long> e : rejectsByReason.entrySet()) {
      sb.append(String.format(Locale.ROOT, "  rejected %-19s %,10d%n", e.getKey(), e.getValue()));
    }
    if (header != null) {
      sb.append(String.format(Locale.ROOT, "%-22s %,15d%n", "index bytes", header.fileLength()));
      sb.append(
          String.format(Locale.ROOT, "%-22s %s%n", "source sha256", header.sourceDigestHex()));
    }
    StringBuilder phases = new StringBuilder();
    for (Map.Entry<String, Long> e : phaseNanos.entrySet()) {
      phases.append(phases.length() == 0 ? " (" : ", ");
      phases.append(String.format(Locale.ROOT, "%s %.3f", e.getKey(), e.getValue() / 1e9));
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "%-22s %15.3f%s%n",
            "elapsed s",
            elapsedNanos / 1e9,
            phases.length() == 0 ? "" : phases.append(')')));
    return sb.toString();
  }
}
