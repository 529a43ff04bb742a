/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpSetBuilder;
import io.spindex.cli.SpindexCli;
import io.spindex.gen.IpListGenerator;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.IndexVerifier;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills {@code spindex build} with SIGKILL at random moments while it replaces an existing index:
 * the target must always hold the old index or the complete new one, never a partial file.
 */
class CrashSafeBuildTest {
  @TempDir Path dir;

  @Test
  void killedBuildsLeaveTheOldOrTheNewIndex() throws Exception {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    Path oldText = dir.resolve("old.txt");
    Files.writeString(oldText, "10.0.0.1\n");
    Path target = dir.resolve("ips.spx");
    int oldCrc = new IpSetBuilder().build(List.of(oldText), target).header().headerCrc32c();
    Path big = dir.resolve("big.txt");
    try (OutputStream out = Files.newOutputStream(big)) {
      new IpListGenerator(3_000_000, 1, 0).writeTo(out);
    }
    Path reference = dir.resolve("reference.spx");
    int newCrc =
        new IpSetBuilder().createdMillis(0).build(List.of(big), reference).header().headerCrc32c();
    int sawOld = 0;
    int sawNew = 0;
    for (int round = 0; round < 8; round++) {
      ProcessBuilder pb =
          new ProcessBuilder(
                  Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  SpindexCli.class.getName(),
                  "build",
                  "ips",
                  big.toString(),
                  "-o",
                  target.toString())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().put("SOURCE_DATE_EPOCH", "0");
      Process p = pb.start();
      long delay = rnd.nextLong(100, 2500);
      boolean finished = p.waitFor(delay, TimeUnit.MILLISECONDS);
      if (!finished) {
        p.destroyForcibly(); // SIGKILL on Linux
        p.waitFor(30, TimeUnit.SECONDS);
      }
      IndexHeader h = IndexVerifier.verify(target);
      String ctx = "seed " + seed + ", round " + round + ", killed after " + delay + " ms";
      assertTrue(h.headerCrc32c() == oldCrc || h.headerCrc32c() == newCrc, ctx);
      if (h.headerCrc32c() == oldCrc) {
        sawOld++;
      } else {
        sawNew++;
        // Put the old index back, so that the next kill can again catch a replacement.
        new IpSetBuilder().build(List.of(oldText), target);
        oldCrc = IndexVerifier.verify(target).headerCrc32c();
      }
    }
    // Leftover temporary files are dot-files ending in .tmp, which nothing reads.
    try (Stream<Path> files = Files.list(dir)) {
      files
          .filter(f -> f.getFileName().toString().startsWith(".ips.spx."))
          .forEach(f -> assertTrue(f.getFileName().toString().endsWith(".tmp"), f.toString()));
    }
    System.out.printf(
        "crash-safe build (seed %d): %d kills left the old index, %d runs finished the new one%n",
        seed, sawOld, sawNew);
  }
}
