/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import io.spindex.annotations.Internal;
import io.spindex.text.Ipv4Text;
import io.spindex.text.Ipv6Text;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Deterministic IP range text like a region database: about {@code count} sorted, non-overlapping
 * ranges, labelled {@code country|region|city|isp} in Korean and English. Formats: {@code range}
 * ({@code start|end|label}), {@code csv} (a header line, then {@code start,end,label}) and {@code
 * cidr} (aligned blocks, {@code address/len,label}).
 *
 * <p>IPv4 ranges come in two {@link Shape shapes}. {@link Shape#UNIFORM} (the default) covers the
 * whole space, leaving about a tenth of it in gaps: every lookup is about as hard as any other,
 * which flatters a lookup next to a real database. {@link Shape#REAL} is shaped like the published
 * geo and ASN databases (ip2location LITE, DB-IP, ip-location-db's {@code *-ipv4.csv}): dense in a
 * few /8s, sparse or empty elsewhere, mostly /24 or smaller, with labels of very unequal frequency
 * (see {@link Shape#REAL} for the numbers).
 *
 * <p>IPv6 ranges are shaped like the routed IPv6 space whatever the shape ({@link #family}):
 * aligned blocks from /19 to /64 allocated in a few regional /12 blocks of {@code 2000::/3} (as the
 * regional registries hand them out: most rows are /29 to /48, some /56 and /64 customer blocks, a
 * few very large ones), with gaps between allocations; almost all of the 2^128 space is in no
 * range, so a lookup is not trivial.
 */
@Internal
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

  /** How the IPv4 ranges are laid out (IPv6 ranges have one shape, the routed space's). */
  public enum Shape {
    /**
     * Random cuts of the whole space (about {@code count} ranges of about 2^32 / count addresses
     * each, a tenth of them left out as gaps); labels uniform over 60 {@code
     * country|region|city|isp} combinations. In the {@code cidr} format: a walk over the space in
     * aligned blocks of about that size. The shape before there were shapes, byte for byte.
     */
    UNIFORM,
    /**
     * Shaped like the published geo and ASN databases; exactly {@code count} ranges, the same in
     * every format (the {@code cidr} format splits a range that is no aligned block into the fewest
     * blocks, so it has some more lines). Each /8's share of the rows is fixed by a density tier,
     * assigned from the IANA IPv4 address space registry (whom each /8 went to and how it was
     * handed out):
     *
     * <ul>
     *   <li>no ranges in the special-purpose blocks: 0/8, 10/8, 100.64/10, 127/8, 169.254/16,
     *       172.16/12, 192.0.0/24, 192.0.2/24, 192.88.99/24, 192.168/16, 198.18/15, 198.51.100/24,
     *       203.0.113/24 and 224/3 (multicast and the reserved 240/4): 35 /8s are always empty;
     *   <li>weight 100 each, "very dense" (half the rows together): 45, 103, 185, 192 to 195, 212,
     *       213 and 217 (the RIRs' last /8s and the blocks handed out as /24s);
     *   <li>weight 16, "dense": 2, 5, 23, 31, 37, 46, 62, 77 to 95, 104, 109, 176, 178, 188, 198,
     *       199 and 204 to 209 (the other RIPE /8s, ARIN's of small allocations and CDNs);
     *   <li>weight 4, "medium": the APNIC, LACNIC, AFRINIC and ARIN /8s of large ISPs (1, 14, 24,
     *       27, 36, 39, 41 to 43, 49, 50, 58 to 61, 63 to 76, 96 to 102, 105 to 108, 110 to 126,
     *       173 to 175, 177, 179 to 184, 186, 187, 189 to 191, 196, 197, 200 to 203, 210, 211, 216
     *       and 218 to 223);
     *   <li>weight 0.5, "sparse": the other legacy /8s (3, 4, 8, 12, 18, 20, 32, 34, 35, 38, 40,
     *       44, 47, 52, 54) and the legacy class B space, 128 to 172;
     *   <li>weight 0.05, "very sparse": legacy /8s of single organisations, largely unrouted (6, 7,
     *       9, 11, 13, 15 to 17, 19, 21, 22, 25, 26, 28 to 30, 33, 48, 51, 53, 55 to 57, 214, 215):
     *       about 17 rows each at 700,000 rows, none at 10,000.
     * </ul>
     *
     * A /8 holds at most one row per 400 of its free addresses (41,943 in a whole /8); what a full
     * /8 cannot hold goes to the others by weight, so above about 840,000 rows the very dense /8s'
     * share falls (to 14% at 3 million). At most 9,255,635 rows in all.
     *
     * <p>Row sizes, per mille of the rows: 40 single addresses, 60 unaligned runs of 2 to 255
     * addresses, 250 aligned /29 to /25 blocks, 470 aligned /24s, 60 runs of 2 to 15 /24s, 100
     * aligned /23 to /20 blocks, 18 /19 to /16 and 2 /15 to /12 blocks: 82% of the rows hold at
     * most 256 addresses. Rows larger than a /24 change with the room. Where the rows would take
     * more than 90% of their /8 the largest are cut down to fit (in the very dense /8s at 700,000
     * rows to /22s, at the most rows a /8 holds to /23s). Where they cover little of it (the
     * sparser /8s, and every /8 at small counts) they grow, to at most a /12, towards covering 85%
     * of its free space (70% in a sparse /8, 30% in a very sparse one). Between rows: 65% none, 25%
     * one or two times the row's size (at most a /24 each), 10% a large gap; the large gaps (Pareto
     * weights of index 1.5) share the rest of the /8, so rows cluster. The rows between two large
     * gaps come largest first, as an allocation's subnets often do.
     *
     * <p>Labels: 6,000 distinct {@code country|region|city|isp} labels from 13 countries' regions,
     * known and generated city names, their ISPs and cloud networks (the same labels for every
     * seed), drawn with Zipf-Mandelbrot frequencies 1/(rank + 6)^1.5: the most common label is on
     * about 7% of the rows, the ten most common on about 38%, and at 200,000 rows about half of the
     * labels in use are on one or two rows.
     *
     * <p>Measured at 200,000 rows (and held by the tests): 82% of the rows at most a /24, 4% single
     * addresses, 16% /23 to /16, under 2% larger; the ten densest /8s hold 50% of the rows, the
     * fifty densest 81%; 35 /8s empty and 85 more with under 0.1% of the rows each; the ranges
     * cover about 45% of the 2^32 addresses. At 700,000 rows: the same, but 0.5% of the rows larger
     * than a /16.
     */
    REAL;

    public static Shape parse(String s) {
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
  private int family = 4;
  private Shape shape = Shape.UNIFORM;

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

  /**
   * The shape of the IPv4 ranges: {@link Shape#UNIFORM} (the default) or {@link Shape#REAL}. IPv6
   * ranges have one shape; {@link Shape#REAL} with {@code family(6)} is refused by {@link
   * #writeTo}.
   */
  public RangeGenerator shape(Shape s) {
    this.shape = s;
    return this;
  }

  /** Writes the lines to {@code out} (not closed). */
  public void writeTo(OutputStream out) throws IOException {
    if (shape == Shape.REAL && family == 6) {
      throw new IllegalArgumentException(
          "the real shape is a shape of IPv4 ranges: it needs family 4 or both, not 6");
    }
    if (shape == Shape.REAL && count > RealRanges.capacity()) {
      throw new IllegalArgumentException(
          "the real shape holds at most " + RealRanges.capacity() + " IPv4 ranges, not " + count);
    }
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
    if (shape == Shape.REAL) {
      writeReal(sb, out, d);
    } else if (format == Format.CIDR) {
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

  private void writeReal(StringBuilder sb, OutputStream out, char d) throws IOException {
    SplittableRandom labels = new SplittableRandom(seed ^ 0x1ABE15L);
    new RealRanges(seed)
        .write(
            count,
            (start, end) -> {
              String label = RangeLabels.draw(labels);
              if (format == Format.CIDR) {
                // The fewest aligned blocks: each as large as the start's alignment and the rest
                // of the range allow.
                for (long at = start; at <= end; ) {
                  long size = at == 0 ? 1L << 32 : Long.lowestOneBit(at);
                  while (size > end - at + 1) {
                    size >>= 1;
                  }
                  sb.append(Ipv4Text.format((int) at)).append('/');
                  sb.append(32 - Long.numberOfTrailingZeros(size)).append(',');
                  sb.append(label).append('\n');
                  at += size;
                }
              } else {
                sb.append(Ipv4Text.format((int) start)).append(d);
                sb.append(Ipv4Text.format((int) end)).append(d);
                sb.append(label).append('\n');
              }
              flushIfFull(sb, out);
            });
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
