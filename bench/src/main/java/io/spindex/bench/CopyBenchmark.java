/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.stage.StageOptions;
import io.spindex.stage.StageResult;
import io.spindex.stage.StageSource;
import io.spindex.stage.Stager;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
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
 * The copy-methods article: one local file copied with each method of its list (buffered streams,
 * channel + direct buffer, mapping, transferTo/transferFrom, {@code Files.copy}), every one through
 * {@code spindex stage} ({@link Stager}: temporary file beside the target, copy, length check,
 * atomic rename; no fsync, a staged file is a cache of its source), so the rows differ only in the
 * copy itself. {@link StageIndexBenchmark} measures what {@code stage} adds for an index. Source
 * and copy stay in the page cache: this measures the copy methods, not the disk.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
public class CopyBenchmark {
  /** The method of {@code spindex stage}. */
  static final String STAGE = "transfer-to";

  /** File size in MB (the article copied 321 MB). */
  @Param("300")
  public int mb;

  /**
   * The copy method: {@code transfer-to} is {@code spindex stage} itself ({@link
   * StageSource#local}), the others are {@link CopyMethod}s.
   */
  @Param({
    "stream-byte",
    "stream-array",
    "channel-8k",
    "channel-1m",
    "map",
    "transfer-to",
    "transfer-from",
    "files-copy"
  })
  public String method;

  private Path dir;
  private Path file;
  private Path target;
  private StageSource source;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("copy");
    file = dir.resolve("random.bin");
    SplittableRandom rnd = new SplittableRandom(BenchFiles.SEED);
    byte[] block = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(file)) {
      for (long left = mb * 1_000_000L; left > 0; left -= block.length) {
        for (int i = 0; i < block.length; i += 8) {
          long v = rnd.nextLong();
          for (int k = 0; k < 8; k++) {
            block[i + k] = (byte) (v >>> (8 * k));
          }
        }
        out.write(block, 0, (int) Math.min(block.length, left));
      }
    }
    target = dir.resolve("copy.bin");
    source =
        method.equals(STAGE)
            ? StageSource.local(file)
            : CopyMethod.byBenchName(method).source(file);
  }

  @Setup(Level.Invocation)
  public void removeTarget() throws IOException {
    Files.deleteIfExists(target);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  /** The file copied with {@link #method}; only its length is checked. */
  @Benchmark
  public long copy() throws IOException {
    StageOptions options = StageOptions.defaults().check(StageOptions.Check.SIZE).force(true);
    return bytes(Stager.stage(source, target, options));
  }

  static long bytes(StageResult r) {
    if (!r.copied()) {
      throw new IllegalStateException("stage did not copy: " + r);
    }
    return r.bytes();
  }
}
