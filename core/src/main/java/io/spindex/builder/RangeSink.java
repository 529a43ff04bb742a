/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.index.LabelSchema;
import io.spindex.text.Ipv4Text;
import io.spindex.text.RangeLine;
import java.util.List;

/** Parses lines of one file into {@link RangeRows}, detecting delimiter and header. */
final class RangeSink extends DataLineSink {
  private final SourceScan.Piece piece;
  private final RangeRows rows;
  private final Ipv6RangeRows rows6;
  private final List<String> notes;
  private final LabelSchema schema;
  private final int labelFields;
  private RangeLine parser;
  private boolean sawData;
  final FileHead head;

  /**
   * Rows beyond one per accepted line: an IPv6 range across {@code ::ffff:0:0/96} is stored as up
   * to three rows but is one accepted line.
   */
  long extraRows;

  RangeSink(
      SourceScan.Piece piece,
      RangeRows rows,
      Ipv6RangeRows rows6,
      byte delimiter,
      LabelSchema schema,
      int labelFields,
      List<String> notes) {
    super(piece.name());
    this.schema = schema;
    this.labelFields = labelFields;
    this.piece = piece;
    this.rows = rows;
    this.rows6 = rows6;
    this.notes = notes;
    this.parser = delimiter == 0 ? null : new RangeLine(delimiter);
    this.head = new FileHead(piece.name());
  }

  /**
   * Goes on with a file whose earlier lines another reader read (a later split of it): {@code
   * delimiter} as those lines set it (0 when they did not) and whether one of them was a data line
   * (a header candidate).
   */
  RangeSink resume(byte delimiter, boolean sawData) {
    if (parser == null && delimiter != 0) {
      parser = new RangeLine(delimiter);
    }
    this.sawData = sawData;
    return this;
  }

  /** The delimiter the lines so far settled on; 0 while none has. */
  byte delimiter() {
    return parser == null ? 0 : parser.delimiter();
  }

  /** Whether a data line (not blank, not a comment) has been read. */
  boolean sawData() {
    return sawData;
  }

  @Override
  void data(byte[] b, int from, int to, int f, int t, long index) {
    boolean firstData = !sawData;
    sawData = true;
    // A first line that does not parse is a header only when no field of it is an address;
    // a malformed first range is a reject like any other (fatal under --strict).
    boolean header = firstData && RangeLine.looksLikeHeader(b, f, t);
    if (parser == null) {
      byte d = RangeLine.detectDelimiter(b, from, to);
      if (d == 0 && header) {
        skipHeader(b, from, to, index);
        return;
      }
      parser = new RangeLine(d == 0 ? RangeLine.firstDelimiter(b, f, t) : d);
      boolean oneColumn = d == 0 && !RangeLine.hasDelimiter(b, f, t);
      notes.add(
          piece.name()
              + (oneColumn
                  ? ": one column (no tab, '|' or ',' in line " + (index + 1) + ")"
                  : ": delimiter " + IpRangeBuilder.describe(parser.delimiter()) + " (detected)"));
    }
    String reason = parser.parse(b, from, to);
    if (reason != null && header) {
      skipHeader(b, from, to, index);
      return;
    }
    if (reason == null && schema != null) {
      reason = schema.misfit(b, parser.labelFrom(), parser.labelTo());
    }
    if (reason == null && head.fieldsBeforeLabel < 0) {
      head.fieldsBeforeLabel = 0;
      head.dataDelimiter = parser.delimiter();
      for (int i = from; i < parser.labelFrom(); i++) {
        if (b[i] == head.dataDelimiter) {
          head.fieldsBeforeLabel++;
        }
      }
    }
    if (reason == null && schema == null && labelFields > 0) {
      byte[] delimiter = {parser.delimiter()};
      if (LabelSchema.fieldCount(b, parser.labelFrom(), parser.labelTo(), delimiter)
          != labelFields) {
        reason = "field-count";
      }
    }
    if (reason != null) {
      rejects.add(reason, piece.name(), index + 1, b, from, to);
      return;
    }
    if (parser.family() == 4) {
      rows.add(
          parser.start(),
          parser.end(),
          b,
          parser.labelFrom(),
          parser.labelTo(),
          piece.fileIndex,
          index + 1);
    } else {
      addIpv6(b, index + 1);
    }
  }

