/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.lookup.IpLocator;
import io.spindex.text.Ipv4Text;
import io.spindex.text.Ipv6Text;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Reading the address field of a line (what ip-lookup's field mode and the SQL functions do for
 * every row: trim, parse, no lookup) with {@link IpLocator#field}: IPv4 dotted quads, IPv6 text
 * (RFC 5952 and a fifth bracketed with a port), or a mix of nine IPv4 to one IPv6. Lines are made
 * in advance from a fixed seed; scores are ns per line.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
public class AddressFieldBenchmark {
  private static final int LINES = 4096;

  @Param({"ipv4", "ipv6", "mixed"})
  public String kind;

  private byte[][] lines;
  private final long[] v6 = new long[2];
  private final IpLocator locator = IpLocator.field((byte) ',', 0);

  @Setup
  public void setUp() {
    SplittableRandom rnd = new SplittableRandom(BenchFiles.SEED);
    lines = new byte[LINES][];
    for (int i = 0; i < LINES; i++) {
      boolean six = kind.equals("ipv6") || (kind.equals("mixed") && rnd.nextInt(10) == 0);
      String a;
      if (!six) {
        a = Ipv4Text.format(rnd.nextInt());
      } else {
        a = Ipv6Text.format(0x2000_0000_0000_0000L | (rnd.nextLong() >>> 4), rnd.nextLong());
        if (rnd.nextInt(5) == 0) {
          a = "[" + a + "]:" + rnd.nextInt(1, 65536);
        }
      }
      lines[i] = (a + ",GET /index.html 200").getBytes(StandardCharsets.US_ASCII);
    }
  }

  /** Every line's field read; the sum of the results keeps the work alive. */
  @Benchmark
  @OperationsPerInvocation(LINES)
  public long field() {
    long sum = 0;
    for (byte[] line : lines) {
      sum += locator.locate(line, 0, line.length, v6) + v6[1];
    }
    return sum;
  }
}
