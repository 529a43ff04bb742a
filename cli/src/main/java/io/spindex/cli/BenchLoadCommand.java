/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.OverlapPolicy;
import io.spindex.builder.TextLoader;
import io.spindex.index.IndexHeader;
import io.spindex.index.IndexKind;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code spindex bench-load}: loads an index with each loader several times in this JVM, next to a
 * {@code memcpy} reference row (the same number of ints copied into a fresh array) measured in the
 * same run. A quick figure on real hardware; the JMH benchmarks in {@code bench/} are the careful
 * ones.
 */
@Command(
    name = "bench-load",
    mixinStandardHelpOptions = true,
    description = "Time loading an index with each loader; ratios against nio and memcpy.")
final class BenchLoadCommand implements Callable<Integer> {
  @Parameters(paramLabel = "INDEX", description = "Index file.")
  Path file;

  @Option(
      names = "--loaders",
      split = ",",
      defaultValue = "io,nio,mapped",
      description = "Loaders to time (default io,nio,mapped).")
  List<String> loaders;

  @Option(names = "--runs", defaultValue = "5", description = "Timed runs per loader (default 5).")
  int runs;

  @Option(
      names = "--source",
      paramLabel = "TEXT",
      description = "The source text: adds the 'text' loader (parse it) to the table.")
  Path source;

  @Option(names = "--json", description = "Print the rows as a JSON array.")
  boolean json;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** One row of the table. */
  static final class Row {
    final String name;
    final long[] nanos;

    Row(String name, long[] nanos) {
      this.name = name;
      this.nanos = nanos.clone();
      Arrays.sort(this.nanos);
    }

    double minMs() {
      return nanos[0] / 1e6;
    }

    double medianMs() {
      return nanos[nanos.length / 2] / 1e6;
    }
  }

  @Override
  public Integer call() throws IOException {
    if (runs < 1) {
      throw new IllegalArgumentException("--runs must be at least 1");
    }
    IndexHeader h = Loader.readHeader(file);
    long bytes = Files.size(file);
    List<Row> rows = new ArrayList<>();
    List<IndexLoader> all = new ArrayList<>();
    for (String name : loaders) {
      all.add(Loader.byName(name.trim()));
    }
    if (source != null) {
      all.add(
          h.kind() == IndexKind.IPV4_SET
              ? TextLoader.ips()
              : h.kind() == IndexKind.PRODUCTS
                  ? TextLoader.products(
                      new io.spindex.builder.ProductIndexBuilder()
                          .extraIntFields(productExtras(file)))
                  : TextLoader.ranges(new IpRangeBuilder().onOverlap(OverlapPolicy.LAST)));
    }
    for (IndexLoader l : all) {
      Path target = l.loaderName().equals("text") ? source : file;
      l.load(target); // warm-up: class loading, JIT, page cache
      long[] t = new long[runs];
      for (int i = 0; i < runs; i++) {
        long t0 = System.nanoTime();
        SpindexIndex idx = l.load(target);
        t[i] = System.nanoTime() - t0;
        // size() counts IPv4 rows (keys of a set); the header counts the IPv6 rows too.
        if (idx.size() != h.rowCount() - h.ipv6Rows()) {
          throw new IllegalStateException(l.loaderName() + " loaded " + idx.size() + " rows");
        }
      }
      rows.add(new Row(l.loaderName(), t));
    }
    rows.add(new Row("memcpy", memcpy(h, runs)));
    print(rows, bytes);
    return 0;
  }

  /** The extra int columns of a product index, so the text loader builds the same index. */
  private static List<String> productExtras(Path file) throws IOException {
    List<String> names = Loader.MAPPED.load(file).asProducts().columnNames();
    return names.subList(io.spindex.index.ProductIndex.FIXED_COLUMNS.size(), names.size());
  }

  /** Copies as many ints as the index holds rows (per int column) into a fresh array. */
  private static long[] memcpy(IndexHeader h, int runs) {
    long ints = 0;
    for (io.spindex.index.SectionEntry e : h.sections()) {
      ints += e.length() / 4;
    }
    int[] src = new int[Math.toIntExact(ints)];
    Arrays.fill(src, 7);
    long[] t = new long[runs];
    long sink = 0;
    for (int i = -1; i < runs; i++) {
      long t0 = System.nanoTime();
      int[] dst = new int[src.length];
      System.arraycopy(src, 0, dst, 0, src.length);
      long dt = System.nanoTime() - t0;
      sink += dst[dst.length - 1];
      if (i >= 0) {
        t[i] = dt;
      }
    }
    if (sink == 42) {
      System.err.print("");
    }
    return t;
  }

  private void print(List<Row> rows, long bytes) {
    double nio = Double.NaN;
    for (Row r : rows) {
      if (r.name.equals("nio")) {
        nio = r.medianMs();
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      StringBuilder sb = new StringBuilder("[");
      for (Row r : rows) {
        sb.append(sb.length() > 1 ? "," : "");
        sb.append(
            String.format(
                Locale.ROOT,
                "{\"loader\":\"%s\",\"runs\":%d,\"minMs\":%.3f,\"medianMs\":%.3f,"
                    + "\"mbPerS\":%.1f,\"vsNio\":%.3f}",
                r.name,
                r.nanos.length,
                r.minMs(),
                r.medianMs(),
                bytes / 1e6 / (r.medianMs() / 1e3),
                r.medianMs() / nio));
      }
      out.println(sb.append(']'));
    } else {
      out.printf(
          Locale.ROOT,
          "%-8s %6s %10s %10s %10s %9s%n",
          "loader",
          "runs",
          "min ms",
          "median ms",
          "MB/s",
          "vs nio");
      for (Row r : rows) {
        out.printf(
            Locale.ROOT,
            "%-8s %6d %10.2f %10.2f %10.0f %8.2fx%n",
            r.name,
            r.nanos.length,
            r.minMs(),
            r.medianMs(),
            bytes / 1e6 / (r.medianMs() / 1e3),
            r.medianMs() / nio);
      }
    }
    out.flush();
  }
}