  /**
   * An IPv6 range; the part of it in {@code ::ffff:0:0/96} (IPv4-mapped addresses, looked up as
   * IPv4) is stored as an IPv4 range, the parts below and above it as IPv6 ranges.
   */
  private void addIpv6(byte[] b, long line) {
    int label = rows.internLabel(b, parser.labelFrom(), parser.labelTo());
    long sHi = parser.startHi();
    long sLo = parser.startLo();
    long eHi = parser.endHi();
    long eLo = parser.endLo();
    int file = piece.fileIndex;
    boolean startsBelow = sHi == 0 && Long.compareUnsigned(sLo, MAPPED_FIRST) < 0;
    boolean endsAbove = eHi != 0 || Long.compareUnsigned(eLo, MAPPED_LAST) > 0;
    boolean startsAbove = sHi != 0 || Long.compareUnsigned(sLo, MAPPED_LAST) > 0;
    boolean endsBelow = eHi == 0 && Long.compareUnsigned(eLo, MAPPED_FIRST) < 0;
    if (startsAbove || endsBelow) {
      rows6.add(sHi, sLo, eHi, eLo, label, file, line);
      return;
    }
    if (startsBelow) {
      rows6.add(sHi, sLo, 0, MAPPED_FIRST - 1, label, file, line);
      extraRows++;
    }
    long from = startsBelow ? 0 : sLo & 0xFFFF_FFFFL;
    long to = endsAbove ? 0xFFFF_FFFFL : eLo & 0xFFFF_FFFFL;
    rows.addLabelled(from, to, label, file, line);
    if (endsAbove) {
      rows6.add(0, MAPPED_LAST + 1, eHi, eLo, label, file, line);
      extraRows++;
    }
  }

  private void skipHeader(byte[] b, int from, int to, long index) {
    skipped++;
    if (head.header == null) {
      int t = to;
      while (t > from && (b[t - 1] == '\r' || Ipv4Text.isBlank(b[t - 1]))) {
        t--;
      }
      head.header = java.util.Arrays.copyOfRange(b, from, t);
      head.headerLine = index + 1;
    }
    notes.add(
        piece.name()
            + ":"
            + (index + 1)
            + ": skipped header line '"
            + Rejects.snippet(b, from, to)
            + "'");
  }

  @Override
  public void tooLong(byte[] b, int from, int to, long index) {
    sawData = true;
    super.tooLong(b, from, to, index);
  }

  /**
   * How many fields the labels of {@code --label-fields-from-header} have: the names of the first
   * header after its file's first range's address fields (what {@code fieldsFromHeader} declares),
   * from what the files' first lines settled; 0 when no file has a header before a range.
   */
  static int headerLabelFields(List<RangePart.FileStart> starts) {
    for (RangePart.FileStart f : starts) {
      if (f.header() != null && f.fieldsBeforeLabel() >= 0) {
        int names = 1;
        for (byte c : f.header()) {
          names += c == f.delimiter() ? 1 : 0;
        }
        return Math.max(0, names - f.fieldsBeforeLabel());
      }
    }
    return 0;
  }

  /**
   * What the start of one input file said, for {@code --label-fields-from-header}: its header line
   * and the layout of its first range.
   */
  static final class FileHead implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    final String source;

    /** The first header line skipped, its 1-based line number; {@code null} when none. */
    byte[] header;

    long headerLine;

    /** In the first range parsed: the fields before its label, and its delimiter. */
    int fieldsBeforeLabel = -1;

    byte dataDelimiter;

    FileHead(String source) {
      this.source = source;
    }

    /** This file's head, completed by what a later part of the same file saw. */
    FileHead then(FileHead later) {
      if (header == null && later.header != null) {
        header = later.header;
        headerLine = later.headerLine;
      }
      if (fieldsBeforeLabel < 0 && later.fieldsBeforeLabel >= 0) {
        fieldsBeforeLabel = later.fieldsBeforeLabel;
        dataDelimiter = later.dataDelimiter;
      }
      return this;
    }
  }

  /** The IPv4-mapped block {@code ::ffff:0:0/96}: the low halves of its first and last address. */
  private static final long MAPPED_FIRST = 0xFFFF_0000_0000L;

  private static final long MAPPED_LAST = 0xFFFF_FFFF_FFFFL;
}
