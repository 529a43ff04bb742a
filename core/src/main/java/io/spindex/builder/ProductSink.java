/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.ep.feed.ByteSink;
import io.spindex.ep.feed.EpRow;
import io.spindex.ep.feed.LineCheck;
import io.spindex.ep.feed.ProductColumns;
import java.util.Arrays;

/**
 * Collects the accepted rows of one piece of an EP file for {@link ProductIndexBuilder}.
 * Serializable, for a distributed build to ship a split's rows ({@link ProductPart}): the rows go,
 * the parsing state (transient) stays.
 */
final class ProductSink implements SourceScan.PieceSink, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  final SourceScan.Piece piece;
  private final transient ProductColumns columns;
  private final transient LineCheck.Reader reader;
  private final int maxLineBytes;
  private final int stride;
  private final transient Rejects rejects = new Rejects();
  private final transient ByteSink scratch = new ByteSink(4096);
  private boolean started;

  int rows;
  long headers;
  long[] hashes = new long[1024];
  int[] ints;
  long[] lineIndex = new long[1024];
  final ByteSink ids = new ByteSink(1 << 16);
  int[] idEnds = new int[1024];

  ProductSink(SourceScan.Piece piece, ProductColumns columns, int maxLineBytes) {
    this.piece = piece;
    this.columns = columns;
    this.maxLineBytes = maxLineBytes;
    this.reader = new LineCheck(columns.header().size(), maxLineBytes, true).reader();
    this.stride = columns.columns();
    this.ints = new int[1024 * stride];
  }

  @Override
  public Rejects rejects() {
    return rejects;
  }

  @Override
  public void line(byte[] b, int from, int to, long index) {
    if (!started) {
      started = true;
      if (piece.start == 0) {
        headers++;
        return; // the header line, already read
      }
    }
    if (!reader.read(b, from, to)) {
      rejects.add(reader.reason(), piece.name(), index + 1, b, from, to);
      return;
    }
    EpRow row = reader.row();
    int id = columns.idSlot();
    if (row.isEmpty(id)) {
      rejects.add("empty:id", piece.name(), index + 1, b, from, to);
      return;
    }
    if (rows == hashes.length) {
      int cap = Math.max(16, rows * 2);
      hashes = Arrays.copyOf(hashes, cap);
      lineIndex = Arrays.copyOf(lineIndex, cap);
      idEnds = Arrays.copyOf(idEnds, cap);
      ints = Arrays.copyOf(ints, cap * stride);
    }
    hashes[rows] = columns.idHash(row);
    columns.values(row, ints, rows * stride, scratch);
    lineIndex[rows] = index;
    ids.write(row.array(id), row.from(id), row.to(id));
    idEnds[rows] = ids.length();
    rows++;
  }

  /** Shrinks the arrays to the rows they hold, before the rows are shipped. */
  ProductSink trim() {
    hashes = Arrays.copyOf(hashes, rows);
    lineIndex = Arrays.copyOf(lineIndex, rows);
    idEnds = Arrays.copyOf(idEnds, rows);
    ints = Arrays.copyOf(ints, rows * stride);
    ids.trim();
    return this;
  }

  @Override
  public void tooLong(byte[] b, int from, int to, long index) {
    started = true;
    rejects.add(
        LineCheck.TOO_LONG, piece.name(), index + 1, b, from, Math.min(to, from + maxLineBytes));
  }
}
