/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import com.google.common.net.InetAddresses;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.OverlapPolicy;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * IPv6 ranges as the IPv6 lookup tests write them: 128-bit addresses as {@link BigInteger}s, their
 * text by Guava (not Spindex's formatter), and the index built from them with the {@code prefix6}
 * tables on even for small data.
 */
final class Ranges6 {
  static final BigInteger MAX = BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE);
  static final BigInteger LOW64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private Ranges6() {}

  /** A source range and its label. */
  static final class Src {
    final BigInteger start;
    final BigInteger end;
    final String label;

    Src(BigInteger start, BigInteger end, String label) {
      this.start = start;
      this.end = end;
      this.label = label;
    }
  }

  /**
   * {@code dir/ranges.spx}, built from the ranges (after the lines {@code before}, IPv4 ones say)
   * with a budget large enough that small test data gets tables (the block map alone is 256 KiB).
   */
  static Path build(Path dir, List<String> before, List<Src> ranges, OverlapPolicy policy)
      throws IOException {
    List<String> lines = new ArrayList<>(before);
    for (Src s : ranges) {
      lines.add(text(s.start) + "|" + text(s.end) + "|" + s.label);
    }
    Path in = dir.resolve("ranges.txt");
    Files.write(in, lines, StandardCharsets.UTF_8);
    Path out = dir.resolve("ranges.spx");
    new IpRangeBuilder()
        .delimiter('|')
        .onOverlap(policy)
        .ipv6Tables(100)
        .createdMillis(0)
        .build(List.of(in), out);
    return out;
  }

  static BigInteger v6(String text) {
    return new BigInteger(1, InetAddresses.forString(text).getAddress());
  }

  /** Guava's text of the 128-bit address (never the IPv4-mapped form: none is used here). */
  static String text(BigInteger a) {
    byte[] b = new byte[16];
    byte[] raw = a.toByteArray();
    int n = Math.min(raw.length, 16);
    System.arraycopy(raw, raw.length - n, b, 16 - n, n);
    try {
      return InetAddresses.toAddrString(InetAddress.getByAddress(b));
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }
}
