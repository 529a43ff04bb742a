/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexKind;
import io.spindex.index.IndexWriter;
import io.spindex.index.IpSet;
import io.spindex.index.Section;
import io.spindex.text.AddressText;
import io.spindex.text.InputException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds an IP set index from IP list text: one dotted quad or IPv6 address per line, white space
 * and one pair of double quotes trimmed, blank lines and {@code #} comments skipped, duplicates
 * removed, anything else rejected by reason ({@link AddressText#PLAIN}: no brackets, no ports). An
 * IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}) is stored as its IPv4 address (the reader folds
 * it); with any other IPv6 address the index is dual-stack.
 *
 * <p>Pieces of the input are parsed in parallel into plain {@code int} arrays while each thread
 * counts addresses per /16 prefix; those counts place every address in its /16 bucket in one pass,
 * and each bucket (a few hundred addresses) is then sorted and deduplicated where it lies. The same
 * counts become the index's prefix table.
 */
@Internal
public final class IpSetBuilder extends IndexBuilder<IpSetBuilder> {
  @Override
  IpSetBuilder self() {
    return this;
  }

  private int threads = Runtime.getRuntime().availableProcessors();

  /** Parser threads (default: available processors). */
  public IpSetBuilder threads(int n) {
    this.threads = Math.max(1, n);
    return this;
  }

  private boolean prefixTable = true;

  /**
   * Whether to write the optional /16 prefix tables (default yes): off for the benchmarks that
   * measure what they buy, and for test files that must stay a few hundred bytes.
   */
  public IpSetBuilder prefixTable(boolean on) {
    this.prefixTable = on;
    return this;
  }

  @Override
  public BuildReport build(List<Path> inputs, Path output) throws IOException {
    long t0 = System.nanoTime();
    return parseAndSort(inputs).writeTo(inputs, output, t0, allowEmpty);
  }

  /** Builds the index in memory only: the {@code text} loader. */
  public IpSet buildInMemory(List<Path> inputs) throws IOException {
    Built b = parseAndSort(inputs);
    return b.writer.toIndex(inputs.get(0), "text").asSet();
  }

  private Built parseAndSort(List<Path> inputs) throws IOException {
    Built b = new Built();
    Map<String, Long> phases = b.phases;
    long t0 = System.nanoTime();
    SourceScan.Result<IpSink> scan = SourceScan.scan(inputs, threads, IpSink::new, progress);
    long t1 = System.nanoTime();
    phases.put("read", t1 - t0);
    if (strict && scan.rejects.total() > 0) {
      throw new InputException(
          "rejected line (--strict): "
              + scan.rejects.samples().get(0)
              + " (expected one IPv4 or IPv6 address per line)");
    }
    long accepted = 0;
    long skipped = 0;
    int[] bucketStart = new int[65537];
    for (IpSink s : scan.sinks) {
      accepted += s.count;
      skipped += s.skipped;
      for (int p = 0; p < 65536; p++) {
        bucketStart[p + 1] += s.histogram[p];
      }
    }
    if (accepted > Integer.MAX_VALUE - 16) {
      throw new InputException("too many addresses for one index: " + accepted);
    }
    for (int p = 0; p < 65536; p++) {
      bucketStart[p + 1] += bucketStart[p];
    }
    int[] keys = new int[(int) accepted];
    int[] next = Arrays.copyOf(bucketStart, 65536);
    for (IpSink s : scan.sinks) {
      int[] v = s.values;
      for (int i = 0, n = s.count; i < n; i++) {
        int a = v[i];
        keys[next[a >>> 16]++] = a ^ 0x80000000;
      }
      s.values = null;
    }
    long t2 = System.nanoTime();
    phases.put("scatter", t2 - t1);
    int[] prefix = new int[65537];
    int rows = sortBuckets(keys, bucketStart, prefix);
    long accepted6 = 0;
    for (IpSink s : scan.sinks) {
      accepted6 += s.count6;
    }
    if (accepted6 > Integer.MAX_VALUE - 16) {
      throw new InputException("too many IPv6 addresses for one index: " + accepted6);
    }
    long[] hi6 = new long[(int) accepted6];
    long[] lo6 = new long[(int) accepted6];
    int at = 0;
    for (IpSink s : scan.sinks) {
      System.arraycopy(s.hi6, 0, hi6, at, s.count6);
      System.arraycopy(s.lo6, 0, lo6, at, s.count6);
      at += s.count6;
    }
    int rows6 = Sort128.sortUnique(hi6, lo6, at);
    for (int i = 0; i < rows6; i++) {
      hi6[i] ^= Long.MIN_VALUE;
      lo6[i] ^= Long.MIN_VALUE;
    }
    phases.put("sort", System.nanoTime() - t2);
    Assembled a =
        assemble(
            keys,
            null,
            rows,
            prefix,
            hi6,
            lo6,
            rows6,
            scan.lines,
            skipped,
            accepted + accepted6,
            scan.rejects.total(),
            scan.bytes,
            scan.digest);
    b.writer = a.writer;
    sourceTimeOfFiles(b.writer, inputs);
    b.counts.putAll(a.counts);
    b.rejects = scan.rejects;
    return b;
  }

  /**
   * The index of a distributed build ({@code build-index} on Spark), from keys parsed and merged
   * elsewhere: the same sections, checksums and counts as {@link #build} of the same input.
   *
   * @param flippedKeys IPv4 keys ({@code address ^ 0x80000000}), ascending and unique, read in
   *     order while the file is written
   * @param blockCounts how many of the keys fall in each /16 block (65,536 counts)
   * @param hi6 IPv6 keys' high halves as parsed (any order, duplicates allowed); sorted here
   * @param accepted every address accepted, duplicates and both families included
   */
  public Assembled assembleMerged(
      IndexWriter.IntRuns flippedKeys,
      int[] blockCounts,
      long[] hi6,
      long[] lo6,
      int count6,
      long lines,
      long skipped,
      long accepted,
      long rejected,
      long sourceBytes,
      byte[] digest)
      throws InputException {
    int rows6 = Sort128.sortUnique(hi6, lo6, count6);
    for (int i = 0; i < rows6; i++) {
      hi6[i] ^= Long.MIN_VALUE;
      lo6[i] ^= Long.MIN_VALUE;
    }
    int[] prefix = new int[65537];
    long rows = 0;
    for (int p = 0; p < 65536; p++) {
      prefix[p] = (int) rows;
      rows += blockCounts[p];
    }
    if (rows > Integer.MAX_VALUE - 16) {
      throw new InputException("too many addresses for one index: " + rows);
    }
    prefix[65536] = (int) rows;
    return assemble(
        null,
        flippedKeys,
        (int) rows,
        prefix,
        hi6,
        lo6,
        rows6,
        lines,
        skipped,
        accepted,
        rejected,
        sourceBytes,
        digest);
  }

  /** The index of {@code keys}, or when that is null of {@code runs}. */
  private Assembled assemble(
      int[] keys,
      IndexWriter.IntRuns runs,
      int rows,
      int[] prefix,
      long[] hi6,
      long[] lo6,
      int rows6,
      long lines,
      long skipped,
      long accepted,
      long rejected,
      long sourceBytes,
      byte[] digest) {
    Map<String, Long> counts = new LinkedHashMap<>();
    counts.put("lines", lines);
    counts.put("skipped", skipped);
    counts.put("accepted", accepted);
    counts.put("rejected", rejected);
    counts.put("duplicates", accepted - rows - rows6);
    counts.put("addresses", (long) rows + rows6);
    if (rows6 > 0) {
      counts.put("ipv4 addresses", (long) rows);
      counts.put("ipv6 addresses", (long) rows6);
    }
    counts.put("source bytes", sourceBytes);
    IndexWriter w = new IndexWriter(IndexKind.IPV4_SET, (long) rows + rows6, digest);
    created(w);
    if (keys != null) {
      w.ints(Section.KEYS, keys, rows);
    } else {
      w.ints(Section.KEYS, runs, rows);
    }
    if (prefixTable) {
      w.ints(Section.PREFIX16, prefix, prefix.length);
    }
    if (rows6 > 0) {
      w.longs(Section.KEYS6_HI, hi6, rows6);
      w.longs(Section.KEYS6_LO, lo6, rows6);
      if (prefixTable) {
        int[] prefix6 = IndexWriter.prefixTable128(hi6, rows6);
        w.ints(Section.PREFIX16_V6, prefix6, prefix6.length);
        int[] tables = IndexWriter.tables128(hi6, rows6, prefix6, 16, ipv6TableBudget);
        if (tables != null) {
          w.ints(Section.PREFIX6, tables, tables.length);
        }
      }
    }
    return new Assembled(w, counts);
  }

  /**
   * Sorts and deduplicates each /16 bucket in place (in parallel), then closes the gaps and fills
   * {@code prefix} with each bucket's first row. Within a bucket all keys share their top bit, so
   * signed order is address order.
   *
   * @return the number of unique keys, now at the front of {@code keys}
   */
  private int sortBuckets(int[] keys, int[] bucketStart, int[] prefix) throws IOException {
    int[] unique = new int[65536];
    int parts = Math.min(threads, 64);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < parts; t++) {
      int from = bucketAt(bucketStart, (long) keys.length * t / parts);
      int to = t == parts - 1 ? 65536 : bucketAt(bucketStart, (long) keys.length * (t + 1) / parts);
      Thread w =
          new Thread(
              () -> {
                long[] bits = new long[1024];
                for (int p = from; p < to; p++) {
                  unique[p] = sortUnique(keys, bucketStart[p], bucketStart[p + 1], bits);
                }
              },
              "spindex-sort");
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      try {
        w.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while sorting", e);
      }
    }
    int rows = 0;
    for (int p = 0; p < 65536; p++) {
      prefix[p] = rows;
      if (bucketStart[p] != rows) {
        System.arraycopy(keys, bucketStart[p], keys, rows, unique[p]);
      }
      rows += unique[p];
    }
    prefix[65536] = rows;
    return rows;
  }

  /** Buckets at least this full are sorted through a bitmap rather than by comparison. */
  static final int BITMAP_MIN = 192;

  /**
   * Sorts and deduplicates {@code keys[lo, hi)}, all from one /16 block, leaving the unique keys at
   * {@code lo}. Full buckets go through a 65,536-bit map of the low 16 bits (8 KiB, in L1): setting
   * a bit per key and reading the set bits back sorts and deduplicates in two linear passes. Sparse
   * buckets are cheaper to sort by comparison.
   *
   * @param bits all zero on entry and on return
   * @return how many unique keys
   */
  static int sortUnique(int[] keys, int lo, int hi, long[] bits) {
    if (hi - lo < BITMAP_MIN) {
      Arrays.sort(keys, lo, hi);
      int u = lo;
      for (int i = lo; i < hi; i++) {
        if (u == lo || keys[u - 1] != keys[i]) {
          keys[u++] = keys[i];
        }
      }
      return u - lo;
    }
    int high = keys[lo] & 0xFFFF0000;
    for (int i = lo; i < hi; i++) {
      int low = keys[i] & 0xFFFF;
      bits[low >>> 6] |= 1L << low;
    }
    int u = lo;
    for (int w = 0; w < 1024; w++) {
      long word = bits[w];
      if (word != 0) {
        bits[w] = 0;
        do {
          keys[u++] = high | (w << 6) | Long.numberOfTrailingZeros(word);
          word &= word - 1;
        } while (word != 0);
      }
    }
    return u - lo;
  }

  /** The first bucket whose start is at or after row {@code row}. */
  private static int bucketAt(int[] bucketStart, long row) {
    int p = Arrays.binarySearch(bucketStart, 0, 65536, (int) row);
    if (p < 0) {
      return -p - 1;
    }
    while (p > 0 && bucketStart[p - 1] == row) {
      p--;
    }
    return p;
  }
}
