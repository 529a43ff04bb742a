/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.cli.local.LocalEpJobs;
import io.spindex.ep.TransformSpec;
import io.spindex.gen.EpGenerator;
import io.spindex.text.LineReader;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The EP-file article: copy an EP feed to a new file byte-wise and line-wise with java.io and
 * java.nio. Every copy strategy writes the same bytes (lines keep their LF). The article's results:
 * nio wins byte-wise, {@code BufferedReader} wins line-wise against its nio line loop; {@link
 * #lineBytes} is the way Spindex reads lines (bytes, not Strings: {@link LineReader}). Then {@code
 * spindex ep transform} itself on the same feed in the same run, with the example spec of {@code
 * conf/}, on one and on two threads: the EP issue's goals are ratios against {@link #channelCopy}
 * and {@link #lineBufferedReader}. The feed is {@code spindex gen ep} output (about 655 bytes a
 * row, Korean text, 0.1 % defective rows that the transform rejects), or any feed of your own
 * ({@link #feed}) to time your spec on your data:
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar \
 *   'EpFileBenchmark.(channelCopy|lineBufferedReader|transform.*)' \
 *   -p feed=big.tsv -p spec=conf/ep-transform.example.conf -prof io.spindex.bench.CpuTimeProfiler
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
public class EpFileBenchmark {
  private static final int NIO_BUFFER = 1 << 20;

  /** Average bytes of a generated row, to turn {@link #mb} into a row count. */
  private static final int ROW_BYTES = 655;

  /** Feed size in MB (the article's smaller file: 200 MB, about 280,000 rows). */
  @Param("200")
  public int mb;

  /**
   * An EP file to read instead of a generated one (plain, not gzip; {@link #mb} is then ignored).
   * Empty: a generated feed of {@link #mb} MB.
   */
  @Param("")
  public String feed;

  /** The transform spec, relative to the working directory (scripts/bench runs in the root). */
  @Param("conf/ep-transform.example.conf")
  public String spec;

  private Path dir;
  private Path source;
  private Path target;
  private Path rejects;
  private Path transformSpecFile;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("ep");
    target = dir.resolve("copy.tsv");
    rejects = dir.resolve("rejects.tsv");
    if (!feed.isEmpty()) {
      source = Paths.get(feed);
    } else {
      source = dir.resolve("ep.tsv");
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(source), 1 << 16)) {
        new EpGenerator(mb * 1_000_000L / ROW_BYTES, BenchFiles.SEED, 0.001).writeTo(out);
      }
    }
    transformSpecFile = Paths.get(spec);
    TransformSpec.load(transformSpecFile); // a bad spec fails in setup, not in the measurement
  }

  @TearDown(Level.Iteration)
  public void checkCopy(BenchmarkParams params) throws IOException {
    String name = params.getBenchmark();
    boolean copy = !name.contains(".transform") && !name.endsWith(".lineBufferedReader");
    if (copy && Files.exists(target) && Files.size(target) != Files.size(source)) {
      throw new IllegalStateException(
          "copy has " + Files.size(target) + " bytes, source " + Files.size(source));
    }
    Files.deleteIfExists(target);
    Files.deleteIfExists(rejects);
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

  /**
   * Test 3: {@code BufferedReader.readLine} into {@code BufferedWriter} (String per line). The
   * reader is an {@code InputStreamReader}, as in the article, so the defective rows' invalid UTF-8
   * becomes U+FFFD instead of failing the copy ({@code Files.newBufferedReader} would throw): this
   * copy's length differs from the source by those replacements.
   */
  @Benchmark
  public long lineBufferedReader() throws IOException {
    long lines = 0;
    try (BufferedReader r =
            new BufferedReader(
                new InputStreamReader(
                    new FileInputStream(source.toFile()), StandardCharsets.UTF_8));
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

  /** {@code spindex ep transform IN -o OUT --spec SPEC}, one worker thread. */
  @Benchmark
  public long transformOneThread() throws IOException {
    return transform(1);
  }

  /** The same with two worker threads (reading and writing overlap the work in both). */
  @Benchmark
  public long transformTwoThreads() throws IOException {
    return transform(2);
  }

  private long transform(int threads) throws IOException {
    var r = LocalEpJobs.transform(source, target, rejects, transformSpecFile, threads);
    if (r.counts.out() == 0 || !r.counts.reconciles()) {
      throw new IllegalStateException(
          "transform counts: in "
              + r.counts.in()
              + ", out "
              + r.counts.out()
              + ", rejected "
              + r.counts.rejected());
    }
    return r.bytesOut;
  }

  private FileChannel openTarget() throws IOException {
    return FileChannel.open(
        target,
        StandardOpenOption.WRITE,
        StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING);
  }
}
