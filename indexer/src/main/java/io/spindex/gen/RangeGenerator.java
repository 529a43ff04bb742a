/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import io.spindex.text.Ipv4Text;
import io.spindex.text.Ipv6Text;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Deterministic IP range text like a region database: about {@code count} sorted, non-overlapping
 * ranges, labelled {@code country|region|city|isp} in Korean and English. Formats: {@code range}
 * ({@code start|end|label}), {@code csv} (a header line, then {@code start,end,label}) and {@code
 * cidr} (aligned blocks, {@code address/len,label}).
 *
 * <p>IPv4 ranges cover the whole space, leaving about a tenth of it in gaps. IPv6 ranges are shaped
 * like the routed IPv6 space instead ({@link #family}): aligned blocks from /19 to /64 allocated in
 * a few regional /12 blocks of {@code 2000::/3} (as the regional registries hand them out: most
 * rows are /29 to /48, some /56 and /64 customer blocks, a few very large ones), with gaps between
 * allocations; almost all of the 2^128 space is in no range, so a lookup is not trivial.
 */
public final class RangeGenerator {
  /** Output layouts. */
  public enum Format {
    RANGE,
    CSV,
    CIDR;

    /** {@code range}, {@code csv} or {@code cidr}; anything else is a usage error. */
    public static Format parse(String s) {
      for (Format f : values()) {
        if (f.name().equalsIgnoreCase(s)) {
          return f;
        }
      }
      throw new IllegalArgumentException("--format: expected range, csv or cidr, not '" + s + "'");
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
  private int family = 4;

  public RangeGenerator(int count, long seed, Format format) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1");
    }
    this.count = count;
    this.seed = seed;
    this.format = format;
  }

  /**
   * Which addresses: {@code 4} (the default), {@code 6}, or {@code 46} for both (about {@code
   * count} of each, IPv4 lines first, as one dual-stack file).
   */
  public RangeGenerator family(int f) {
    if (f != 4 && f != 6 && f != 46) {
      throw new IllegalArgumentException("family must be 4, 6 or both, not " + f);
    }
    this.family = f;
    return this;
  }

  /** Writes the lines to {@code out} (not closed). */
  public void writeTo(OutputStream out) throws IOException {
    SplittableRandom rnd = new SplittableRandom(seed);
    StringBuilder sb = new StringBuilder(1 << 16);
    char d = format == Format.RANGE ? '|' : ',';
    if (format == Format.CSV) {
      sb.append("start_ip,end_ip,label\n");
    }
    if (family != 6) {
      writeIpv4(rnd, sb, out, d);
    }
    if (family != 4) {
      writeIpv6(new SplittableRandom(seed ^ 0x6L), sb, out, d);
    }
    out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** Regional /12 blocks of 2000::/3 (high 16 bits) and the share of the rows each gets. */
  private static final int[] REGIONS = {0x2a00, 0x2600, 0x2400, 0x2800, 0x2c00, 0x2001};

  private static final int[] REGION_WEIGHTS = {34, 26, 24, 9, 3, 4};

  private void writeIpv6(SplittableRandom rnd, StringBuilder sb, OutputStream out, char d)
      throws IOException {
    int weights = 0;
    for (int w : REGION_WEIGHTS) {
      weights += w;
    }
    for (int r = 0; r < REGIONS.length; r++) {
      // Work in units of the high 64 bits: every block is /64 or larger.
      long at = (long) REGIONS[r] << 48;
      long end = at + (REGIONS[r] == 0x2001 ? 1L << 48 : 1L << 52);
      int rows = (int) Math.max(1, (long) count * REGION_WEIGHTS[r] / weights);
      for (int i = 0; i < rows; i++) {
        int len = prefixLength(rnd);
        long size = 1L << (64 - len);
        at = (at + size - 1) & -size;
        if (Long.compareUnsigned(at, end - size) > 0) {
          break; // the region is full
        }
        if (format == Format.CIDR) {
          sb.append(Ipv6Text.format(at, 0)).append('/').append(len).append(',');
        } else {
          sb.append(Ipv6Text.format(at, 0)).append(d);
          sb.append(Ipv6Text.format(at + size - 1, -1L)).append(d);
        }
        label(rnd, sb);
        sb.append('\n');
        flushIfFull(sb, out);
        at += size;
        // Gaps between allocations: mostly small, sometimes a whole /32 or more unallocated.
        int gap = rnd.nextInt(10);
        if (gap < 3) {
          at += size * rnd.nextInt(1, 4);
        } else if (gap == 3) {
          at += 1L << 32;
        }
      }
    }
  }

  /** Prefix lengths as in the regional registries' delegations and the geo databases' splits. */
  private static int prefixLength(SplittableRandom rnd) {
    int x = rnd.nextInt(1000);
    if (x < 2) {
      return rnd.nextInt(19, 29); // a few very large allocations
    } else if (x < 250) {
      return rnd.nextInt(29, 33); // ISP allocations, /32 most of all
    } else if (x < 550) {
      return rnd.nextInt(33, 48); // ISP regions and cities
    } else if (x < 800) {
      return 48; // sites
    } else if (x < 950) {
      return 56;
    }
    return 64;
  }

  private void writeIpv4(SplittableRandom rnd, StringBuilder sb, OutputStream out, char d)
      throws IOException {
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
