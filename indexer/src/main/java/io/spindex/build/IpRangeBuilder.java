/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.build;

import io.spindex.index.IndexHeader;
import io.spindex.index.IndexKind;
import io.spindex.index.IndexWriter;
import io.spindex.index.IpRanges;
import io.spindex.index.Section;
import io.spindex.text.InputException;
import io.spindex.text.Ipv4Text;
import io.spindex.text.RangeLine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds an IPv4 range index from range text ({@link RangeLine}): delimiter given or detected per
 * file, a header line skipped (and said so), blank lines and {@code #} comments skipped, ranges
 * sorted, overlaps failed or flattened by an {@link OverlapPolicy}, labels stored once each.
 */
public final class IpRangeBuilder extends IndexBuilder<IpRangeBuilder> {
  @Override
  IpRangeBuilder self() {
    return this;
  }

  private byte delimiter;
  private OverlapPolicy policy = OverlapPolicy.FAIL;

  /** A fixed field delimiter; by default tab, '|' or ',' is detected per file. */
  public IpRangeBuilder delimiter(char c) {
    if (c > 127 || c == '\n' || c == '\r' || c == '"' || c == '.' || c == '/') {
      throw new IllegalArgumentException("unusable delimiter: '" + c + "'");
    }
    this.delimiter = (byte) c;
    return this;
  }

  public IpRangeBuilder onOverlap(OverlapPolicy p) {
    this.policy = p;
    return this;
  }

  /** Builds the index and writes it atomically to {@code output}. */
  public BuildReport build(List<Path> inputs, Path output) throws IOException {
    long t0 = System.nanoTime();
    Built b = assemble(inputs);
    long t1 = System.nanoTime();
    IndexHeader h = b.writer.writeTo(output);
    long t2 = System.nanoTime();
    b.phases.put("write", t2 - t1);
    return new BuildReport(b.counts, b.rejects, b.notes, h, b.phases, t2 - t0);
  }

  /** Builds the index in memory only: the {@code text} loader. */
  public IpRanges buildInMemory(List<Path> inputs) throws IOException {
    return assemble(inputs).writer.toIndex(inputs.get(0), "text").asRanges();
  }

  private static final class Built {
    IndexWriter writer;
    Map<String, Long> counts = new LinkedHashMap<>();
    Rejects rejects;
    List<String> notes = new ArrayList<>();
    Map<String, Long> phases = new LinkedHashMap<>();
  }

  private Built assemble(List<Path> inputs) throws IOException {
    // Range files are small next to IP lists (millions of lines, not hundreds of millions):
    // one reader thread keeps input order, which the first/last policies and messages need.
    long t0 = System.nanoTime();
    RangeRows rows = new RangeRows();
    List<String> notes = new ArrayList<>();
    SourceScan.Result<RangeSink> scan =
        SourceScan.scan(inputs, 1, p -> new RangeSink(p, rows, delimiter, notes), progress);
    if (strict && scan.rejects.total() > 0) {
      throw new InputException(
          "rejected line (--strict): "
              + scan.rejects.samples().get(0)
              + " (expected start<d>end<d>label or a.b.c.d/len<d>label)");
    }
    long skipped = 0;
    for (RangeSink s : scan.sinks) {
      skipped += s.skipped;
    }
    long t1 = System.nanoTime();
    RangeFlattener.Flat flat = RangeFlattener.flatten(rows, policy, inputs);
    Built b = new Built();
    b.phases.put("read", t1 - t0);
    b.phases.put("sort", System.nanoTime() - t1);
    b.rejects = scan.rejects;
    b.notes = notes;
    b.counts.put("lines", scan.lines);
    b.counts.put("skipped", skipped);
    b.counts.put("accepted", (long) rows.size());
    b.counts.put("rejected", scan.rejects.total());
    b.counts.put("overlapping", (long) flat.overlapping);
    b.counts.put("ranges", (long) flat.size);
    b.counts.put("labels", (long) rows.labelCount());
    b.counts.put("source bytes", scan.bytes);
    IndexWriter w = new IndexWriter(IndexKind.IPV4_RANGES, flat.size, scan.digest);
    created(w);
    w.ints(Section.RANGE_STARTS, flat.starts, flat.size);
    w.ints(Section.RANGE_ENDS, flat.ends, flat.size);
    w.ints(Section.RANGE_LABELS, flat.labels, flat.size);
    if (prefixTable) {
      int[] prefix = prefixTable(flat.starts, flat.size);
      w.ints(Section.PREFIX16, prefix, prefix.length);
    }
    int[] offsets = rows.labelOffsets();
    w.ints(Section.LABEL_OFFSETS, offsets, offsets.length);
    w.bytes(Section.LABEL_BYTES, rows.labelBytes(), rows.labelBytesLength());
    b.writer = w;
    return b;
  }

  /** Entry p: the first row whose start address has its top 16 bits {@code >= p}. */
  static int[] prefixTable(int[] flippedStarts, int n) {
    int[] prefix = new int[65537];
    int row = 0;
    for (int p = 0; p <= 65536; p++) {
      while (row < n && ((flippedStarts[row] ^ 0x80000000) >>> 16) < p) {
        row++;
      }
      prefix[p] = row;
    }
    return prefix;
  }

  /** Parses lines of one file into {@link RangeRows}, detecting delimiter and header. */
  private static final class RangeSink implements SourceScan.PieceSink {
    private final Rejects rejects = new Rejects();
    private final SourceScan.Piece piece;
    private final RangeRows rows;
    private final List<String> notes;
    private RangeLine parser;
    private boolean sawData;
    long skipped;

    RangeSink(SourceScan.Piece piece, RangeRows rows, byte delimiter, List<String> notes) {
      this.piece = piece;
      this.rows = rows;
      this.notes = notes;
      this.parser = delimiter == 0 ? null : new RangeLine(delimiter);
    }

    @Override
    public Rejects rejects() {
      return rejects;
    }

    @Override
    public void line(byte[] b, int from, int to, long index) {
      int f = from;
      int t = to;
      while (f < t && Ipv4Text.isBlank(b[f])) {
        f++;
      }
      while (t > f && Ipv4Text.isBlank(b[t - 1])) {
        t--;
      }
      if (f == t || b[f] == '#') {
        skipped++;
        return;
      }
      boolean firstData = !sawData;
      sawData = true;
      if (parser == null) {
        byte d = RangeLine.detectDelimiter(b, from, to);
        if (d == 0 && firstData) {
          skipHeader(b, from, to, index);
          return;
        }
        parser = new RangeLine(d == 0 ? (byte) ',' : d);
        notes.add(piece.name() + ": delimiter " + describe(parser.delimiter()) + " (detected)");
      }
      String reason = parser.parse(b, from, to);
      if (reason != null && firstData && !startsLikeAddress(b, f, t)) {
        skipHeader(b, from, to, index);
        return;
      }
      if (reason != null) {
        rejects.add(reason, piece.name(), index + 1, b, from, to);
        return;
      }
      rows.add(
          parser.start(),
          parser.end(),
          b,
          parser.labelFrom(),
          parser.labelTo(),
          piece.fileIndex,
          index + 1);
    }

    private void skipHeader(byte[] b, int from, int to, long index) {
      skipped++;
      notes.add(
          piece.name()
              + ":"
              + (index + 1)
              + ": skipped header line '"
              + Rejects.snippet(b, from, to)
              + "'");
    }

    /** A header's first field does not start with a digit or a quoted digit. */
    private static boolean startsLikeAddress(byte[] b, int f, int t) {
      int i = f < t && b[f] == '"' ? f + 1 : f;
      return i < t && ((b[i] >= '0' && b[i] <= '9') || b[i] == ':');
    }

    @Override
    public void tooLong(byte[] b, int from, int to, long index) {
      sawData = true;
      rejects.add("line-too-long", piece.name(), index + 1, b, from, to);
    }
  }

  static String describe(byte d) {
    return d == '\t' ? "tab" : "'" + (char) d + "'";
  }
}
