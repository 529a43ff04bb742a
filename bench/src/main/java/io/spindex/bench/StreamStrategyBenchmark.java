/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
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
 * The buffer-size article's other rows on the same file: one {@code write(int)}/{@code read()} per
 * byte (example 1), the same through {@code Buffered*Stream} of 8 KB (example 3: a lock per call),
 * and the whole file in one call (example 4). Example 2 is {@link BufferSizeBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
public class StreamStrategyBenchmark {
  private static final int BUFFERED_BYTES = 8192;

  /** File size in MiB (the article: 10). */
  @Param("10")
  public int mb;

  private Path dir;
  private Path file;
  private Path readSource;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("streams");
    file = dir.resolve("written.dat");
    readSource = dir.resolve("source.dat");
    byte[] ones = new byte[mb << 20];
    Arrays.fill(ones, (byte) 1);
    Files.write(readSource, ones);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  @Benchmark
  public long writeByteAtATime() throws IOException {
    int size = mb << 20;
    try (FileOutputStream fos = new FileOutputStream(file.toFile())) {
      for (int i = 0; i < size; i++) {
        fos.write(1);
      }
    }
    return size;
  }

  @Benchmark
  public long readByteAtATime() throws IOException {
    long total = 0;
    try (FileInputStream fis = new FileInputStream(readSource.toFile())) {
      while (fis.read() != -1) {
        total++;
      }
    }
    return total;
  }

  @Benchmark
  public long writeBufferedStream() throws IOException {
    int size = mb << 20;
    try (BufferedOutputStream bos =
        new BufferedOutputStream(new FileOutputStream(file.toFile()), BUFFERED_BYTES)) {
      for (int i = 0; i < size; i++) {
        bos.write(1);
      }
    }
    return size;
  }

  @Benchmark
  public long readBufferedStream() throws IOException {
    long total = 0;
    try (BufferedInputStream bis =
        new BufferedInputStream(new FileInputStream(readSource.toFile()), BUFFERED_BYTES)) {
      while (bis.read() != -1) {
        total++;
      }
    }
    return total;
  }

  @Benchmark
  public long writeAllAtOnce() throws IOException {
    byte[] all = new byte[mb << 20];
    Arrays.fill(all, (byte) 1);
    try (FileOutputStream fos = new FileOutputStream(file.toFile())) {
      fos.write(all);
    }
    return all.length;
  }

  @Benchmark
  public long readAllAtOnce() throws IOException {
    try (FileInputStream fis = new FileInputStream(readSource.toFile())) {
      return fis.readAllBytes().length;
    }
  }
}
