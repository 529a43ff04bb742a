/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.stage.StageOptions;
import io.spindex.stage.StageSource;
import io.spindex.stage.Stager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
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
 * {@code spindex stage INDEX DST --check CHECK}: what staging an index costs on top of the copy
 * measured by {@link CopyBenchmark} (same size, same default method, {@code transferTo}): {@code
 * size} checks the length only, {@code checksums} (the default, and what the jobs do once per JVM)
 * reads the copy back through a mapping for the header and every section's CRC32C, {@code deep}
 * checks everything {@code spindex verify} does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
public class StageIndexBenchmark {
  /** Index size in MB (a set index: 4 bytes an address). */
  @Param("300")
  public int mb;

  /** {@code --check}: size, checksums or deep. */
  @Param({"size", "checksums", "deep"})
  public String check;

  private Path dir;
  private Path index;
  private Path target;
  private StageOptions options;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("stage");
    Path text = BenchFiles.ipText(dir, mb * 1_000_000L / 4);
    index = BenchFiles.setIndex(text, dir.resolve("ips.spx"), false);
    Files.delete(text);
    target = dir.resolve("copy.spx");
    options =
        StageOptions.defaults()
            .check(StageOptions.Check.valueOf(check.toUpperCase(Locale.ROOT)))
            .force(true);
  }

  /**
   * Before each shot: no copy, and no mapping of an earlier one. {@code deep} reads the copy
   * through a mapping, which lives until the collector finds it; with hundreds of MB staged and
   * deleted shot after shot, the kernel's handling of those deleted-but-mapped files slowed later
   * shots several times over. A job stages an index once per JVM, so each shot starts clean.
   * ({@code checksums} reads through a channel and maps nothing.)
   */
  @Setup(Level.Invocation)
  public void removeTarget() throws IOException {
    Files.deleteIfExists(target);
    System.gc();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  @Benchmark
  public long stage() throws IOException {
    return CopyBenchmark.bytes(Stager.stage(StageSource.local(index), target, options));
  }
}
