/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.text.Ipv4Text;

/**
 * A piece sink for text with one record a line, as the IP list and range builds read it: a blank
 * line or a {@code #} comment is counted as skipped, any other line is handed to {@link #data} with
 * its blanks trimmed, and a line too long is a reject.
 */
abstract class DataLineSink implements SourceScan.PieceSink {
  final Rejects rejects = new Rejects();

  /** The input as reject records name it. */
  final String file;

  /** Blank and comment lines (and skipped header lines). */
  long skipped;

  DataLineSink(String file) {
    this.file = file;
  }

  @Override
  public final Rejects rejects() {
    return rejects;
  }

  @Override
  public final void line(byte[] b, int from, int to, long index) {
    int f = Ipv4Text.skipBlanks(b, from, to);
    int t = Ipv4Text.trimBlanks(b, f, to);
    if (f == t || b[f] == '#') {
      skipped++;
      return;
    }
    data(b, from, to, f, t, index);
  }

  /**
   * A data line.
   *
   * @param from the line's first byte
   * @param to past the line's last byte (line end excluded)
   * @param f the first byte after leading blanks
   * @param t past the last byte before trailing blanks
   * @param index the line's 0-based number in its file
   */
  abstract void data(byte[] b, int from, int to, int f, int t, long index);

  @Override
  public void tooLong(byte[] b, int from, int to, long index) {
    rejects.add("line-too-long", file, index + 1, b, from, to);
  }
}
