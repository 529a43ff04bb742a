/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.text.LineReader;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

/**
 * The EP-file article: copy an EP feed to a new file byte-wise and line-wise with java.io and
 * java.nio. Every strategy writes the same bytes (lines keep their LF). The article's results: nio
 * wins byte-wise, {@code BufferedReader} wins line-wise against its nio line loop; the last row is
 * the way Spindex reads lines (bytes, not Strings: {@link LineReader}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
public class EpFileBenchmark {
  private static final int NIO_BUFFER = 1 << 20;

  /** Feed size in MB (the article's smaller file: 200 MB, about 280,000 rows). */
  @Param("200")
  public int mb;

  private Path dir;
  private Path source;
  private Path target;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("ep");
    source = dir.resolve("ep.tsv");
    target = dir.resolve("copy.tsv");
    EpFeed.write(source, mb * 1_000_000L, BenchFiles.SEED);
  }

  @TearDown(Level.Iteration)
  public void checkCopy() throws IOException {
    if (Files.exists(target) && Files.size(target) != Files.size(source)) {
      throw new IllegalStateException(
          "copy has " + Files.size(target) + " bytes, source " + Files.size(source));
    }
    Files.deleteIfExists(target);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  /** Test 1: {@code BufferedInputStream.read()} into {@code BufferedOutputStream.write(int)}. */
  @Benchmark
  public long byteLoopBufferedStreams() throws IOException {
    long n = 0;
    try (BufferedInputStream in = new BufferedInputStream(new FileInputStream(source.toFile()));
        BufferedOutputStream out =
            new BufferedOutputStream(new FileOutputStream(target.toFile()))) {
      int c;
      while ((c = in.read()) != -1) {
        out.write(c);
        n++;
      }
    }
    return n;
  }

  /** Test 2: {@code FileChannel} read into a 1 MB direct buffer, written to a channel. */
  @Benchmark
  public long channelCopy() throws IOException {
    long n = 0;
    try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
        FileChannel out = openTarget()) {
      ByteBuffer buf = ByteBuffer.allocateDirect(NIO_BUFFER);
      while (in.read(buf) >= 0) {
        buf.flip();
        while (buf.hasRemaining()) {
          n += out.write(buf);
        }
        buf.clear();
      }
    }
    return n;
  }

  /** Test 3: {@code BufferedReader.readLine} into {@code BufferedWriter} (String per line). */
  @Benchmark
  public long lineBufferedReader() throws IOException {
    long lines = 0;
    try (BufferedReader r = Files.newBufferedReader(source, StandardCharsets.UTF_8);
        BufferedWriter w = Files.newBufferedWriter(target, StandardCharsets.UTF_8)) {
      String line;
      while ((line = r.readLine()) != null) {
        w.write(line);
        w.write('\n');
        lines++;
      }
    }
    return lines;
  }

  /**
   * Test 4: the article's nio line loop: one {@code ByteBuffer.get()} per byte into a write buffer,
   * one channel write per line.
   */
  @Benchmark
  public long lineNioPerByte() throws IOException {
    long lines = 0;
    try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
        FileChannel out = openTarget()) {
      ByteBuffer buf = ByteBuffer.allocateDirect(NIO_BUFFER);
      ByteBuffer line = ByteBuffer.allocateDirect(NIO_BUFFER);
      while (in.read(buf) >= 0) {
        buf.flip();
        while (buf.hasRemaining()) {
          byte b = buf.get();
          line.put(b);
          if (b == '\n') {
            line.flip();
            while (line.hasRemaining()) {
              out.write(line);
            }
            line.clear();
            lines++;
          }
        }
        buf.clear();
      }
      line.flip();
      while (line.hasRemaining()) {
        out.write(line);
      }
    }
    return lines;
  }

  /**
   * Line-wise on bytes, the Spindex way: {@link LineReader} scans blocks for LF and hands each line
   * as a slice of its buffer; the slice is copied to a buffered output. No String, no decoding.
   */
  @Benchmark
  public long lineBytes() throws IOException {
    try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
        OutputStream out = new BufferedOutputStream(Files.newOutputStream(target), 1 << 16)) {
      return new LineReader(null)
          .read(
              in,
              -1,
              true,
              new LineReader.Sink() {
                @Override
                public void line(byte[] b, int from, int to, long index) throws IOException {
                  out.write(b, from, to - from);
                  out.write('\n');
                }

                @Override
                public void tooLong(byte[] b, int from, int to, long index) {
                  throw new IllegalStateException("line " + index + " over the limit");
                }
              });
    }
  }

  private FileChannel openTarget() throws IOException {
    return FileChannel.open(
        target,
        StandardOpenOption.WRITE,
        StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING);
  }
}
