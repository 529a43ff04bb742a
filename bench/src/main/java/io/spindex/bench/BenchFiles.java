/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.builder.OverlapPolicy;
import io.spindex.gen.IpListGenerator;
import io.spindex.gen.RangeGenerator;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.Comparator;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Benchmark data, generated in each benchmark's setup (never committed): a scratch directory, the
 * generated IP list and range text, and indexes built from them with the current code, so that a
 * benchmark always measures the index format it is compiled against.
 */
public final class BenchFiles {
  /** The seed every benchmark uses: the same data in every fork and every run. */
  public static final long SEED = 42;

  private BenchFiles() {}

  /**
   * A fresh scratch directory under {@code spindex.bench.tmp} (default: the JVM temp directory).
   */
  public static Path scratch(String name) throws IOException {
    String base = System.getProperty("spindex.bench.tmp", System.getProperty("java.io.tmpdir"));
    Path dir = Paths.get(base);
    Files.createDirectories(dir);
    return Files.createTempDirectory(dir, "spindex-" + name + "-");
  }

  /** Deletes a scratch directory and everything in it; quiet about files already gone. */
  public static void delete(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(BenchFiles::deleteQuietly);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code count} random dotted quads, one per line, no malformed lines (the naive code has none).
   */
  public static Path ipText(Path dir, long count) throws IOException {
    Path out = dir.resolve("ips-" + count + ".txt");
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
      new IpListGenerator(count, SEED, 0).writeTo(o);
    }
    return out;
  }

  /**
   * About {@code count} sorted ranges with labels, {@code start|end|label}, of the uniform shape.
   */
  public static Path rangeText(Path dir, int count) throws IOException {
    return rangeText(dir, count, RangeGenerator.Shape.UNIFORM);
  }

  /** As {@link #rangeText(Path, int)}, of the shape given. */
  public static Path rangeText(Path dir, int count, RangeGenerator.Shape shape) throws IOException {
    Path out =
        dir.resolve("ranges-" + shape.name().toLowerCase(Locale.ROOT) + "-" + count + ".txt");
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
      new RangeGenerator(count, SEED, RangeGenerator.Format.RANGE).shape(shape).writeTo(o);
    }
    return out;
  }

  /** Rows per {@link RangeGenerator} call in {@link #range6Text}: below where its regions fill. */
  static final int IPV6_CHUNK = 200_000;

  /**
   * Exactly {@code lines} IPv6 CIDR lines, {@code address/len,label}, from {@link RangeGenerator}
   * with {@code family(6)}. One generator call fills its registry /12 blocks of {@code 2000::/3} at
   * about 400,000 to 490,000 rows whatever the count asked for, so larger sets are made of chunks
   * of {@value #IPV6_CHUNK} rows (seed 42, 43, ...), chunk {@code k} moved to the {@code k}-th next
   * /12 of each registry block ({@code 2a00::/12}, {@code 2a10::/12}, ...: the registries hold
   * several such /12s each); chunks never overlap, and the last one is cut at {@code lines}.
   */
  public static Path range6Text(Path dir, int lines) throws IOException {
    return range6Text(dir, lines, IPV6_CHUNK);
  }

  /** As {@link #range6Text(Path, int)}, in chunks of at most {@code chunk} rows. */
  static Path range6Text(Path dir, int lines, int chunk) throws IOException {
    Path out = dir.resolve("ranges6-" + lines + ".txt");
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
      int written = 0;
      for (int k = 0; written < lines; k++) {
        if (k >= 16) {
          throw new IllegalStateException("cannot place " + lines + " IPv6 ranges in 2000::/3");
        }
        ByteArrayOutputStream text = new ByteArrayOutputStream(1 << 24);
        new RangeGenerator(Math.min(chunk, lines - written), SEED + k, RangeGenerator.Format.CIDR)
            .family(6)
            .writeTo(text);
        byte[] b = text.toByteArray();
        for (int from = 0; from < b.length && written < lines; ) {
          int lf = from;
          while (b[lf] != '\n') {
            lf++;
          }
          int colon = from;
          while (b[colon] != ':') {
            colon++;
          }
          int group =
              Integer.parseInt(new String(b, from, colon - from, StandardCharsets.US_ASCII), 16);
          o.write(Integer.toHexString(group + 0x10 * k).getBytes(StandardCharsets.US_ASCII));
          o.write(b, colon, lf + 1 - colon);
          written++;
          from = lf + 1;
        }
      }
    }
    return out;
  }

  /** Builds a set index from IP list text, with or without the /16 prefix table. */
  public static Path setIndex(Path text, Path out, boolean prefixTable) throws IOException {
    new IpSetBuilder()
        .prefixTable(prefixTable)
        .createdMillis(0)
        .build(Collections.singletonList(text), out);
    return out;
  }

  /**
   * The index of a published database (range text or a MaxMind DB file), its overlaps flattened
   * narrowest first, as {@code spindex build ranges --on-overlap narrowest} builds it.
   */
  static Path publishedIndex(Path source, Path out) throws IOException {
    new IpRangeBuilder()
        .onOverlap(OverlapPolicy.NARROWEST)
        .createdMillis(0)
        .build(Collections.singletonList(source), out);
    return out;
  }

  /** Builds a range index from range text. */
  public static Path rangeIndex(Path text, Path out) throws IOException {
    new IpRangeBuilder()
        .delimiter('|')
        .createdMillis(0)
        .build(Collections.singletonList(text), out);
    return out;
  }

  /** Uniformly random addresses (network-order bits as ints). */
  public static int[] randomAddresses(int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = rnd.nextInt();
    }
    return a;
  }
}
