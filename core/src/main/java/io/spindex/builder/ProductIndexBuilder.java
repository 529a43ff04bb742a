/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import io.spindex.ep.feed.EpHeader;
import io.spindex.ep.feed.LineCheck;
import io.spindex.ep.feed.ProductColumns;
import io.spindex.index.IndexKind;
import io.spindex.index.IndexWriter;
import io.spindex.index.ProductIndex;
import io.spindex.index.Section;
import io.spindex.text.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds a product index from full EP files ({@code spindex build products}): every row's id hash,
 * {@code price_pc}, {@code shipping}, content hash and extra int fields ({@link ProductColumns}),
 * and the id text, sorted by id hash. Pieces of the input are read in parallel ({@link
 * SourceScan}); rows whose line fails the EP line checks or has an empty id are rejected by reason;
 * a repeated id keeps its first row (the others are rejected as {@code duplicate-id}); two
 * different ids with the same 64-bit hash fail the build, naming both.
 */
@Internal
public final class ProductIndexBuilder extends IndexBuilder<ProductIndexBuilder> {
  @Override
  ProductIndexBuilder self() {
    return this;
  }

  private int threads = Runtime.getRuntime().availableProcessors();
  private int prefixTableMinRows = 1 << 16;
  private int maxLineBytes = LineCheck.DEFAULT_MAX_LINE_BYTES;
  private List<String> extraIntFields = new ArrayList<>();

  public ProductIndexBuilder threads(int n) {
    this.threads = Math.max(1, n);
    return this;
  }

  /**
   * Fewest products for which the prefix table is written (default 65,536; 0: always). Below it a
   * binary search over the hashes stays in cache, while the 256 KiB table would not.
   */
  public ProductIndexBuilder prefixTableMinRows(int rows) {
    this.prefixTableMinRows = rows;
    return this;
  }

  /** Longest accepted line in bytes, line end excluded (default 64 KiB). */
  public ProductIndexBuilder maxLineBytes(int n) {
    this.maxLineBytes = n;
    return this;
  }

  /** Int fields stored after price_pc, shipping and the content hash. */
  public ProductIndexBuilder extraIntFields(List<String> fields) {
    this.extraIntFields = new ArrayList<>(fields);
    return this;
  }

  @Override
  public BuildReport build(List<Path> inputs, Path output) throws IOException {
    long t0 = System.nanoTime();
    return assemble(inputs).writeTo(inputs, output, t0, allowEmpty);
  }

  /** Builds the index in memory only (the {@code text} loader). */
  public ProductIndex buildInMemory(List<Path> inputs) throws IOException {
    return assemble(inputs).writer.toIndex(inputs.get(0), "text").asProducts();
  }

  private Built assemble(List<Path> inputs) throws IOException {
    long t0 = System.nanoTime();
    List<ProductColumns> perFile = new ArrayList<>();
    List<String> sources = new ArrayList<>();
    for (Path in : inputs) {
      perFile.add(new ProductColumns(EpHeader.read(in), extraIntFields, in.toString()));
      sources.add(in.toString());
    }
    SourceScan.Result<ProductSink> scan =
        SourceScan.scan(
            inputs,
            threads,
            p -> new ProductSink(p, perFile.get(p.fileIndex), maxLineBytes),
            progress);
    if (strict && scan.rejects.total() > 0) {
      throw new InputException(
          "rejected line (--strict): " + scan.rejects.samples().get(0) + " (" + EXPECTED + ")");
    }
    Built b = new Built();
    b.phases.put("read", System.nanoTime() - t0);
    b.rejects = scan.rejects;
    finish(b, scan.sinks, perFile.get(0), sources, scan.lines, scan.bytes, scan.digest);
    sourceTimeOfFiles(b.writer, inputs);
    return b;
  }

  /** What a reject of an EP row says was expected. */
  static final String EXPECTED = "see docs/EP.md";

  /**
   * The index of a distributed build ({@code build-index} on Spark) from the parts its splits were
   * parsed into ({@link ProductPart.Parser}), in input order: the same sections, checksums and
   * counts as {@link #build} of the same input. A later row with an id seen before is a {@code
   * duplicate-id} reject, as in the command; those rejects are found here and returned as reject
   * records in {@link Assembled#rejectRecords}.
   *
   * @param first the first input's header, whose columns the index lists
   * @param sources the inputs' names, by file index
   */
  public Assembled assembleParts(
      List<ProductPart> parts,
      EpHeader first,
      List<String> sources,
      long sourceBytes,
      byte[] digest)
      throws InputException {
    List<ProductSink> sinks = new ArrayList<>();
    long lines = 0;
    long rejected = 0;
    for (ProductPart p : parts) {
      sinks.add(p.sink);
      lines += p.lines;
      rejected += p.rejected();
    }
    java.io.ByteArrayOutputStream records = new java.io.ByteArrayOutputStream();
    Rejects duplicates =
        new Rejects()
            .listener(
                (reason, file, offset, b, from, to) -> {
                  byte[] r =
                      io.spindex.ep.feed.EpSplitLines.rejectRecord(
                          file, offset, reason, EXPECTED, b, from, to);
                  records.write(r, 0, r.length);
                  records.write('\n');
                });
    Built b = new Built();
    b.rejects = duplicates;
    b.rejectedBefore = rejected;
    finish(
        b,
        sinks,
        new ProductColumns(first, extraIntFields, sources.get(0)),
        sources,
        lines,
        sourceBytes,
        digest);
    return new Assembled(b.writer, b.counts, records.toByteArray());
  }

