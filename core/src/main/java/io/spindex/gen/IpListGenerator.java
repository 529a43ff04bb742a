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
import java.util.SplittableRandom;

/**
 * Deterministic IP list text: {@code count} lines of uniformly random dotted quads (so about {@code
 * count^2 / 2^33} duplicates), with a given fraction of malformed lines of every kind the parser
 * rejects. The same seed gives the same bytes on every machine. 26,123,456 lines (the original
 * article's list) come to about 355 MB.
 */
@Internal
public final class IpListGenerator {
  /** One malformed line of each kind the set builder rejects, cycled through. */
  static final String[] MALFORMED = {
    "256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "fe80::1%eth0", "host-1.example", "1..2.3"
  };

  /** IPv6 "provider" /32 blocks that generated IPv6 addresses cluster in. */
  private static final int PROVIDERS = 4096;

  private final long count;
  private final long seed;
  private final double malformedFraction;
  private int family = 4;

  public IpListGenerator(long count, long seed, double malformedFraction) {
    if (count < 0 || malformedFraction < 0 || malformedFraction > 1) {
      throw new IllegalArgumentException("count >= 0 and malformed fraction in [0, 1]");
    }
    this.count = count;
    this.seed = seed;
    this.malformedFraction = malformedFraction;
  }

  /**
   * Which addresses: {@code 4} (the default), {@code 6}, or {@code 46} for both (40 % IPv6, as on
   * large sites' dual-stack traffic). IPv6 addresses are like clients' ones: in one of {@value
   * #PROVIDERS} provider /32 blocks of the regional registries' space, a random /48 and /64 in it,
   * and a random interface id (privacy addresses).
   */
  public IpListGenerator family(int f) {
    if (f != 4 && f != 6 && f != 46) {
      throw new IllegalArgumentException("family must be 4, 6 or both, not " + f);
    }
    this.family = f;
    return this;
  }

  /** Writes the lines to {@code out} (not closed). */
  public void writeTo(OutputStream out) throws IOException {
    SplittableRandom rnd = new SplittableRandom(seed);
    byte[] buf = new byte[1 << 20];
    int at = 0;
    int malformedIndex = 0;
    long[] providers = new long[PROVIDERS];
    SplittableRandom p = new SplittableRandom(seed ^ 0x6L);
    // The regional registries' blocks, weighted by their share of the allocations.
    int[] regions = {0x2a00, 0x2600, 0x2400, 0x2800, 0x2c00, 0x2001};
    int[] upTo = {34, 60, 84, 93, 96, 100};
    for (int i = 0; i < PROVIDERS; i++) {
      int x = p.nextInt(100);
      int r = 0;
      while (x >= upTo[r]) {
        r++;
      }
      int region = regions[r];
      long bits = region == 0x2001 ? p.nextLong(1L << 16) : p.nextLong(1L << 20);
      providers[i] = ((long) region << 48) | (bits << 32);
    }
    for (long i = 0; i < count; i++) {
      if (at > buf.length - 64) {
        out.write(buf, 0, at);
        at = 0;
      }
      if (malformedFraction > 0 && rnd.nextDouble() < malformedFraction) {
        byte[] m = MALFORMED[malformedIndex++ % MALFORMED.length].getBytes(StandardCharsets.UTF_8);
        System.arraycopy(m, 0, buf, at, m.length);
        at += m.length;
      } else if (family == 6 || (family == 46 && rnd.nextInt(10) < 4)) {
        long provider = providers[rnd.nextInt(PROVIDERS)];
        long hi = provider | (rnd.nextLong() & 0xFFFF_FFFFL);
        at = Ipv6Text.format(hi, rnd.nextLong(), buf, at);
      } else {
        at = Ipv4Text.format(rnd.nextInt(), buf, at);
      }
      buf[at++] = '\n';
    }
    out.write(buf, 0, at);
    out.flush();
  }
}
