/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexKind;
import io.spindex.index.IndexWriter;
import io.spindex.index.IpRanges;
import io.spindex.index.LabelSchema;
import io.spindex.index.Section;
import io.spindex.index.SourceInfo;
import io.spindex.index.search.PackedRows;
import io.spindex.text.Clip;
import io.spindex.text.InputException;
import io.spindex.text.RangeLine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds an IP range index from range text ({@link RangeLine}) or MaxMind databases: delimiter
 * given or detected per file, a header line skipped (and said so), blank lines and {@code #}
 * comments skipped, ranges sorted, overlaps failed or flattened by an {@link OverlapPolicy} (within
 * each family), labels stored once each (by field when the build declares fields). IPv4 and IPv6
 * lines may come in one file or in several. The layout is the one docs/FORMAT.md specifies: rows of
 * ranges and the gaps between them, packed; /16 blocks of more than {@value IndexWriter#DENSE_ROWS}
 * ranges get /24 sub-tables within a size budget, densest first.
 */
@Internal
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

  private LabelSchema schema;

  /**
   * Declares the fields a label is made of (e.g. {@code country, region, city, isp}), each {@code
   * name} or {@code name:type} (a {@link LabelSchema.FieldType}), and the delimiter that splits a
   * label into them; stored in the index (sections {@code label_fields}, {@code label_types}) for
   * {@code spindex_lookup} and {@code inspect}. A line whose label has another number of fields, or
   * a field that does not parse as its type, is a reject ({@link LabelSchema#misfit}).
   */
  public IpRangeBuilder labelFields(List<String> names, String delimiter) {
    this.schema = LabelSchema.declared(names, delimiter);
    return this;
  }

  /**
   * How many fields each line's label must have: with {@code --label-fields-from-header}, as many
   * as the first header names after its file's first range's address fields (the names the index
   * declares); else 0 (no check beyond {@link #declaredSchema}).
   *
   * @param starts what each input's first lines settled, in input order
   */
  public int headerLabelFields(List<RangePart.FileStart> starts) {
    return labelFieldsFromHeader ? RangeSink.headerLabelFields(starts) : 0;
  }

  private int labelFieldsOfHeaders(List<Path> inputs) throws IOException {
    List<RangePart.FileStart> starts = new ArrayList<>();
    for (Path in : inputs) {
      try (java.io.InputStream s = io.spindex.text.Gzip.open(in)) {
        starts.add(RangePart.FileStart.read(s, in.toString(), delimiter));
      } catch (java.io.EOFException | java.util.zip.ZipException | InputException e) {
        starts.add(RangePart.FileStart.NONE); // a damaged gzip: the scan names it
      }
    }
    return headerLabelFields(starts);
  }

  /** The schema {@link #labelFields} declared, or {@code null}: what each line's label must fit. */
  public LabelSchema declaredSchema() {
    return schema;
  }

  private boolean labelFieldsFromHeader;

  private List<String> mmdbFields = List.of();
  private boolean allowMissing;

  /**
   * The fields a MaxMind DB input's records give the labels, each {@code NAME=PATH} or {@code
   * NAME=FILE:PATH} (dotted map keys and array indices, e.g. {@code city=city.names.en}); none:
   * every key of flat records. A path no record has is a usage error unless {@code allowMissing}.
   */
  public IpRangeBuilder mmdbFields(List<String> specs, boolean allowMissing) {
    MmdbFields.fields(specs); // a malformed spec fails here, before any input is read
    this.mmdbFields = List.copyOf(specs);
    this.allowMissing = allowMissing;
    return this;
  }

  /**
   * Takes the label fields from the input's header line instead ({@code
   * start,end,country,region,city} gives {@code country, region, city}, split by the file's
   * delimiter): the header's fields from the one where the first range's label begins. The first
   * file with a header names them; a file without one is an {@link InputException}.
   */
  public IpRangeBuilder labelFieldsFromHeader() {
    this.labelFieldsFromHeader = true;
    return this;
  }

  private int denseRows = IndexWriter.DENSE_ROWS;
  private double subTableBudget = IndexWriter.SUB_TABLE_BUDGET;

  /**
   * Which /16 blocks get /24 sub-tables: those with more than {@code minRows} ranges, densest
   * first, while the sub-tables stay within {@code budget} times the ranges' own bytes (12 a
   * range). The defaults ({@value IndexWriter#DENSE_ROWS}, {@value IndexWriter#SUB_TABLE_BUDGET})
   * suit every index; tests lower them to give small indexes sub-tables. A budget of 0 writes none.
   */
  public IpRangeBuilder subTables(int minRows, double budget) {
    if (minRows < 0 || budget < 0) {
      throw new IllegalArgumentException("sub-tables: minRows and budget must be >= 0");
    }
    this.denseRows = minRows;
    this.subTableBudget = budget;
    return this;
  }

  public IpRangeBuilder onOverlap(OverlapPolicy p) {
    this.policy = p;
    return this;
  }

  @Override
  public BuildReport build(List<Path> inputs, Path output) throws IOException {
    long t0 = System.nanoTime();
    return assemble(inputs).writeTo(inputs, output, t0, allowEmpty);
  }

  /** Builds the index in memory only: the {@code text} loader. */
  public IpRanges buildInMemory(List<Path> inputs) throws IOException {
    return assemble(inputs).writer.toIndex(inputs.get(0), "text").asRanges();
  }

  /** A build of local files: their databases' build time, else their modification time. */
  private Built assemble(List<Path> inputs) throws IOException {
    Built b = MmdbSource.all(inputs) ? assembleMmdb(inputs) : assembleText(inputs);
    sourceTimeOfFiles(b.writer, inputs);
    return b;
  }

  private Built assembleText(List<Path> inputs) throws IOException {
    if (!mmdbFields.isEmpty()) {
      throw new IllegalArgumentException(
          "--field is for MaxMind DB inputs; "
              + (inputs.size() == 1 ? inputs.get(0) + " is" : "these are")
              + " text (--label-fields names the fields of a text label)");
    }
    // Range files are small next to IP lists (millions of lines, not hundreds of millions):
    // one reader thread keeps input order, which the first/last policies and messages need.
    long t0 = System.nanoTime();
    RangeRows rows = new RangeRows();
    Ipv6RangeRows rows6 = new Ipv6RangeRows();
    List<String> notes = new ArrayList<>();
    int labelFields = labelFieldsFromHeader ? labelFieldsOfHeaders(inputs) : 0;
    SourceScan.Result<RangeSink> scan =
        SourceScan.scan(
            inputs,
            1,
            p -> new RangeSink(p, rows, rows6, delimiter, schema, labelFields, notes),
            progress);
    if (strict && scan.rejects.total() > 0) {
      throw new InputException(
          "rejected line (--strict): " + scan.rejects.samples().get(0) + " (" + expected() + ")");
    }
    long skipped = 0;
    long extraRows = 0;
    List<RangeSink.FileHead> heads = new ArrayList<>();
    for (RangeSink s : scan.sinks) {
      skipped += s.skipped;
      extraRows += s.extraRows;
      heads.add(s.head);
    }
    List<String> sources = new ArrayList<>();
    for (Path in : inputs) {
      sources.add(in.toString());
    }
    Built b = new Built();
    b.phases.put("read", System.nanoTime() - t0);
    b.rejects = scan.rejects;
    b.notes.addAll(notes);
    finish(
        b,
        rows,
        rows6,
        heads,
        sources,
        new long[] {scan.lines, skipped, scan.rejects.total(), scan.bytes, extraRows},
        scan.digest);
    return b;
  }

  /**
   * The index of MaxMind databases (local files), for a distributed build that copied them from its
   * file system ({@code build-index} on Spark): the same sections and counts as {@link #build} of
   * the same files.
   */
  public Assembled assembleDatabases(List<Path> inputs) throws IOException {
    Built b = assembleMmdb(inputs);
    return new Assembled(b.writer, b.counts);
  }

  /** A build from MaxMind databases: their networks, joined, with typed fields. */
  private Built assembleMmdb(List<Path> inputs) throws IOException {
    if (schema != null || labelFieldsFromHeader) {
      throw new IllegalArgumentException(
          "--label-fields and --label-fields-from-header are for text inputs; a MaxMind DB's"
              + " fields are chosen with --field NAME=PATH");
    }
    long t0 = System.nanoTime();
    RangeRows rows = new RangeRows();
    Ipv6RangeRows rows6 = new Ipv6RangeRows();
    Built b = new Built();
    MmdbSource.Result r = MmdbSource.read(inputs, mmdbFields, allowMissing, rows, rows6, b.notes);
    b.phases.put("read", System.nanoTime() - t0);
    b.rejects = new Rejects();
    schema = r.schema;
    List<String> sources = new ArrayList<>();
    for (Path in : inputs) {
      sources.add(in.toString());
    }
    long rowsMade = (long) rows.size() + rows6.size();
    finish(
        b,
        rows,
        rows6,
        List.of(),
        sources,
        new long[] {r.networks, 0, 0, r.sourceBytes, rowsMade - r.networks},
        r.digest);
    b.counts.put("networks", r.networks);
    extras(b.writer, r.info, r.buildMillis, r.aliases);
    return b;
  }

  private void extras(IndexWriter w, SourceInfo info, long buildMillis, long[] aliases) {
    w.sourceInfo(info);
    w.sourceMillisUnlessKnown(buildMillis); // when MaxMind built them, not when they were copied
    if (aliases.length > 0) {
      w.longs(Section.IPV4_ALIASES, aliases, aliases.length);
    }
  }

  /** What a range line must look like, as rejects and --strict say. */
  static final String EXPECTED = "expected start<d>end<d>label or address/len<d>label";

  /** {@link #EXPECTED}, and what the label must hold when its fields were declared. */
  String expected() {
    return schema == null ? EXPECTED : EXPECTED + ", the label " + schema.expected();
  }

  /**
   * The index of a distributed build ({@code build-index} on Spark) from the parts its splits were
   * parsed into ({@link RangePart.Parser}), in input order: the same sections, checksums and counts
   * as {@link #build} of the same input.
   *
   * @param sources the inputs' names, by file index
   * @param sourceBytes the inputs' stored bytes
   * @param digest SHA-256 of the inputs' stored bytes, in order
   */
  public Assembled assembleParts(
      List<RangePart> parts, List<String> sources, long sourceBytes, byte[] digest)
      throws InputException {
    RangeRows rows = new RangeRows();
    Ipv6RangeRows rows6 = new Ipv6RangeRows();
    RangeSink.FileHead[] heads = new RangeSink.FileHead[sources.size()];
    long lines = 0;
    long skipped = 0;
    long rejected = 0;
    long extraRows = 0;
    for (RangePart p : parts) {
      extraRows += p.extraRows;
      rows6.addAll(p.rows6, rows.addAll(p.rows));
      heads[p.file] = heads[p.file] == null ? p.head : heads[p.file].then(p.head);
      lines += p.lines;
      skipped += p.skipped;
      rejected += p.rejected();
    }
    List<RangeSink.FileHead> inOrder = new ArrayList<>();
    for (RangeSink.FileHead h : heads) {
      if (h != null) {
        inOrder.add(h);
      }
    }
    Built b = new Built();
    finish(
        b,
        rows,
        rows6,
        inOrder,
        sources,
        new long[] {lines, skipped, rejected, sourceBytes, extraRows},
        digest);
    return new Assembled(b.writer, b.counts);
  }

  /**
   * Flattens the rows and lays out the index, for both builds.
   *
   * @param lineCounts lines, skipped, rejected, source bytes, rows beyond one per accepted line
   */
  private void finish(
      Built b,
      RangeRows rows,
      Ipv6RangeRows rows6,
      List<RangeSink.FileHead> heads,
      List<String> sources,
      long[] lineCounts,
      byte[] digest)
      throws InputException {
    if (labelFieldsFromHeader) {
      fieldsFromHeader(heads, sources);
    }
    long t1 = System.nanoTime();
    long accepted = (long) rows.size() + rows6.size() - lineCounts[4];
    RangeFlattener.Flat flat = RangeFlattener.flatten(rows, policy, sources);
    Ipv6RangeRows.Flat flat6 = rows6.size() == 0 ? null : rows6.flatten(policy, sources);
    int size6 = flat6 == null ? 0 : flat6.size;
    b.phases.put("sort", System.nanoTime() - t1);
    b.counts.put("lines", lineCounts[0]);
    b.counts.put("skipped", lineCounts[1]);
    b.counts.put("accepted", accepted);
    b.counts.put("rejected", lineCounts[2]);
    b.counts.put("overlapping", (long) flat.overlapping + (flat6 == null ? 0 : flat6.overlapping));
    b.counts.put("ranges", (long) flat.size + size6);
    if (flat6 != null) {
      b.counts.put("ipv4 ranges", (long) flat.size);
      b.counts.put("ipv6 ranges", (long) size6);
    }
    b.counts.put("labels", (long) rows.labelCount());
    b.counts.put("source bytes", lineCounts[3]);
    int gaps = flat.gaps();
    int gaps6 = flat6 == null ? 0 : flat6.gaps();
    b.counts.put("gap rows", (long) gaps);
    if (flat6 != null) {
      b.counts.put("ipv6 gap rows", (long) gaps6);
    }
    long rowCount = (long) flat.size + gaps + size6 + gaps6;
    IndexWriter w = created(new IndexWriter(IndexKind.IPV4_RANGES, rowCount, digest));
    packedRows(w, flat, gaps, rows.labelCount());
    if (flat6 != null) {
      packedRows6(w, flat6, gaps6);
    }
    int[] offsets = rows.labelOffsets();
    if (schema == null) {
      w.ints(Section.LABEL_OFFSETS, offsets, offsets.length);
      w.bytes(Section.LABEL_BYTES, rows.labelBytes(), rows.labelBytesLength());
    } else {
      long t2 = System.nanoTime();
      FieldLabels byField = FieldLabels.of(offsets, rows.labelBytes(), rows.labelCount(), schema);
      if (byField == null) {
        // Every line's label was checked against the fields (or made from them): a bug.
        throw new IllegalStateException("a label that does not split into its declared fields");
      }
      b.phases.put("labels", System.nanoTime() - t2);
      byField.write(w);
      b.counts.put("label values", (long) byField.offsets.length - 1);
      byte[] f = schema.fieldsSection();
      w.bytes(Section.LABEL_FIELDS, f, f.length);
      if (schema.typed()) {
        byte[] t = schema.typesSection();
        w.bytes(Section.LABEL_TYPES, t, t.length);
      }
    }
    b.writer = w;
  }

  /**
   * The IPv4 rows (docs/FORMAT.md, "IPv4 ranges"): a row a range and a row a gap after one, each
   * start as its 16 bits below the /16 block of {@code prefix16}, each label id in the fewest bytes
   * that hold every id and the gap's; the /24 sub-tables of the dense blocks. Without rows, no
   * tables.
   */
  private void packedRows(IndexWriter w, RangeFlattener.Flat flat, int gaps, int labels)
      throws InputException {
    int[][] t = flat.tiled(gaps);
    int n = t[0].length;
    if (n > MAX_IPV4_ROWS) {
      throw new InputException(
          "too many IPv4 ranges and gaps between them for one index: "
              + n
              + " rows (at most "
              + MAX_IPV4_ROWS
              + ")");
    }
    int idBytes = PackedRows.labelIdBytes(labels);
    byte[] low = PackedRows.lows(t[0], n);
    w.bytes(Section.RANGE_STARTS_LOW, low, low.length);
    byte[] ids = PackedRows.labelIds(t[1], n, idBytes);
    w.bytes(Section.ROW_LABEL_IDS, ids, ids.length);
    if (n == 0) {
      return; // no IPv4 rows: no tables to place them
    }
    int[] prefix = prefixTable(t[0], n);
    w.ints(Section.PREFIX16, prefix, prefix.length);
    // A block of more than denseRows ranges has about n / ranges times as many rows.
    int minRows = (int) ((long) denseRows * n / flat.size);
    int[] sub = IndexWriter.subTables(t[0], flat.size, prefix, minRows, subTableBudget);
    if (sub != null) {
      w.ints(Section.PREFIX24, sub, sub.length);
    }
  }

  /**
   * The IPv6 rows (docs/FORMAT.md, "IPv6 ranges"): a row a range and a row a gap after one, the
   * starts' halves (the low ones only when one is not 0), the /16 prefix table and the prefix6
   * tables sized for the rows, each row with its label id.
   */
  private void packedRows6(IndexWriter w, Ipv6RangeRows.Flat flat6, int gaps) {
    int[] labels = new int[Math.addExact(flat6.size, gaps)];
    long[][] t = flat6.tiled(gaps, labels);
    int n = labels.length;
    boolean lowsZero = lowHalvesZero(t[1], n);
    w.longs(Section.RANGE6_STARTS_HI, t[0], n);
    if (!lowsZero) {
      w.longs(Section.RANGE6_STARTS_LO, t[1], n);
    }
    int[] prefix = IndexWriter.prefixTable128(t[0], n);
    w.ints(Section.PREFIX16_V6, prefix, prefix.length);
    // The tables' budget is a share of 36 bytes a range (its start, end and label id), so that gap
    // rows do not buy a file more tables.
    int rowBytes = (int) ((36L * flat6.size + n - 1) / n);
    int[] tables = IndexWriter.tablesForRows6(t[0], n, prefix, rowBytes, ipv6TableBudget);
    if (tables != null) {
      w.ints(Section.PREFIX6, tables, tables.length);
    }
    long[] packed = IndexWriter.rows6(t[0], lowsZero ? null : t[1], labels, n, prefix, tables);
    w.longs(Section.RANGE6_ROWS, packed, n);
  }

  /**
   * The most IPv4 rows an index holds: their starts (2 bytes a row) and label ids (up to 4) are
   * byte sections, each viewed through one mapping of at most 1 GiB.
   */
  private static final int MAX_IPV4_ROWS = 1 << 28;

  /** Whether each of the first {@code n} flipped low halves is 0 (stored as the flip alone). */
  private static boolean lowHalvesZero(long[] flippedLo, int n) {
    for (int i = 0; i < n; i++) {
      if (flippedLo[i] != Long.MIN_VALUE) {
        return false;
      }
    }
    return true;
  }

  /** The label fields named by the first header whose file has a parsed range after it. */
  private void fieldsFromHeader(List<RangeSink.FileHead> heads, List<String> inputs)
      throws InputException {
    for (RangeSink.FileHead s : heads) {
      if (s.header == null || s.fieldsBeforeLabel < 0) {
        continue;
      }
      List<String> names = new ArrayList<>();
      byte d = s.dataDelimiter;
      byte[] h = s.header;
      int f = 0;
      for (int i = 0; i <= h.length; i++) {
        if (i == h.length || h[i] == d) {
          String n = new String(h, f, i - f, java.nio.charset.StandardCharsets.UTF_8).trim();
          if (n.length() >= 2 && n.startsWith("\"") && n.endsWith("\"")) {
            n = n.substring(1, n.length() - 1).trim();
          }
          names.add(n);
          f = i + 1;
        }
      }
      List<String> fields =
          names.size() > s.fieldsBeforeLabel
              ? names.subList(s.fieldsBeforeLabel, names.size())
              : List.of();
      String where = s.source + ":" + s.headerLine;
      if (fields.isEmpty()) {
        throw new InputException(
            where
                + ": the header names no label field after the "
                + s.fieldsBeforeLabel
                + " address field(s) (expected e.g. 'start,end,country,city', found '"
                + Clip.of(new String(h, java.nio.charset.StandardCharsets.UTF_8), 100)
                + "')");
      }
      try {
        schema =
            new LabelSchema(
                fields,
                java.util.Collections.nCopies(fields.size(), LabelSchema.FieldType.STRING),
                String.valueOf((char) d),
                false);
      } catch (IllegalArgumentException e) {
        throw new InputException(
            where
                + ": the header's label fields must be distinct and not empty, found "
                + Clip.of(fields.toString(), 100));
      }
      // The index declares one delimiter, and its labels are stored split by it: every file's
      // labels must be split by the same one (each line's fields were counted by its own file's).
      for (RangeSink.FileHead o : heads) {
        if (o.fieldsBeforeLabel >= 0 && o.dataDelimiter != d) {
          throw new InputException(
              o.source
                  + ": its lines are split by "
                  + describe(o.dataDelimiter)
                  + ", the label fields of "
                  + where
                  + " by "
                  + describe(d)
                  + " (--label-fields-from-header declares one delimiter for every file's labels:"
                  + " give the files one delimiter)");
        }
      }
      return;
    }
    throw new InputException(
        "--label-fields-from-header: no header line before the first range in "
            + (inputs.size() == 1 ? inputs.get(0) : inputs)
            + " (expected a first line such as 'start,end,country,city')");
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

  static String describe(byte d) {
    return d == '\t' ? "tab" : "'" + (char) d + "'";
  }
}
