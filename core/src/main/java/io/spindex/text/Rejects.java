/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;
import java.nio.charset.StandardCharsets;

/**
 * Writes the one reject record format of every job on every engine and of every command that writes
 * rejects (docs/BAD-INPUT.md "The reject record"): one line per rejected input line,
 *
 * <pre>source TAB offset TAB reason TAB detail TAB line LF</pre>
 *
 * <ul>
 *   <li>{@code source}: the input file as the job or command names it;
 *   <li>{@code offset}: the byte offset (decimal, from 0) of the line's first byte in the file's
 *       bytes — the decompressed bytes of a compressed file, the whole file's whatever split the
 *       line was read in;
 *   <li>{@code reason}: the reason code, {@code detail}: what was found (may be empty);
 *   <li>{@code line}: the rejected line's bytes as read, without its LF (and a CR before it): the
 *       rest of the record, tabs included.
 * </ul>
 *
 * <p>In the first four fields a backslash, tab, LF and CR are written {@code \\}, {@code \t},
 * {@code \n}, {@code \r}; the line is never escaped (it holds no LF). {@link RejectReader} reads it
 * back. Stateless.
 */
@Internal
public final class Rejects {
  /** The column names, in order. */
  public static final String[] COLUMNS = {"source", "offset", "reason", "detail", "line"};

  private Rejects() {}

  /** The record of {@code b[from, to)} (a trailing CR dropped), without its LF. */
  public static byte[] record(
      String source, long offset, String reason, String detail, byte[] b, int from, int to) {
    byte[] head = head(field(source), offset);
    byte[] tail = tail(reason, detail);
    int end = to > from && b[to - 1] == '\r' ? to - 1 : to;
    byte[] r = new byte[head.length + tail.length + end - from];
    System.arraycopy(head, 0, r, 0, head.length);
    System.arraycopy(tail, 0, r, head.length, tail.length);
    System.arraycopy(b, from, r, head.length + tail.length, end - from);
    return r;
  }

  /**
   * Writes the record into {@code out} from 0 (a trailing CR of the line dropped) and returns its
   * length; {@code out} must hold {@link #size}.
   *
   * @param source the source as {@link #field} gives it (computed once per input)
   * @param tail the reason and detail as {@link #tail} gives them
   */
  public static int write(
      byte[] out, byte[] source, long offset, byte[] tail, byte[] b, int from, int to) {
    int end = to > from && b[to - 1] == '\r' ? to - 1 : to;
    int p = 0;
    System.arraycopy(source, 0, out, p, source.length);
    p += source.length;
    out[p++] = '\t';
    p = decimal(offset, out, p);
    out[p++] = '\t';
    System.arraycopy(tail, 0, out, p, tail.length);
    p += tail.length;
    System.arraycopy(b, from, out, p, end - from);
    return p + end - from;
  }

  /** The most bytes {@link #write} writes. */
  public static int size(byte[] source, byte[] tail, int lineLength) {
    return source.length + 22 + tail.length + lineLength;
  }

  /** The start of a record: {@code source TAB offset TAB}. */
  public static byte[] head(byte[] source, long offset) {
    byte[] r = new byte[source.length + 22];
    int p = source.length;
    System.arraycopy(source, 0, r, 0, p);
    r[p++] = '\t';
    p = decimal(offset, r, p);
    r[p++] = '\t';
    return java.util.Arrays.copyOf(r, p);
  }

  /** The middle of a record, between the offset and the line: {@code reason TAB detail TAB}. */
  public static byte[] tail(String reason, String detail) {
    return (escape(reason) + "\t" + escape(detail == null ? "" : detail) + "\t")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** A field's bytes: UTF-8, escaped. */
  public static byte[] field(String s) {
    return escape(s).getBytes(StandardCharsets.UTF_8);
  }

  static String escape(String s) {
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String e =
          c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : null;
      if (e != null && b == null) {
        b = new StringBuilder(s.length() + 8).append(s, 0, i);
      }
      if (b != null) {
        if (e != null) {
          b.append(e);
        } else {
          b.append(c);
        }
      }
    }
    return b == null ? s : b.toString();
  }

  private static int decimal(long v, byte[] out, int p) {
    byte[] d = Long.toString(v).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(d, 0, out, p, d.length);
    return p + d.length;
  }
}
