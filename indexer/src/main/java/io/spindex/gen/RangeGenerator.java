/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import io.spindex.text.Ipv4Text;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Deterministic IP range text like a region database: about {@code count} sorted, non-overlapping
 * ranges that leave about a tenth of the space in gaps, labelled {@code country|region|city|isp} in
 * Korean and English. Formats: {@code range} ({@code start|end|label}), {@code csv} (a header line,
 * then {@code start,end,label}) and {@code cidr} (aligned blocks, {@code a.b.c.d/len,label}).
 */
public final class RangeGenerator {
  /** Output layouts. */
  public enum Format {
    RANGE,
    CSV,
    CIDR;

    public static Format parse(String s) {
      return valueOf(s.toUpperCase(Locale.ROOT));
    }
  }

  private static final String[] COUNTRIES = {
    "대한민국|서울특별시|강남구",
    "대한민국|부산광역시|해운대구",
    "대한민국|경기도|성남시",
    "대한민국|제주특별자치도|제주시",
    "日本|東京都|千代田区",
    "United States|California|San Jose",
    "Deutschland|Hessen|Frankfurt",
    "Singapore|Singapore|Singapore",
    "Australia|Victoria|Melbourne",
    "Brasil|São Paulo|Campinas"
  };
  private static final String[] ISPS = {"KT", "SK Broadband", "LG U+", "AWS", "NTT", "Comcast"};

  private final int count;
  private final long seed;
  private final Format format;

  public RangeGenerator(int count, long seed, Format format) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1");
    }
    this.count = count;
    this.seed = seed;
    this.format = format;
  }

  /** Writes the lines to {@code out} (not closed). */
  public void writeTo(OutputStream out) throws IOException {
    SplittableRandom rnd = new SplittableRandom(seed);
    StringBuilder sb = new StringBuilder(1 << 16);
    char d = format == Format.RANGE ? '|' : ',';
    if (format == Format.CSV) {
      sb.append("start_ip,end_ip,label\n");
    }
    if (format == Format.CIDR) {
      writeCidr(rnd, sb, out);
    } else {
      long[] cuts = cuts(rnd);
      for (int i = 0; i < cuts.length - 1; i++) {
        if (rnd.nextInt(10) == 0) {
          continue; // a gap: no range covers these addresses
        }
        sb.append(Ipv4Text.format((int) cuts[i])).append(d);
        sb.append(Ipv4Text.format((int) (cuts[i + 1] - 1))).append(d);
        label(rnd, sb);
        sb.append('\n');
        flushIfFull(sb, out);
      }
    }
    out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** Sorted distinct range starts, beginning at 0 and ending with 2^32. */
  private long[] cuts(SplittableRandom rnd) {
    long[] c = new long[count + 1];
    for (int i = 1; i < count; i++) {
      c[i] = rnd.nextLong(1, 1L << 32);
    }
    c[count] = 1L << 32;
    Arrays.sort(c);
    int n = 1;
    for (int i = 1; i < c.length; i++) {
      if (c[i] != c[n - 1]) {
        c[n++] = c[i];
      }
    }
    return Arrays.copyOf(c, n);
  }

  private void writeCidr(SplittableRandom rnd, StringBuilder sb, OutputStream out)
      throws IOException {
    // Walk the address space in aligned blocks whose mean size gives about `count` blocks.
    int meanBits = Math.max(0, 32 - (int) Math.ceil(Math.log(count) / Math.log(2)));
    long at = 0;
    int written = 0;
    while (at < (1L << 32) && written < count) {
      int bits = Math.max(0, Math.min(32, meanBits + rnd.nextInt(-2, 3)));
      while (bits > 0 && (at & ((1L << bits) - 1)) != 0) {
        bits--;
      }
      long size = 1L << bits;
      if (at + size > (1L << 32)) {
        break;
      }
      if (rnd.nextInt(10) != 0) {
        sb.append(Ipv4Text.format((int) at)).append('/').append(32 - bits).append(',');
        label(rnd, sb);
        sb.append('\n');
        written++;
        flushIfFull(sb, out);
      }
      at += size;
    }
  }

  private static void label(SplittableRandom rnd, StringBuilder sb) {
    sb.append(COUNTRIES[rnd.nextInt(COUNTRIES.length)]).append('|');
    sb.append(ISPS[rnd.nextInt(ISPS.length)]);
  }

  private static void flushIfFull(StringBuilder sb, OutputStream out) throws IOException {
    if (sb.length() > 60_000) {
      out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
      sb.setLength(0);
    }
  }
}
