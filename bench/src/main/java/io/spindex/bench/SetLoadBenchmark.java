/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.builder.TextLoader;
import io.spindex.index.IndexHeader;
import io.spindex.index.SectionEntry;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * Loading an IPv4 set (the IP-list article: 26,123,456 addresses): the article's text parse, the
 * Spindex text loader, every binary loader, a {@code memcpy} reference (the same number of ints
 * copied into a fresh array: the floor for any loader that ends with an {@code int[]}), and
 * RoaringBitmap's open of the same set. One operation = one complete load, ready for lookups.
 *
 * <p>The heap is fixed and pre-touched: without that, every fresh 100 MB array lands on heap pages
 * the kernel has never handed out, and page faults (not the loaders) decide the figures; memcpy
 * alone measured 35x slower that way. A JVM's first load pays those faults once, whatever loader.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms8g", "-Xmx8g", "-XX:+AlwaysPreTouch"})
public class SetLoadBenchmark {
  /** Lines of generated IP list text (the article's list had 26,123,456). */
  @Param("26123456")
  public int count;

  private Path dir;
  private Path text;
  private Path index;
  private Path roaring;
  private int[] memcpySource;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("set-load");
    text = BenchFiles.ipText(dir, count);
    index = BenchFiles.setIndex(text, dir.resolve("ips.spx"), true);
    SpindexIndex loaded = Loader.NIO.load(index);
    roaring = RoaringFiles.write(loaded.asSet(), dir.resolve("ips.roaring"));
    IndexHeader h = loaded.header();
    long ints = 0;
    for (SectionEntry e : h.sections()) {
      ints += e.length() / 4;
    }
    memcpySource = new int[Math.toIntExact(ints)];
    Arrays.fill(memcpySource, 7);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  /**
   * Between iterations, outside the measured time: the mapped loads' mappings go only when the
   * garbage collector finds them unreachable, and a process may hold about 65,000 of them.
   */
  @TearDown(Level.Iteration)
  public void releaseMappings() {
    System.gc();
  }

  /** The article's Strategy 1: {@code readLine} + {@code split} + {@code Long.parseLong}. */
  @Benchmark
  public int[] textNaive() throws IOException {
    return NaiveIpText.load(text, count);
  }

  /** Spindex's {@code text} loader: parallel byte parsing, /16 bucket sort, dedupe. */
  @Benchmark
  public SpindexIndex textSpindex() throws IOException {
    return TextLoader.ips().load(text);
  }

  @Benchmark
  public SpindexIndex io() throws IOException {
    return Loader.IO.load(index);
  }

  @Benchmark
  public SpindexIndex nio() throws IOException {
    return Loader.NIO.load(index);
  }

  @Benchmark
  public SpindexIndex mapped() throws IOException {
    return Loader.MAPPED.load(index);
  }

  @Benchmark
  public SpindexIndex mappedUnchecked() throws IOException {
    return Loader.mappedUnchecked().load(index);
  }

  /** The reference: allocate and fill an int[] as large as the index's int sections. */
  @Benchmark
  public int[] memcpy() {
    int[] dst = new int[memcpySource.length];
    System.arraycopy(memcpySource, 0, dst, 0, dst.length);
    return dst;
  }

  /** RoaringBitmap's zero-copy open: map the file, read the container directory. */
  @Benchmark
  public ImmutableRoaringBitmap roaringMapped() throws IOException {
    try (FileChannel ch = FileChannel.open(roaring, StandardOpenOption.READ)) {
      return new ImmutableRoaringBitmap(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()));
    }
  }

  /** RoaringBitmap deserialized onto the heap from the mapped file. */
  @Benchmark
  public RoaringBitmap roaringHeap() throws IOException {
    try (FileChannel ch = FileChannel.open(roaring, StandardOpenOption.READ)) {
      ByteBuffer bb = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
      RoaringBitmap rb = new RoaringBitmap();
      rb.deserialize(bb);
      return rb;
    }
  }
}
