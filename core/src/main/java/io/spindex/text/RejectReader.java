/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads reject records as {@link Rejects} writes them: LF-ended lines (a CR inside a line is part
 * of it), the first four fields unescaped, the rest of the line its fifth field, bytes as they
 * were. Not thread-safe.
 */
@Internal
public final class RejectReader {
  /** One reject record. */
  public static final class Reject {
    public final String source;
    public final long offset;
    public final String reason;
    public final String detail;

    /** The rejected line's bytes as read (without its line end). */
    public final byte[] line;

    Reject(String source, long offset, String reason, String detail, byte[] line) {
      this.source = source;
      this.offset = offset;
      this.reason = reason;
      this.detail = detail;
      this.line = line;
    }

    /** The line as UTF-8 text (invalid bytes replaced). */
    public String lineText() {
      return new String(line, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return source
          + ":"
          + offset
          + ": "
          + reason
          + " ("
          + Clip.of(detail, 200)
          + "): '"
          + Clip.of(lineText(), 200)
          + "'";
    }
  }

  private RejectReader() {}

  /** Every record of {@code in} (one file's, or the parts' concatenated). */
  public static List<Reject> readAll(InputStream in) throws IOException {
    List<Reject> r = new ArrayList<>();
    InputStream b = new BufferedInputStream(in, 1 << 16);
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    long n = 0;
    for (int c; (c = b.read()) >= 0; ) {
      if (c == '\n') {
        r.add(parse(line.toByteArray(), ++n));
        line.reset();
      } else {
        line.write(c);
      }
    }
    if (line.size() > 0) {
      r.add(parse(line.toByteArray(), ++n));
    }
    return r;
  }

  /** Parses one record (without its LF). */
  public static Reject parse(byte[] record) {
    return parse(record, 0);
  }

  private static Reject parse(byte[] b, long n) {
    int[] tab = new int[4];
    int at = 0;
    for (int i = 0; i < 4; i++) {
      int t = Bytes.indexOf(b, at, b.length, (byte) '\t', Bytes.repeat((byte) '\t'));
      if (t >= b.length) {
        throw new IllegalArgumentException(
            "reject record"
                + (n > 0 ? " " + n : "")
                + ": expected 5 tab-separated fields, found "
                + (i + 1));
      }
      tab[i] = t;
      at = t + 1;
    }
    String offset = field(b, tab[0] + 1, tab[1]);
    long o;
    try {
      o = Long.parseLong(offset);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "reject record"
              + (n > 0 ? " " + n : "")
              + ": expected a byte offset, found '"
              + Clip.of(offset)
              + "'");
    }
    return new Reject(
        unescape(field(b, 0, tab[0])),
        o,
        unescape(field(b, tab[1] + 1, tab[2])),
        unescape(field(b, tab[2] + 1, tab[3])),
        Arrays.copyOfRange(b, tab[3] + 1, b.length));
  }

  private static String field(byte[] b, int from, int to) {
    return new String(b, from, to - from, StandardCharsets.UTF_8);
  }

  static String unescape(String s) {
    if (s.indexOf('\\') < 0) {
      return s;
    }
    StringBuilder r = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char e = s.charAt(++i);
        r.append(e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : e);
      } else {
        r.append(c);
      }
    }
    return r.toString();
  }
}
