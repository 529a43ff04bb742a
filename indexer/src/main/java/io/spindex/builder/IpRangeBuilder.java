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
import io.spindex.index.PackedRows;
import io.spindex.index.Section;
import io.spindex.index.SourceInfo;
import io.spindex.text.InputException;
import io.spindex.text.RangeLine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds an IP range index from range text ({@link RangeLine}): delimiter given or detected per
 * file, a header line skipped (and said so), blank lines and {@code #} comments skipped, ranges
 * sorted, overlaps failed or flattened by an {@link OverlapPolicy} (within each family), labels
 * stored once each. IPv4 and IPv6 lines may come in one file or in several; with any IPv6 range the
 * index is dual-stack (format version 2), else it is the IPv4 index of version 1. With the prefix
 * table on, /16 blocks of more than {@value IndexWriter#DENSE_ROWS} ranges get /24 sub-tables
 * (section {@code prefix24}, format version 3) within a size budget, densest first.
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
      try (java.io.InputStream s =
          in.getFileName().toString().endsWith(".gz")
              ? new java.util.zip.GZIPInputStream(java.nio.file.Files.newInputStream(in))
              : java.nio.file.Files.newInputStream(in)) {
        starts.add(RangePart.FileStart.read(s, in.toString(), delimiter));
      } catch (java.io.EOFException | java.util.zip.ZipException e) {
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
    MmdbSource.fields(specs); // a malformed spec fails here, before any input is read
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

  private RangeEnds ends = RangeEnds.AUTO;

  /**
   * Whether the IPv4 ranges are stored with their ends ({@link RangeEnds#STORED}: a file every
   * older reader reads), without them ({@link RangeEnds#TILED}, format version 6) or without them
   * and packed ({@link RangeEnds#PACKED}, format version 7); by default ({@link RangeEnds#AUTO})
   * the smallest.
   */
  public IpRangeBuilder rangeEnds(RangeEnds e) {
    this.ends = e;
    return this;
  }

  private LabelStore labelStore = LabelStore.AUTO;

  /**
   * Whether labels with declared fields are stored whole ({@link LabelStore#WHOLE}: a file every
   * older reader reads) or by field ({@link LabelStore#FIELDS}, format version 7); by default
   * ({@link LabelStore#AUTO}) by field when that is smaller.
   */
  public IpRangeBuilder labelStore(LabelStore s) {
    this.labelStore = s;
    return this;
  }

  public IpRangeBuilder onOverlap(OverlapPolicy p) {
    this.policy = p;
    return this;
  }

  @Override
  public BuildReport build(List<Path> inputs, Path output) throws IOException {
    long t0 = System.nanoTime();
    return assemble(inputs).writeTo(output, t0);
  }

  /** Builds the index in memory only: the {@code text} loader. */
  public IpRanges buildInMemory(List<Path> inputs) throws IOException {
    return assemble(inputs).writer.toIndex(inputs.get(0), "text").asRanges();
  }

  private Built assemble(List<Path> inputs) throws IOException {
    if (MmdbSource.all(inputs)) {
      return assembleMmdb(inputs);
    }
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
    extras(b.writer, r.info, r.aliases);
    return b;
  }

  private static void extras(IndexWriter w, SourceInfo info, long[] aliases) {
    if (!info.isEmpty()) {
      byte[] i = info.bytes();
      w.bytes(Section.SOURCE_INFO, i, i.length);
    }
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
    // Each layout that may be written, with its tables; auto keeps the smallest. Rows without
    // their ends are packed (2 bytes a start below its /16 block, the label id in the bytes its
    // count needs) by auto and packed when a prefix table gives the blocks.
    int idBytes = PackedRows.labelIdBytes(rows.labelCount());
    boolean packs = ends == RangeEnds.AUTO || ends == RangeEnds.PACKED;
    boolean pack =
        prefixTable && packs && (long) (2 + idBytes) * (flat.size + gaps) <= Integer.MAX_VALUE / 2;
    Rows4Layout rows4 =
        ends == RangeEnds.TILED || ends == RangeEnds.PACKED
            ? null
            : new Rows4Layout(flat.starts, flat.size, null, 0, flat.size);
    if (ends.tile(flat.size, gaps, 12, pack ? 2 + idBytes : 8)) {
      int[][] t = flat.tiled(gaps);
      Rows4Layout tiled = new Rows4Layout(t[0], t[0].length, t[1], pack ? idBytes : 0, flat.size);
      rows4 = rows4 == null || tiled.bytes() < rows4.bytes() ? tiled : rows4;
    }
    if (rows4.tiledLabels != null) {
      b.counts.put("gap rows", (long) gaps);
    }
    Rows6Layout rows6out = null;
    if (flat6 != null) {
      rows6out =
          ends == RangeEnds.TILED || ends == RangeEnds.PACKED
              ? null
              : new Rows6Layout(
                  flat6.startHi, flat6.startLo, flat6.size, null, false, flat6.size, false);
      int gaps6 = flat6.gaps();
      boolean zeros = packs && lowHalvesZero(flat6.startLo, flat6.size);
      if (ends.tile(flat6.size, gaps6, 36, zeros ? 12 : 20)) {
        int[] labels = new int[flat6.size + gaps6];
        long[][] t = flat6.tiled(gaps6, labels);
        boolean lowsZero = packs && lowHalvesZero(t[1], labels.length);
        // Tiled rows are packed with their label ids (tiled6_rows) by auto and packed: 4 bytes
        // a row more than tiled6_labels, for lookups that read one cache line of rows.
        Rows6Layout tiled =
            new Rows6Layout(t[0], t[1], labels.length, labels, lowsZero, flat6.size, packs);
        rows6out = rows6out == null || tiled.bytes() < rows6out.bytes() ? tiled : rows6out;
      }
      if (rows6out.tiledLabels != null) {
        b.counts.put("ipv6 gap rows", (long) gaps6);
      }
    }
    int count6 = rows6out == null ? 0 : rows6out.size;
    IndexWriter w = new IndexWriter(IndexKind.IPV4_RANGES, (long) rows4.size + count6, digest);
    created(w);
    if (rows4.idBytes > 0) {
      byte[] low = PackedRows.lows(rows4.starts, rows4.size);
      w.bytes(Section.RANGE_STARTS_LOW, low, low.length);
      byte[] ids = PackedRows.labelIds(rows4.tiledLabels, rows4.size, rows4.idBytes);
      w.bytes(Section.ROW_LABEL_IDS, ids, ids.length);
    } else {
      w.ints(Section.RANGE_STARTS, rows4.starts, rows4.size);
    }
    if (rows4.tiledLabels == null) {
      w.ints(Section.RANGE_ENDS, flat.ends, flat.size);
      w.ints(Section.RANGE_LABELS, flat.labels, flat.size);
    } else if (rows4.idBytes == 0) {
      w.ints(Section.TILED_LABELS, rows4.tiledLabels, rows4.size);
    }
    if (rows4.prefix != null) {
      w.ints(Section.PREFIX16, rows4.prefix, rows4.prefix.length);
      if (rows4.sub != null) {
        w.ints(Section.PREFIX24, rows4.sub, rows4.sub.length);
      }
    }
    int[] offsets = rows.labelOffsets();
    FieldLabels byField = null;
    if (schema != null && labelStore != LabelStore.WHOLE) {
      long t2 = System.nanoTime();
      byField = FieldLabels.of(offsets, rows.labelBytes(), rows.labelCount(), schema);
      b.phases.put("labels", System.nanoTime() - t2);
    }
    if (byField != null
        && labelStore == LabelStore.AUTO
        && byField.bytes() >= FieldLabels.wholeBytes(rows.labelCount(), rows.labelBytesLength())) {
      byField = null;
    }
    if (byField == null) {
      w.ints(Section.LABEL_OFFSETS, offsets, offsets.length);
      w.bytes(Section.LABEL_BYTES, rows.labelBytes(), rows.labelBytesLength());
    } else {
      byField.write(w);
      b.counts.put("label values", (long) byField.offsets.length - 1);
    }
    if (schema != null) {
      byte[] f = schema.fieldsSection();
      w.bytes(Section.LABEL_FIELDS, f, f.length);
      if (schema.typed()) {
        byte[] t = schema.typesSection();
        w.bytes(Section.LABEL_TYPES, t, t.length);
      }
    }
    if (rows6out != null) {
      w.longs(Section.RANGE6_STARTS_HI, rows6out.startHi, count6);
      if (rows6out.lowsZero) {
        // Tiled IPv6 rows whose starts all have a low half of 0 (auto, packed): no column for
        // them.
        w.bytes(Section.RANGE6_STARTS_LO_ZERO, new byte[0], 0);
      } else {
        w.longs(Section.RANGE6_STARTS_LO, rows6out.startLo, count6);
      }
      if (rows6out.prefix != null) {
        w.ints(Section.PREFIX16_V6, rows6out.prefix, rows6out.prefix.length);
        if (rows6out.tables != null) {
          w.ints(Section.PREFIX6, rows6out.tables, rows6out.tables.length);
        }
      }
      if (rows6out.tiledLabels == null) {
        w.longs(Section.RANGE6_ENDS_HI, flat6.endHi, size6);
        w.longs(Section.RANGE6_ENDS_LO, flat6.endLo, size6);
        w.ints(Section.RANGE6_LABELS, flat6.labels, size6);
      } else if (rows6out.packedRows != null) {
        w.longs(Section.TILED6_ROWS, rows6out.packedRows, count6);
      } else {
        w.ints(Section.TILED6_LABELS, rows6out.tiledLabels, count6);
      }
    }
    b.writer = w;
  }

  /** Whether each of the first {@code n} flipped low halves is 0 (stored as the flip alone). */
  private static boolean lowHalvesZero(long[] flippedLo, int n) {
    for (int i = 0; i < n; i++) {
      if (flippedLo[i] != Long.MIN_VALUE) {
        return false;
      }
    }
    return true;
  }

  /** The IPv6 rows of one layout, with their /16 prefix table and prefix6 tables. */
  private final class Rows6Layout {
    final long[] startHi;
    final long[] startLo;
    final int size;

    /** The tiled rows' label ids (-1 for a gap), or {@code null} with the ends stored. */
    final int[] tiledLabels;

    /** Whether the rows are tiled and written without their starts' low halves, all 0. */
    final boolean lowsZero;

    final int[] prefix;
    final int[] tables;

    /**
     * The tiled rows packed 8 bytes a row with their label ids ({@code tiled6_rows}), or {@code
     * null}.
     */
    final long[] packedRows;

    /**
     * @param ranges the ranges the rows hold: the tables' budget is a share of their 36 bytes each
     *     whatever the layout, so that gap rows do not buy a file more tables
     * @param pack whether to pack tiled rows with a prefix table ({@code tiled6_rows})
     */
    Rows6Layout(
        long[] startHi,
        long[] startLo,
        int size,
        int[] tiledLabels,
        boolean lowsZero,
        int ranges,
        boolean pack) {
      this.startHi = startHi;
      this.startLo = startLo;
      this.size = size;
      this.tiledLabels = tiledLabels;
      this.lowsZero = lowsZero;
      int rowBytes = size == 0 ? 36 : (int) ((36L * ranges + size - 1) / size);
      if (prefixTable && pack && tiledLabels != null && size > 0) {
        prefix = IndexWriter.prefixTable128(startHi, size);
        tables = IndexWriter.tablesForPackedRows6(startHi, size, prefix, rowBytes, ipv6TableBudget);
        packedRows =
            IndexWriter.packedRows6(
                startHi, lowsZero ? null : startLo, tiledLabels, size, prefix, tables);
      } else if (prefixTable) {
        prefix = IndexWriter.prefixTable128(startHi, size);
        tables = IndexWriter.tables128(startHi, size, prefix, rowBytes, ipv6TableBudget);
        packedRows = null;
      } else {
        prefix = null;
        tables = null;
        packedRows = null;
      }
    }

    /**
     * Bytes of the rows and the prefix6 tables (the rest of the file is the same either way), by
     * which auto chooses. Tiled rows count 4 bytes a row for their label ids, packed or not:
     * packing them (4 bytes a row more, for speed) never makes auto store the ends instead.
     */
    long bytes() {
      return (long) size * (tiledLabels == null ? 36 : lowsZero ? 12 : 20)
          + (tables == null ? 0 : 4L * tables.length);
    }
  }

  /** The IPv4 rows of one layout, with their /16 prefix table and /24 sub-tables. */
  private final class Rows4Layout {
    final int[] starts;
    final int size;

    /** The tiled rows' label ids (-1 for a gap), or {@code null} with the ends stored. */
    final int[] tiledLabels;

    /** Bytes a packed row's label id takes, or 0 for rows that are not packed. */
    final int idBytes;

    final int[] prefix;
    final int[] sub;

    /**
     * @param ranges the ranges the rows hold: the dense blocks and the sub-tables' budget are
     *     counted in ranges whatever the layout, so that gap rows do not buy a file more tables
     */
    private Rows4Layout(int[] starts, int size, int[] tiledLabels, int idBytes, int ranges) {
      this.starts = starts;
      this.size = size;
      this.tiledLabels = tiledLabels;
      this.idBytes = idBytes;
      if (prefixTable) {
        prefix = prefixTable(starts, size);
        // A block of more than denseRows ranges has about size / ranges times as many rows.
        int minRows = ranges == 0 ? denseRows : (int) ((long) denseRows * size / ranges);
        sub = IndexWriter.subTables(starts, ranges, prefix, minRows, subTableBudget);
      } else {
        prefix = null;
        sub = null;
      }
    }

    /** Bytes of the rows and the /24 sub-tables (the rest of the file is the same either way). */
    long bytes() {
      long row = idBytes > 0 ? 2 + idBytes : tiledLabels != null ? 8 : 12;
      return row * size + (sub == null ? 0 : 4L * sub.length);
    }
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
                + new String(h, java.nio.charset.StandardCharsets.UTF_8)
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
            where + ": the header's label fields must be distinct and not empty, found " + fields);
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
