/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import io.spindex.index.LabelSchema;
import io.spindex.text.LineReader;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.ArrayList;

/**
 * One part of a distributed range build ({@code build-index --kind ranges} on Spark): the ranges of
 * one input split, parsed by the one-machine build's own line sink (same delimiter detection,
 * header rule, CIDR and decimal forms, IPv6 and IPv4-mapped handling, reject reasons), in input
 * order, with their labels in a dictionary of the part's own; the line counts; and every rejected
 * line as a reject record. {@link IpRangeBuilder#assembleParts} appends the parts in input order
 * and writes the index the one-machine build writes.
 *
 * <p>A file's delimiter is detected on its first data line, and only its first data line can be a
 * header. A split that starts later in the file is told what its file's first lines settled ({@link
 * FileStart}), so that it parses as the one reader of the whole file would.
 */
@Internal
public final class RangePart extends SplitPart {
  private static final long serialVersionUID = 1L;

  /** What a reject record says was expected. */
  public static final String EXPECTED = IpRangeBuilder.EXPECTED;

  final RangeRows rows;
  final Ipv6RangeRows rows6;
  final RangeSink.FileHead head;
  final long extraRows;

  private RangePart(Parser p) {
    super(p.file, p.splitStart, p.feed.lines(), p.sink.skipped, p.feed, p.sink.rejects().counts());
    this.rows = p.rows.trim();
    this.rows6 = p.rows6.trim();
    this.head = p.sink.head;
    this.extraRows = p.sink.extraRows;
  }

  /** Parses the lines of one input split into a part. Not thread-safe. */
  public static final class Parser implements SplitParser<RangePart> {
    private final int file;
    private final long splitStart;
    private final RangeRows rows = new RangeRows();
    private final Ipv6RangeRows rows6 = new Ipv6RangeRows();
    private final RangeSink sink;
    private final SplitFeed feed;

    /**
     * @param file the input's index among the build's inputs (input order)
     * @param source the input as reject records and messages name it
     * @param delimiter the field delimiter, or 0 to detect it per file
     * @param start what the file's lines before the split settled ({@link FileStart#read})
     * @param splitStart the split's first byte in the file
     * @param schema the label fields each line's label must fit ({@link
     *     IpRangeBuilder#declaredSchema}), or {@code null}
     * @param labelFields how many fields each label must have ({@code --label-fields-from-header}:
     *     {@link IpRangeBuilder#headerLabelFields}), or 0
     */
    public Parser(
        int file,
        String source,
        byte delimiter,
        FileStart start,
        long splitStart,
        LabelSchema schema,
        int labelFields) {
      this.file = file;
      this.splitStart = splitStart;
      this.sink =
          new RangeSink(
              new SourceScan.Piece(file, source, splitStart),
              rows,
              rows6,
              delimiter,
              schema,
              labelFields,
              new ArrayList<>());
      if (splitStart > 0) {
        sink.resume(start.delimiterBefore(splitStart), start.sawDataBefore(splitStart));
      }
      this.feed = new SplitFeed(source, EXPECTED, sink, sink.rejects());
    }

    @Override
    public void lines(byte[] b, int off, int len, long fileOffset) {
      feed.lines(b, off, len, fileOffset);
    }

    @Override
    public RangePart finish() {
      return new RangePart(this);
    }
  }

  /**
   * What the first lines of one input file settled, for the splits that start later in it: where
   * its first data line is (the only one that can be a header) and which line settled the
   * delimiter, and on which.
   */
  public static final class FileStart implements Serializable {
    private static final long serialVersionUID = 1L;

    /** A file read whole by one split (a compressed one) needs nothing. */
    public static final FileStart NONE = new FileStart(-1, -1, (byte) 0, null, -1);

    private final long firstData;
    private final long settled;
    private final byte delimiter;
    private final byte[] header;
    private final int fieldsBeforeLabel;

    private FileStart(
        long firstData, long settled, byte delimiter, byte[] header, int fieldsBeforeLabel) {
      this.firstData = firstData;
      this.settled = settled;
      this.delimiter = delimiter;
      this.header = header;
      this.fieldsBeforeLabel = fieldsBeforeLabel;
    }

    /**
     * Reads the start of a file (decompressed) until its delimiter is settled: as a rule its first
     * line, or its first two when it begins with a header.
     *
     * @param delimiter the field delimiter, or 0 to detect it per file
     */
    public static FileStart read(InputStream stream, String source, byte delimiter)
        throws IOException {
      RangeSink sink =
          new RangeSink(
              new SourceScan.Piece(0, source, 0),
              new RangeRows(),
              new Ipv6RangeRows(),
              delimiter,
              null,
              0,
              new ArrayList<>());
      InputStream in = new BufferedInputStream(stream, 1 << 16);
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      long firstData = -1;
      long settled = -1;
      long offset = 0;
      while (firstData < 0 || settled < 0) {
        line.reset();
        long length = 0;
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
          if (length++ <= LineReader.MAX_LINE_BYTES) {
            line.write(c);
          }
        }
        if (c < 0 && length == 0) {
          break;
        }
        byte[] b = line.toByteArray();
        if (length > LineReader.MAX_LINE_BYTES) {
          sink.tooLong(b, 0, 64, offset - 1);
        } else {
          sink.line(b, 0, b.length, offset - 1);
        }
        if (firstData < 0 && sink.sawData()) {
          firstData = offset;
        }
        if (settled < 0 && sink.delimiter() != 0) {
          settled = offset;
        }
        offset += length + 1;
      }
      return new FileStart(
          firstData, settled, sink.delimiter(), sink.head.header, sink.head.fieldsBeforeLabel);
    }

    byte delimiterBefore(long splitStart) {
      return settled >= 0 && settled < splitStart ? delimiter : 0;
    }

    boolean sawDataBefore(long splitStart) {
      return firstData >= 0 && firstData < splitStart;
    }

    /** The file's header line (its first data line, when that was a header), or null. */
    byte[] header() {
      return header;
    }

    /** The address fields before the label in the file's first range, or -1. */
    int fieldsBeforeLabel() {
      return fieldsBeforeLabel;
    }

    /** The delimiter the file's first lines settled on, or 0. */
    byte delimiter() {
      return delimiter;
    }
  }
}
