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
import java.util.SplittableRandom;

/**
 * Deterministic IP list text: {@code count} lines of uniformly random dotted quads (so about {@code
 * count^2 / 2^33} duplicates), with a given fraction of malformed lines of every kind the parser
 * rejects. The same seed gives the same bytes on every machine. 26,123,456 lines (the original
 * article's list) come to about 355 MB.
 */
public final class IpListGenerator {
  /** One malformed line of each kind the set builder rejects, cycled through. */
  static final String[] MALFORMED = {
    "256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "2001:db8::1", "host-1.example", "1..2.3"
  };

  private final long count;
  private final long seed;
  private final double malformedFraction;

  public IpListGenerator(long count, long seed, double malformedFraction) {
    if (count < 0 || malformedFraction < 0 || malformedFraction > 1) {
      throw new IllegalArgumentException("count >= 0 and malformed fraction in [0, 1]");
    }
    this.count = count;
    this.seed = seed;
    this.malformedFraction = malformedFraction;
  }

  /** Writes the lines to {@code out} (not closed). */
  public void writeTo(OutputStream out) throws IOException {
    SplittableRandom rnd = new SplittableRandom(seed);
    byte[] buf = new byte[1 << 20];
    int at = 0;
    int malformedIndex = 0;
    for (long i = 0; i < count; i++) {
      if (at > buf.length - 64) {
        out.write(buf, 0, at);
        at = 0;
      }
      if (malformedFraction > 0 && rnd.nextDouble() < malformedFraction) {
        byte[] m = MALFORMED[malformedIndex++ % MALFORMED.length].getBytes(StandardCharsets.UTF_8);
        System.arraycopy(m, 0, buf, at, m.length);
        at += m.length;
      } else {
        at = Ipv4Text.format(rnd.nextInt(), buf, at);
      }
      buf[at++] = '\n';
    }
    out.write(buf, 0, at);
    out.flush();
  }
}
