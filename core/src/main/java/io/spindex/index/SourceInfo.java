/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What an index's sources said of themselves (section {@code source_info}): when they were built
 * ({@value #SOURCE_TIME}, a line of the index as a whole, before any source's lines), and for each
 * MaxMind database a build read, its file name ({@code source}) and metadata ({@code
 * database_type}, {@code build_epoch}, {@code description.en}, {@code languages}, {@code
 * ip_version}, {@code networks}). UTF-8 lines of {@code key TAB value}, a {@code source} line
 * opening each source's lines; a value's backslash, tab and line feed are written {@code \\},
 * {@code \t} and {@code \n}. Immutable.
 */
public final class SourceInfo {
  /** No information. */
  public static final SourceInfo NONE = new SourceInfo(List.of());

  /**
   * The key of when the sources were built, ISO-8601 UTC to the second ({@code
   * 2026-10-19T03:00:00Z}): a MaxMind database's {@code build_epoch}, else the newest modification
   * time of the source files (what {@code spindex update} knows better, such as an HTTP {@code
   * Last-Modified}, replaces it), never later than the index's created time. The index's first
   * line, before any {@code source} line.
   */
  public static final String SOURCE_TIME = "source_time";

  private final List<Map.Entry<String, String>> entries;

  private SourceInfo(List<Map.Entry<String, String>> entries) {
    this.entries = Collections.unmodifiableList(entries);
  }

  /** Builds the entries in order (for the builders). */
  @Internal
  public static final class Builder {
    private final List<Map.Entry<String, String>> entries = new ArrayList<>();

    public Builder put(String key, String value) {
      if (key.isEmpty() || key.contains("\t") || key.contains("\n")) {
        throw new IllegalArgumentException("source info key: '" + key + "'");
      }
      entries.add(new AbstractMap.SimpleImmutableEntry<>(key, value));
      return this;
    }

    public SourceInfo build() {
      return entries.isEmpty() ? NONE : new SourceInfo(new ArrayList<>(entries));
    }
  }

  public List<Map.Entry<String, String>> entries() {
    return entries;
  }

  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /**
   * When the sources were built ({@value #SOURCE_TIME}), in milliseconds since the epoch (UTC), or
   * -1 when the index does not say (a file written before the key was, or by another writer). A
   * value that is not a time is an {@link IllegalArgumentException} (a loader refuses the file).
   */
  public long sourceTimeMillis() {
    for (Map.Entry<String, String> e : entries) {
      if (e.getKey().equals(SOURCE_TIME)) {
        return parseTime(e.getValue());
      }
    }
    return -1;
  }

  /**
   * These entries with {@value #SOURCE_TIME} set to {@code millis} (to the second, rounded down),
   * as the first line; any other {@value #SOURCE_TIME} line dropped.
   */
  public SourceInfo withSourceTime(long millis) {
    List<Map.Entry<String, String>> out = new ArrayList<>();
    out.add(new AbstractMap.SimpleImmutableEntry<>(SOURCE_TIME, timeText(millis)));
    for (Map.Entry<String, String> e : entries) {
      if (!e.getKey().equals(SOURCE_TIME)) {
        out.add(e);
      }
    }
    return new SourceInfo(out);
  }

  /** {@code millis} as {@value #SOURCE_TIME} writes it: ISO-8601 UTC, whole seconds. */
  public static String timeText(long millis) {
    return Instant.ofEpochSecond(Math.floorDiv(millis, 1000L)).toString();
  }

  /** What a {@value #SOURCE_TIME} value must be, as messages say. */
  static final String TIME_FORM = "ISO-8601 UTC (2026-10-19T03:00:00Z)";

  /** A {@value #SOURCE_TIME} value in milliseconds; {@link IllegalArgumentException} if not one. */
  static long parseTime(String text) {
    try {
      return Instant.parse(text).toEpochMilli();
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new IllegalArgumentException(
          SOURCE_TIME + ": expected " + TIME_FORM + ", found '" + text + "'", e);
    }
  }

  /** The section's bytes. */
  public byte[] bytes() {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> e : entries) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(e.getKey()).append('\t');
      String v = e.getValue();
      for (int i = 0; i < v.length(); i++) {
        char c = v.charAt(i);
        sb.append(c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : String.valueOf(c));
      }
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The entries of a section's text; a line without a tab is an {@link IllegalArgumentException}.
   */
  static SourceInfo parse(String text) {
    Builder b = new Builder();
    if (text.isEmpty()) {
      return NONE;
    }
    for (String line : text.split("\n", -1)) {
      int tab = line.indexOf('\t');
      if (tab <= 0) {
        throw new IllegalArgumentException("a line 'key<TAB>value', found '" + line + "'");
      }
      StringBuilder v = new StringBuilder();
      for (int i = tab + 1; i < line.length(); i++) {
        char c = line.charAt(i);
        if (c == '\\' && i + 1 < line.length()) {
          char n = line.charAt(++i);
          v.append(n == 't' ? '\t' : n == 'n' ? '\n' : n);
        } else {
          v.append(c);
        }
      }
      b.put(line.substring(0, tab), v.toString());
    }
    return b.build();
  }
}
