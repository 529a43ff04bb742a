/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

/**
 * The buffer-size article's table: a file of {@code mb} MiB written and read through a plain {@code
 * FileOutputStream}/{@code FileInputStream}, {@code bufferBytes} bytes per call (1 byte per call is
 * the article's byte-at-a-time row: one system call per byte).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
public class BufferSizeBenchmark {
  @Param({"1", "2", "10", "100", "1000", "8000", "80000"})
  public int bufferBytes;

  /** File size in MiB (the article: 10). */
  @Param("10")
  public int mb;

  private Path dir;
  private Path file;
  private Path readSource;
  private byte[] buffer;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("buffers");
    file = dir.resolve("written.dat");
    readSource = dir.resolve("source.dat");
    byte[] ones = new byte[mb << 20];
    Arrays.fill(ones, (byte) 1);
    Files.write(readSource, ones);
    buffer = new byte[bufferBytes];
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  /** The article's example 2: fill a byte[] of this size, write it when full. */
  @Benchmark
  public long write() throws IOException {
    int size = mb << 20;
    byte[] b = buffer;
    int at = 0;
    try (FileOutputStream fos = new FileOutputStream(file.toFile())) {
      for (int i = 0; i < size; i++) {
        b[at++] = 1;
        if (at == b.length) {
          fos.write(b, 0, at);
          at = 0;
        }
      }
      if (at > 0) {
        fos.write(b, 0, at);
      }
    }
    return size;
  }

  @Benchmark
  public long read() throws IOException {
    long total = 0;
    try (FileInputStream fis = new FileInputStream(readSource.toFile())) {
      int n;
      while ((n = fis.read(buffer)) != -1) {
        total += n;
      }
    }
    return total;
  }
}
