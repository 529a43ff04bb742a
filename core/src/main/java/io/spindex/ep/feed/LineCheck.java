/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep.feed;

import io.spindex.annotations.Internal;

/**
 * The checks every EP row goes through before any step, in this order, each a reject reason: {@code
 * line-too-long} (over the byte cap, line end excluded), {@code blank-line}, {@code invalid-utf8},
 * {@code field-count} (not exactly one field per header field). Immutable and thread-safe.
 */
@Internal
public final class LineCheck {
  /**
   * Default longest line, in bytes (line end excluded), of every reader of EP feeds (transforms,
   * diffs, product index builds); longer lines are rejected.
   */
  public static final int DEFAULT_MAX_LINE_BYTES = 1 << 16;

  /** Reject reasons of the line checks. */
  public static final String TOO_LONG = "line-too-long";

  public static final String BLANK = "blank-line";
  public static final String INVALID_UTF8 = "invalid-utf8";
  public static final String FIELD_COUNT = "field-count";

  private final int fields;
  private final int maxLineBytes;
  private final boolean validateUtf8;

  /**
   * @param fields fields of the header: every row must have exactly this many
   * @param maxLineBytes longest accepted line in bytes, line end (LF or CRLF) excluded
   */
  public LineCheck(int fields, int maxLineBytes, boolean validateUtf8) {
    this.fields = fields;
    this.maxLineBytes = maxLineBytes;
    this.validateUtf8 = validateUtf8;
  }

  public int maxLineBytes() {
    return maxLineBytes;
  }

  /**
   * Checks {@code b[from, to)} (one line without its LF) and splits it into {@code row}.
   *
   * @return {@code true} when the row passed; otherwise {@code verdict} says why
   */
  public boolean check(byte[] b, int from, int to, EpRow row, Verdict verdict) {
    int end = to > from && b[to - 1] == '\r' ? to - 1 : to;
    if (end - from > maxLineBytes) {
      verdict.reject(TOO_LONG, (end - from) + " bytes, limit " + maxLineBytes);
      return false;
    }
    if (end == from) {
      verdict.reject(BLANK, "an empty line");
      return false;
    }
    int n;
    if (validateUtf8) {
      n = row.splitUtf8(b, from, end, fields);
      if (n < 0) {
        int bad = -1 - n;
        verdict.reject(INVALID_UTF8, "byte " + (bad - from) + " starts no valid UTF-8 sequence");
        return false;
      }
    } else {
      n = row.split(b, from, end, fields);
    }
    if (n != fields) {
      verdict.reject(FIELD_COUNT, n + " fields, header has " + fields);
      return false;
    }
    return true;
  }

  /**
   * {@link #check} for a line held on its own ({@code b[from, to)}, LF excluded), as the Spark and
   * MapReduce jobs get lines: most lines take the fused scan ({@link EpRow#scanCopy}, which also
   * screens the fields of {@code screen} for the text normalisers); the others, and too long or
   * blank ones, take the byte-wise checks, so verdicts and details are those of {@link #check}.
   */
  public boolean checkLine(byte[] b, int from, int to, EpRow row, Verdict verdict, long screen) {
    int end = to > from && b[to - 1] == '\r' ? to - 1 : to;
    if (end > from && end - from <= maxLineBytes && row.scanCopy(b, from, to, fields, screen)) {
      return true;
    }
    return check(b, from, to, row, verdict);
  }

  /** The line checks with their own row and verdict, for code outside this package. */
  public Reader reader() {
    return new Reader();
  }

  /** Checks and splits lines into its own {@link EpRow}. Not thread-safe: one per thread. */
  public final class Reader {
    private final EpRow row = new EpRow(fields);
    private final Verdict verdict = new Verdict();

    /**
     * Checks and splits {@code b[from, to)} (LF excluded; {@link #checkLine}); {@code false} when
     * rejected.
     */
    public boolean read(byte[] b, int from, int to) {
      return checkLine(b, from, to, row, verdict, 0);
    }

    /** The row the last passing line was split into. */
    public EpRow row() {
      return row;
    }

    /** Why the last line was rejected: one of this class's reasons. */
    public String reason() {
      return verdict.reason;
    }

    public String detail() {
      return verdict.detail;
    }
  }
}
