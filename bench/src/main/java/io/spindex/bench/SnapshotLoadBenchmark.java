/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.index.SpindexIndex;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
 * What the {@code mapped} loader's private snapshots cost (the IP-list article's set, 104 MB): a
 * load when the host already has the snapshot of this version (every load but the first), the first
 * load of a version (the copy, then the map), the same two without the section checksums, and a
 * plain {@code Files.copy} of the file (the floor of a first load). {@code SetLoadBenchmark.mapped}
 * run at the commit before snapshots gives the load they are compared with.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class SnapshotLoadBenchmark {
  /** Lines of generated IP list text (the article's list had 26,123,456). */
  @Param("26123456")
  public int count;

  private Path dir;
  private Path index;
  private Path snapshots;
  private Path copy;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("snapshot-load");
    snapshots = dir.resolve("snapshots");
    // Before the first load: the loader reads the property at every load.
    System.setProperty("spindex.snapshot.dir", snapshots.toString());
    Path text = BenchFiles.ipText(dir, count);
    index = BenchFiles.setIndex(text, dir.resolve("ips.spx"), true);
    Files.delete(text);
    copy = dir.resolve("copy.spx");
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  /** Mappings go only when the garbage collector finds them unreachable. */
  @TearDown(Level.Iteration)
  public void releaseMappings() {
    System.gc();
  }

  /** State for the first-load benchmarks: no snapshot on the host before each call. */
  @State(Scope.Thread)
  public static class FirstLoad {
    @Setup(Level.Invocation)
    public void forget(SnapshotLoadBenchmark b) {
      BenchFiles.delete(b.snapshots);
    }
  }

  @Benchmark
  public SpindexIndex mapped() throws IOException {
    return Loader.MAPPED.load(index);
  }

  @Benchmark
  public SpindexIndex mappedFirstLoad(FirstLoad fresh) throws IOException {
    return Loader.MAPPED.load(index);
  }

  @Benchmark
  public SpindexIndex mappedUnchecked() throws IOException {
    return Loader.mappedUnchecked().load(index);
  }

  @Benchmark
  public SpindexIndex mappedUncheckedFirstLoad(FirstLoad fresh) throws IOException {
    return Loader.mappedUnchecked().load(index);
  }

  @Benchmark
  public Path copyReference() throws IOException {
    return Files.copy(index, copy, StandardCopyOption.REPLACE_EXISTING);
  }
}
