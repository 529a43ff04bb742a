/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.FileReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The baselines of the original IP-list article, written the way it wrote them: {@code
 * BufferedReader.readLine}, {@code String.split("\\.")} and {@code Long.parseLong} per octet, the
 * address stored as {@code ip + Integer.MIN_VALUE} so that signed order is address order.
 */
public final class NaiveIpText {
  private NaiveIpText() {}

  /** The article's {@code ip2integer}: split, parse four longs, shift into signed order. */
  static int ip2integer(String ip) {
    String[] parts = ip.split("\\.");
    if (parts.length != 4) {
      return Integer.MIN_VALUE;
    }
    long num =
        Long.parseLong(parts[0]) * 256 * 256 * 256
            + Long.parseLong(parts[1]) * 256 * 256
            + Long.parseLong(parts[2]) * 256
            + Long.parseLong(parts[3]);
    num += Integer.MIN_VALUE;
    return (int) num;
  }

  /**
   * The article's "Strategy 1" load: every line parsed into a pre-sized array, in file order (no
   * sort, no dedupe: less work than a real text load, so the baseline is flattered, not
   * handicapped).
   */
  public static int[] load(Path text, int count) throws IOException {
    int[] out = new int[count];
    int i = 0;
    try (BufferedReader br =
        new BufferedReader(new FileReader(text.toFile(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = br.readLine()) != null) {
        out[i++] = ip2integer(line);
      }
    }
    return i == count ? out : Arrays.copyOf(out, i);
  }

  /**
   * The naive build pipeline: read and parse as above into a growing array, {@code Arrays.sort},
   * drop duplicates, write the sorted ints with {@code DataOutputStream} (the article's binary
   * file).
   *
   * @return the number of distinct addresses written
   */
  public static int build(Path text, Path out) throws IOException {
    int[] values = new int[1 << 16];
    int n = 0;
    try (BufferedReader br =
        new BufferedReader(new FileReader(text.toFile(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = br.readLine()) != null) {
        String s = line.trim();
        if (s.isEmpty() || s.charAt(0) == '#') {
          continue;
        }
        if (n == values.length) {
          values = Arrays.copyOf(values, n * 2);
        }
        values[n++] = ip2integer(s);
      }
    }
    Arrays.sort(values, 0, n);
    int unique = 0;
    for (int i = 0; i < n; i++) {
      if (unique == 0 || values[unique - 1] != values[i]) {
        values[unique++] = values[i];
      }
    }
    try (DataOutputStream dos =
        new DataOutputStream(
            new BufferedOutputStream(new FileOutputStream(out.toFile()), 1 << 16))) {
      dos.writeInt(unique);
      for (int i = 0; i < unique; i++) {
        dos.writeInt(values[i]);
      }
    }
    return unique;
  }
}
