/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.text.Clip;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rejected lines of one reader (one thread): counts by reason and the first few lines as samples.
 * Readers of consecutive pieces of a file are merged in order, so samples stay in file order.
 */
final class Rejects {
  /** Samples kept for messages. */
  static final int MAX_SAMPLES = 5;

  private static final int MAX_SAMPLE_BYTES = 80;

  /** One rejected line, positioned within its reader; {@link #line} is fixed up after merging. */
  static final class Sample {
    final String file;
    long line;
    final String reason;
    final String text;

    Sample(String file, long line, String reason, String text) {
      this.file = file;
      this.line = line;
      this.reason = reason;
      this.text = text;
    }

    @Override
    public String toString() {
      return file + ":" + line + ": " + reason + ": '" + text + "'";
    }
  }

  private final Map<String, Long> counts = new TreeMap<>();
  private final List<Sample> samples = new ArrayList<>();
  private long total;

  /** Told of every rejected line (a distributed build writes them all, not only samples). */
  interface Listener {
    void rejected(String reason, String file, long line, byte[] b, int from, int to);
  }

  private Listener listener;

  Rejects listener(Listener l) {
    this.listener = l;
    return this;
  }

  /** Records a rejected line; {@code line} is 1-based within what this reader read. */
  void add(String reason, String file, long line, byte[] b, int from, int to) {
    if (listener != null) {
      listener.rejected(reason, file, line, b, from, to);
    }
    counts.merge(reason, 1L, Long::sum);
    total++;
    if (samples.size() < MAX_SAMPLES) {
      samples.add(new Sample(file, line, reason, snippet(b, from, to)));
    }
  }

  /** Adds another reader's rejects; its line numbers are shifted by {@code lineOffset}. */
  void addAll(Rejects other, long lineOffset) {
    other.counts.forEach((k, v) -> counts.merge(k, v, Long::sum));
    total += other.total;
    for (Sample s : other.samples) {
      if (samples.size() < MAX_SAMPLES) {
        s.line += lineOffset;
        samples.add(s);
      }
    }
  }

  long total() {
    return total;
  }

  Map<String, Long> counts() {
    return Collections.unmodifiableMap(counts);
  }

  List<Sample> samples() {
    return Collections.unmodifiableList(samples);
  }

  static String snippet(byte[] b, int from, int to) {
    int end = to;
    while (end > from && (b[end - 1] == '\r' || b[end - 1] == '\n')) {
      end--;
    }
    boolean cut = end - from > MAX_SAMPLE_BYTES;
    String s = new String(b, from, Math.min(end - from, MAX_SAMPLE_BYTES), StandardCharsets.UTF_8);
    // Control characters escaped (\t, \x1f), so that the message stays one line that says what
    // the line held.
    String e = Clip.of(s, Integer.MAX_VALUE);
    return cut ? e + "..." : e;
  }
}