  /** Sorts the rows by id hash, drops duplicate ids and lays out the index, for both builds. */
  private void finish(
      Built b,
      List<ProductSink> sinks,
      ProductColumns columns,
      List<String> sources,
      long lines,
      long sourceBytes,
      byte[] digest)
      throws InputException {
    int stride = columns.columns();
    long t1 = System.nanoTime();
    long total = 0;
    for (ProductSink s : sinks) {
      total += s.rows;
    }
    if (total > Integer.MAX_VALUE - 16 || total * stride > Integer.MAX_VALUE - 16) {
      throw new InputException("too many products for one index: " + total);
    }
    int n = (int) total;
    long[] hashes = new long[n];
    int[] perm = new int[n];
    // Concatenate the pieces in input order: global row g is the g-th accepted row of the input.
    int g = 0;
    for (ProductSink s : sinks) {
      System.arraycopy(s.hashes, 0, hashes, g, s.rows);
      g += s.rows;
    }
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    RadixSort.sortUnsigned(hashes, perm, n);
    long t2 = System.nanoTime();
    Rows rows = new Rows(sinks, n);
    boolean[] drop = new boolean[n];
    long duplicates = findDuplicates(hashes, perm, n, rows, drop, b.rejects, sources);
    int kept = (int) (n - duplicates);
    long[] outHashes = new long[kept];
    int[] ints = new int[kept * stride];
    int[] idOffsets = new int[kept + 1];
    long idBytesTotal = 0;
    for (int i = 0; i < n; i++) {
      idBytesTotal += drop[i] ? 0 : rows.idLength(perm[i]);
    }
    if (idBytesTotal > Integer.MAX_VALUE - 16) {
      throw new InputException("product ids take more than 2 GiB: " + idBytesTotal + " bytes");
    }
    byte[] idBytes = new byte[(int) idBytesTotal];
    int[] prefix = new int[65537];
    int k = 0;
    int at = 0;
    for (int i = 0; i < n; i++) {
      if (drop[i]) {
        continue;
      }
      outHashes[k] = hashes[i];
      rows.copyInts(perm[i], ints, k * stride, stride);
      at = rows.copyId(perm[i], idBytes, at);
      idOffsets[k + 1] = at;
      prefix[(int) (hashes[i] >>> 48) + 1]++;
      k++;
    }
    for (int p = 0; p < 65536; p++) {
      prefix[p + 1] += prefix[p];
    }
    b.phases.put("sort", t2 - t1);
    b.phases.put("assemble", System.nanoTime() - t2);
    long skipped = 0;
    for (ProductSink s : sinks) {
      skipped += s.headers;
    }
    b.counts.put("lines", lines);
    b.counts.put("skipped", skipped);
    // A row whose id came before is a duplicate-id reject, not an accepted row: the counts
    // reconcile as lines = skipped + accepted + rejected.
    b.counts.put("accepted", total - duplicates);
    b.counts.put("rejected", b.rejectedBefore + b.rejects.total());
    b.counts.put("duplicates", duplicates);
    b.counts.put("products", (long) kept);
    b.counts.put("int columns", (long) stride);
    b.counts.put("source bytes", sourceBytes);
    IndexWriter w = new IndexWriter(IndexKind.PRODUCTS, kept, digest);
    created(w);
    byte[] names = String.join("\n", columns.columnNames()).getBytes(StandardCharsets.UTF_8);
    w.longs(Section.ID_HASHES, outHashes, kept);
    if (kept >= prefixTableMinRows) {
      w.ints(Section.PREFIX16, prefix, prefix.length);
    }
    w.ints(Section.PRODUCT_INTS, ints, ints.length);
    w.bytes(Section.COLUMN_NAMES, names, names.length);
    w.ints(Section.ID_OFFSETS, idOffsets, idOffsets.length);
    w.bytes(Section.ID_BYTES, idBytes, idBytes.length);
    b.writer = w;
  }

  /**
   * Runs of equal hashes: the first row in input order stays; a later row with the same id is a
   * {@code duplicate-id} reject; a different id with the same hash fails the build.
   *
   * @return rows dropped as duplicates
   */
  private static long findDuplicates(
      long[] hashes, int[] perm, int n, Rows rows, boolean[] drop, Rejects rejects, List<String> in)
      throws InputException {
    long dropped = 0;
    for (int i = 0; i < n; ) {
      int j = i + 1;
      while (j < n && hashes[j] == hashes[i]) {
        j++;
      }
      if (j - i > 1) {
        Arrays.sort(perm, i, j);
        byte[] first = rows.id(perm[i]);
        for (int x = i + 1; x < j; x++) {
          byte[] other = rows.id(perm[x]);
          if (!Arrays.equals(first, other)) {
            throw new InputException(
                String.format(
                    "id hash collision: '%s' (%s) and '%s' (%s) both hash to %016x; the product"
                        + " index cannot hold both (rename one)",
                    new String(first, StandardCharsets.UTF_8),
                    rows.position(perm[i], in),
                    new String(other, StandardCharsets.UTF_8),
                    rows.position(perm[x], in),
                    hashes[i]));
          }
          drop[x] = true;
          dropped++;
          rows.rejectDuplicate(perm[x], rejects, in, rows.position(perm[i], in));
        }
      }
      i = j;
    }
    return dropped;
  }
}
