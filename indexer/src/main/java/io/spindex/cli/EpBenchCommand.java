/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.ep.TransformSpec;
import io.spindex.job.LocalEpJobs;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code spindex ep bench}: {@code ep transform} against the two baselines of the original
 * io-vs-nio measurements, all on the same file in the same JVM run: a {@code FileChannel} byte copy
 * through a 1 MiB direct buffer (the floor: no line work at all) and a {@code BufferedReader} line
 * copy (the line-wise java.io way). Each is run {@code --runs} times after a warm-up; the median
 * counts.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Time ep transform against a FileChannel byte copy and a BufferedReader line copy of the"
          + " same file, in one run; print MB/s (input bytes per second) and ratios."
    })
final class EpBenchCommand implements Callable<Integer> {
  @Parameters(paramLabel = "IN", description = "EP file (plain, in the page cache after warm-up).")
  Path in;

  @Option(names = "--spec", required = true, paramLabel = "FILE", description = "Spec file.")
  Path specFile;

  @Option(names = "--runs", defaultValue = "5", description = "Timed runs of each (default 5).")
  int runs;

  @Option(
      names = "--threads",
      split = ",",
      defaultValue = "1",
      description = "Thread counts for ep transform, comma-separated (default 1).")
  List<Integer> threads;

  @Option(
      names = "--work-dir",
      paramLabel = "DIR",
      description = "Where outputs go (default: beside IN). Deleted afterwards.")
  Path workDir;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  interface Run {
    void run() throws IOException;
  }

  @Override
  public Integer call() throws IOException {
    if (runs < 1) {
      throw new IllegalArgumentException("--runs must be at least 1");
    }
    TransformSpec.load(specFile); // a bad spec fails before anything is timed
    Path dir = workDir != null ? workDir : in.toAbsolutePath().getParent();
    Path out = dir.resolve(".ep-bench.out.tsv");
    Path rej = dir.resolve(".ep-bench.rejects.tsv");
    long bytes = Files.size(in);
    Map<String, long[]> medians = new LinkedHashMap<>();
    try {
      medians.put("FileChannel byte copy", median(() -> channelCopy(in, out)));
      medians.put("BufferedReader line copy", median(() -> readerCopy(in, out)));
      for (int t : threads) {
        medians.put(
            "ep transform, " + t + " thread" + (t == 1 ? "" : "s"),
            median(() -> LocalEpJobs.transform(in, out, rej, specFile, t)));
      }
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(rej);
    }
    PrintWriter o = spec.commandLine().getOut();
    o.printf(
        Locale.ROOT,
        "input %s: %,d bytes, spec %s, %d runs each (median); %d processors%n",
        in,
        bytes,
        specFile,
        runs,
        Runtime.getRuntime().availableProcessors());
    long channel = medians.get("FileChannel byte copy")[0];
    long reader = medians.get("BufferedReader line copy")[0];
    o.printf(
        Locale.ROOT,
        "%-28s %8s %8s %8s %10s %10s %10s%n",
        "",
        "wall s",
        "MB/s",
        "cpu s",
        "MB/cpu-s",
        "x BufRdr",
        "x FileCh");
    for (Map.Entry<String, long[]> e : medians.entrySet()) {
      double secs = e.getValue()[0] / 1e9;
      double cpu = e.getValue()[1] / 1e9;
      o.printf(
          Locale.ROOT,
          "%-28s %8.3f %8.0f %8.3f %10.0f %10.2f %10.2f%n",
          e.getKey(),
          secs,
          bytes / 1e6 / secs,
          cpu,
          bytes / 1e6 / cpu,
          (double) reader / e.getValue()[0],
          (double) channel / e.getValue()[0]);
    }
    o.println(
        "MB/s: input bytes per wall second; MB/cpu-s: per second of this process's CPU time (all"
            + " threads), i.e. per core; x: wall-time ratios against the two baselines.");
    o.flush();
    return 0;
  }

  /** Median wall time and the CPU time of that same run, in nanoseconds. */
  private long[] median(Run r) throws IOException {
    r.run(); // warm-up: JIT, page cache
    long[][] t = new long[runs][];
    for (int i = 0; i < runs; i++) {
      long c0 = cpuNanos();
      long t0 = System.nanoTime();
      r.run();
      t[i] = new long[] {System.nanoTime() - t0, cpuNanos() - c0};
    }
    Arrays.sort(t, (a, b) -> Long.compare(a[0], b[0]));
    return t[runs / 2];
  }

  /** CPU time of this process, all threads, kernel included (0 where the JVM cannot tell). */
  static long cpuNanos() {
    java.lang.management.OperatingSystemMXBean os =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean) {
      return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
    }
    return 0;
  }

  /** The original article's test 2: FileChannel to FileChannel through one direct buffer. */
  static void channelCopy(Path src, Path dst) throws IOException {
    try (FileChannel in = FileChannel.open(src, StandardOpenOption.READ);
        FileChannel out =
            FileChannel.open(
                dst,
                StandardOpenOption.WRITE,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
      while (in.read(buf) >= 0) {
        buf.flip();
        while (buf.hasRemaining()) {
          out.write(buf);
        }
        buf.clear();
      }
    }
  }

  /** The original article's test 3, with the line ends it dropped written back. */
  static void readerCopy(Path src, Path dst) throws IOException {
    try (BufferedReader r =
            new BufferedReader(
                new InputStreamReader(new FileInputStream(src.toFile()), StandardCharsets.UTF_8));
        BufferedWriter w =
            new BufferedWriter(
                new OutputStreamWriter(
                    new FileOutputStream(dst.toFile()), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        w.write(line);
        w.write('\n');
      }
    }
  }
}
