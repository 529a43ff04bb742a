/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep.feed;

import io.spindex.annotations.Internal;
import io.spindex.text.InputException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The first line of an EP file: the field names, tab-separated, in column order. Fields are
 * addressed by name everywhere; a name this code does not know is simply another column. Immutable
 * and thread-safe.
 */
@Internal
public final class EpHeader implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final List<String> names;
  private final Map<String, Integer> index = new HashMap<>();

  private EpHeader(List<String> names) {
    this.names = Collections.unmodifiableList(new ArrayList<>(names));
    for (int i = 0; i < names.size(); i++) {
      index.put(names.get(i), i);
    }
  }

  /** A header with these names (non-empty, distinct, no tab, CR or LF). */
  public static EpHeader of(List<String> names) {
    List<String> problems = check(names);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("bad EP header: " + problems.get(0));
    }
    return new EpHeader(names);
  }

  /**
   * Parses a header line ({@code b[from, to)}, without its line end; a trailing CR and a leading
   * UTF-8 BOM are dropped). {@code where} names the source in messages, e.g. {@code feed.tsv:1}.
   *
   * @throws InputException when a name is empty or repeated, or the line is not UTF-8
   */
  public static EpHeader parse(byte[] b, int from, int to, String where) throws InputException {
    int end = to > from && b[to - 1] == '\r' ? to - 1 : to;
    int start = from;
    if (end - start >= 3 && b[start] == (byte) 0xEF && b[start + 1] == (byte) 0xBB) {
      start += b[start + 2] == (byte) 0xBF ? 3 : 0;
    }
    if (start == end) {
      throw new InputException(where + ": empty header line (an EP file starts with field names)");
    }
    if (Utf8.firstInvalid(b, start, end) >= 0) {
      throw new InputException(where + ": header line is not valid UTF-8");
    }
    List<String> names = new ArrayList<>();
    int f = start;
    for (int i = start; i <= end; i++) {
      if (i == end || b[i] == '\t') {
        names.add(new String(b, f, i - f, StandardCharsets.UTF_8));
        f = i + 1;
      }
    }
    List<String> problems = check(names);
    if (!problems.isEmpty()) {
      throw new InputException(where + ": bad header: " + problems.get(0));
    }
    return new EpHeader(names);
  }

  /**
   * Reads the header of an EP file (plain or gzip), i.e. its first line.
   *
   * @throws InputException when the file is empty or its first line is not a valid header
   */
  public static EpHeader read(java.nio.file.Path file) throws java.io.IOException {
    try (java.nio.channels.ReadableByteChannel ch = EpFiles.open(file)) {
      ChunkPipeline.Start s =
          new ChunkPipeline(1, 1 << 16, 1 << 20).readHeader(ch, file.toString());
      return parse(s.header, 0, s.header.length, file + ":1");
    }
  }

  private static List<String> check(List<String> names) {
    List<String> problems = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i);
      if (n.isEmpty()) {
        problems.add("field " + (i + 1) + " has an empty name");
      } else if (n.indexOf('\t') >= 0 || n.indexOf('\n') >= 0 || n.indexOf('\r') >= 0) {
        problems.add("field name '" + n + "' holds a tab or line end");
      } else if (seen.containsKey(n)) {
        problems.add(
            "field '"
                + n
                + "' appears twice (fields "
                + (seen.get(n) + 1)
                + " and "
                + (i + 1)
                + ")");
      }
      seen.putIfAbsent(n, i);
    }
    return problems;
  }

  /** The field names in column order. */
  public List<String> names() {
    return names;
  }

  /** Number of fields: every row must have exactly this many. */
  public int size() {
    return names.size();
  }

  /** The column of field {@code name}, or -1 when the header has no such field. */
  public int indexOf(String name) {
    Integer i = index.get(name);
    return i == null ? -1 : i;
  }

  public boolean has(String name) {
    return index.containsKey(name);
  }

  /** The header line as UTF-8 bytes, tab-separated, with a final LF. */
  public byte[] toLine() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] line = String.join("\t", names).getBytes(StandardCharsets.UTF_8);
    out.write(line, 0, line.length);
    out.write('\n');
    return out.toByteArray();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EpHeader && ((EpHeader) o).names.equals(names);
  }

  @Override
  public int hashCode() {
    return names.hashCode();
  }

  @Override
  public String toString() {
    return String.join("\\t", names);
  }
}
