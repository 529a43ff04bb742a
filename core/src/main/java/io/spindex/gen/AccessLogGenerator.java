/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import io.spindex.annotations.Internal;
import io.spindex.lookup.IpLocator;
import io.spindex.text.Ipv4Text;
import io.spindex.text.Ipv6Text;
import java.nio.charset.StandardCharsets;

/**
 * Generates nginx "combined" access-log lines (about 150 bytes each) for demos, tests and
 * benchmarks. Line {@code n} depends only on the seed and {@code n}, so any number of tasks can
 * write disjoint line numbers in parallel and the whole file is the same however it was split.
 *
 * <p>About {@code rejectPerMille}/1000 of the lines have no address: a {@code -} client, an {@code
 * unknown} one, a comment line or a blank line (every one is rejected by {@link IpLocator#first()}
 * and by field 0 split on space). About {@code ipv6PerMille}/1000 start with an IPv6 client address
 * (in one of the regional registries' /12 blocks of {@code 2000::/3}, random below), the rest with
 * a uniformly random IPv4 client address. Stateless and thread-safe.
 */
@Internal
public final class AccessLogGenerator {
  private static final String[] METHODS = {"GET", "GET", "GET", "GET", "POST", "HEAD"};
  private static final String[] PATHS = {
    "/", "/products/", "/search?q=", "/static/app.", "/api/v1/items/", "/cart", "/images/p"
  };
  private static final int[] STATUS = {200, 200, 200, 200, 200, 304, 301, 404, 500};
  private static final String[] MONTHS = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
  };
  private static final String[] AGENTS = {
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
    "curl/8.4.0",
  };

  /** High 16 bits of the registries' /12 blocks that IPv6 clients come from. */
  private static final long[] REGIONS = {0x2a00, 0x2600, 0x2400, 0x2800};

  private final long seed;
  private final int rejectPerMille;
  private final int ipv6PerMille;

  /** IPv4 clients only (besides the rejected lines). */
  public AccessLogGenerator(long seed, int rejectPerMille) {
    this(seed, rejectPerMille, 0);
  }

  public AccessLogGenerator(long seed, int rejectPerMille, int ipv6PerMille) {
    if (rejectPerMille < 0 || ipv6PerMille < 0 || rejectPerMille + ipv6PerMille > 1000) {
      throw new IllegalArgumentException(
          "rejectPerMille and ipv6PerMille must be >= 0 and add up to at most 1000");
    }
    this.seed = seed;
    this.rejectPerMille = rejectPerMille;
    this.ipv6PerMille = ipv6PerMille;
  }

  /** Line {@code n} (from 0), without a line end, as UTF-8 (in fact ASCII) bytes. */
  public byte[] line(long n) {
    return text(n).getBytes(StandardCharsets.US_ASCII);
  }

  /** Line {@code n} as text. */
  public String text(long n) {
    long r = mix(seed ^ mix(n + 0x9E3779B97F4A7C15L));
    long r2 = mix(r);
    int kind = (int) Long.remainderUnsigned(r2, 1000);
    StringBuilder sb = new StringBuilder(160);
    if (kind < rejectPerMille) {
      switch ((int) Long.remainderUnsigned(r2 >>> 20, 4)) {
        case 0:
          sb.append('-');
          break;
        case 1:
          sb.append("unknown");
          break;
        case 2:
          return "#Fields: remote_addr remote_user time_local request status body_bytes_sent";
        default:
          return "";
      }
    } else if (kind < rejectPerMille + ipv6PerMille) {
      long region = REGIONS[(int) ((r2 >>> 24) & 3)];
      sb.append(Ipv6Text.format((region << 48) | ((r >>> 12) & 0xF_FFFF_FFFF_FFFFL), mix(r2)));
    } else {
      sb.append(Ipv4Text.format((int) r));
    }
    int t = (int) ((r >>> 32) & 0x7FFFFFFF);
    sb.append(" - - [")
        .append(two(1 + t % 28))
        .append('/')
        .append(MONTHS[(t >>> 5) % 12])
        .append("/2024:")
        .append(two((t >>> 9) % 24))
        .append(':')
        .append(two((t >>> 14) % 60))
        .append(':')
        .append(two((t >>> 20) % 60))
        .append(" +0000] \"")
        .append(METHODS[(int) ((r2 >>> 32) & 0xFFFF) % METHODS.length])
        .append(' ')
        .append(PATHS[(int) ((r2 >>> 40) & 0xFF) % PATHS.length])
        .append((r2 >>> 48) & 0xFFFF)
        .append(" HTTP/1.1\" ")
        .append(STATUS[(int) ((r2 >>> 10) & 0xFF) % STATUS.length])
        .append(' ')
        .append((r2 >>> 18) & 0xFFFF)
        .append(" \"-\" \"")
        .append(AGENTS[(int) ((r2 >>> 56) & 0xFF) % AGENTS.length])
        .append('"');
    return sb.toString();
  }

  private static String two(int v) {
    return v < 10 ? "0" + v : Integer.toString(v);
  }

  /** SplitMix64's finaliser: a fixed bijection that scrambles every bit. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
