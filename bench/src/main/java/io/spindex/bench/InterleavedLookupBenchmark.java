/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.index.Ipv4Set;
import io.spindex.index.Loader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A what-if for the batch API, not Spindex code: membership in the 26 M set is bound by memory
 * latency (each lookup's binary search in a /16 bucket takes ~5 dependent cache misses), so one
 * lookup at a time cannot go faster than DRAM answers. Searching {@link #GROUP} keys in lock step,
 * branch-free, keeps that many independent misses in flight. Measured next to {@code
 * Ipv4Set.contains} one key at a time on the same data, in the same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class InterleavedLookupBenchmark {
  /** Keys searched in lock step. */
  static final int GROUP = 16;

  @Param("26123456")
  public int count;

  private Path dir;
  private Ipv4Set set;
  private int[] keys;
  private int[] prefix;
  private AddressPool pool;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFiles.scratch("interleaved");
    Path text = BenchFiles.ipText(dir, count);
    Path index = BenchFiles.setIndex(text, dir.resolve("ips.spx"), true);
    Files.delete(text);
    set = Loader.NIO.load(index).asSet();
    // One padding key past the end: an empty last bucket then still reads inside the array.
    keys = new int[set.size() + 1];
    keys[set.size()] = Integer.MAX_VALUE;
    prefix = new int[65537];
    for (int i = 0; i < set.size(); i++) {
      int a = set.address(i);
      keys[i] = a ^ 0x80000000;
      prefix[(a >>> 16) + 1]++;
    }
    for (int p = 0; p < 65536; p++) {
      prefix[p + 1] += prefix[p];
    }
    SplittableRandom rnd = new SplittableRandom(BenchFiles.SEED + 1);
    int[] a = new int[AddressPool.SIZE];
    for (int i = 0; i < a.length; i++) {
      a[i] = rnd.nextBoolean() ? set.address(rnd.nextInt(set.size())) : rnd.nextInt();
    }
    pool = new AddressPool(a);
    boolean[] out = new boolean[AddressPool.BATCH];
    for (int from = 0; from < a.length; from += AddressPool.BATCH) {
      containsInterleaved(a, from, out);
      for (int i = 0; i < AddressPool.BATCH; i++) {
        if (out[i] != set.contains(a[from + i])) {
          throw new IllegalStateException(String.format("answers differ for %08x", a[from + i]));
        }
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    BenchFiles.delete(dir);
  }

  /** Today's API, one key at a time (the {@code heapPrefix} row of the lookup table). */
  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public int oneAtATime() {
    int[] a = pool.addresses;
    int from = pool.next();
    int hits = 0;
    for (int i = from; i < from + AddressPool.BATCH; i++) {
      hits += set.contains(a[i]) ? 1 : 0;
    }
    return hits;
  }

  @Benchmark
  @OperationsPerInvocation(AddressPool.BATCH)
  public boolean[] interleaved() {
    boolean[] out = new boolean[AddressPool.BATCH];
    containsInterleaved(pool.addresses, pool.next(), out);
    return out;
  }

  /** Membership of {@code a[from, from + BATCH)}, GROUP keys at a time, branch-free steps. */
  private void containsInterleaved(int[] a, int from, boolean[] out) {
    int[] base = new int[GROUP];
    int[] len = new int[GROUP];
    int[] key = new int[GROUP];
    int[] k = keys;
    for (int g = 0; g < AddressPool.BATCH; g += GROUP) {
      int rounds = 0;
      for (int j = 0; j < GROUP; j++) {
        int addr = a[from + g + j];
        int p = addr >>> 16;
        base[j] = prefix[p];
        len[j] = prefix[p + 1] - base[j];
        key[j] = addr ^ 0x80000000;
        rounds = Math.max(rounds, 32 - Integer.numberOfLeadingZeros(len[j]));
      }
      // Lower bound by halving: every key takes the same number of steps, so no branch depends
      // on the data and the loads of the GROUP keys overlap.
      for (int r = 0; r < rounds; r++) {
        for (int j = 0; j < GROUP; j++) {
          int n = len[j];
          int half = n >>> 1;
          int b = base[j];
          base[j] = k[b + half] <= key[j] ? b + half : b;
          len[j] = n - half;
        }
      }
      for (int j = 0; j < GROUP; j++) {
        out[g + j] = len[j] > 0 && k[base[j]] == key[j];
      }
    }
  }
}
