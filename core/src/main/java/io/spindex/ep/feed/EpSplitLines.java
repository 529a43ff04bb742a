/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep.feed;

import io.spindex.annotations.Internal;
import io.spindex.text.InputException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The engine-agnostic parts of running EP transforms over input splits (byte-offset keyed lines, as
 * Hadoop's {@code TextInputFormat} gives them): reading a file's header on the driver, checking
 * each file's header line (offset 0) against the one the driver compiled against, and formatting
 * reject records ({@code source<TAB>offset<TAB>reason<TAB>detail<TAB>line}, no line end).
 */
@Internal
public final class EpSplitLines {
  /** Longest header line read on the driver. */
  public static final int MAX_HEADER_BYTES = 1 << 20;

  private EpSplitLines() {}

  /** The header (first line) of an EP file opened (and decompressed) as {@code in}. */
  public static EpHeader readHeader(InputStream in, String source) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) >= 0 && c != '\n') {
      line.write(c);
      if (line.size() > MAX_HEADER_BYTES) {
        throw new InputException(source + ":1: header line longer than " + MAX_HEADER_BYTES);
      }
    }
    if (c < 0 && line.size() == 0) {
      throw new InputException(source + ": empty file: an EP file starts with a header line");
    }
    byte[] b = line.toByteArray();
    return EpHeader.parse(b, 0, b.length, source + ":1");
  }

  /**
   * Checks the header line {@code b[from, to)} of file {@code source} against {@code expected}.
   *
   * @throws IllegalStateException when it is not a valid header or differs from {@code expected}
   */
  public static void checkHeader(byte[] b, int from, int to, String source, EpHeader expected) {
    EpHeader h;
    try {
      h = EpHeader.parse(b, from, to, source + ":1");
    } catch (InputException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    if (!h.equals(expected)) {
      throw new IllegalStateException(
          source + ":1: header differs from the first input's (" + expected + "): " + h);
    }
  }

  /**
   * A reject record for the line {@code b[from, to)} at byte {@code offset} of {@code source}, in
   * the one reject format ({@link io.spindex.text.Rejects#record}), without the line's CR and LF.
   */
  public static byte[] rejectRecord(
      String source, long offset, String reason, String detail, byte[] b, int from, int to) {
    return io.spindex.text.Rejects.record(source, offset, reason, detail, b, from, to);
  }
}
