/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import io.spindex.ep.feed.EpHeader;
import io.spindex.ep.feed.ProductColumns;
import io.spindex.text.InputException;
import java.util.List;

/**
 * One part of a distributed product index build ({@code build-index --kind products} on Spark): the
 * accepted rows of one input split of an EP feed, parsed by the one-machine build's own row sink
 * (same checks, same reject reasons, the header line of the file's first split skipped), in input
 * order, with the line counts and every rejected line as a reject record. {@link
 * ProductIndexBuilder#assembleParts} sorts the parts' rows by id hash, drops repeated ids and
 * writes the index the one-machine build writes.
 */
@Internal
public final class ProductPart extends SplitPart {
  private static final long serialVersionUID = 1L;

  /** What a reject record says was expected. */
  public static final String EXPECTED = ProductIndexBuilder.EXPECTED;

  final ProductSink sink;

  private ProductPart(Parser p) {
    super(
        p.sink.piece.fileIndex,
        p.sink.piece.start,
        p.feed.lines(),
        p.sink.headers,
        p.feed,
        p.sink.rejects().counts());
    this.sink = p.sink.trim();
  }

  /** Parses the lines of one input split into a part. Not thread-safe. */
  public static final class Parser implements SplitParser<ProductPart> {
    private final ProductSink sink;
    private final SplitFeed feed;

    /**
     * @param file the input's index among the build's inputs (input order)
     * @param source the input as reject records and messages name it
     * @param header the input's header line, as its first split reads it
     * @param extraIntFields fields stored as int columns after the fixed three
     * @param maxLineBytes longest accepted line, line end excluded
     * @param splitStart the split's first byte in the file (0: the split holds the header line)
     * @throws InputException when the header lacks a field the index needs
     */
    public Parser(
        int file,
        String source,
        EpHeader header,
        List<String> extraIntFields,
        int maxLineBytes,
        long splitStart)
        throws InputException {
      this.sink =
          new ProductSink(
              new SourceScan.Piece(file, source, splitStart),
              new ProductColumns(header, extraIntFields, source),
              maxLineBytes);
      this.feed = new SplitFeed(source, EXPECTED, sink, sink.rejects());
    }

    @Override
    public void lines(byte[] b, int off, int len, long fileOffset) {
      feed.lines(b, off, len, fileOffset);
    }

    @Override
    public ProductPart finish() {
      return new ProductPart(this);
    }
  }
}
