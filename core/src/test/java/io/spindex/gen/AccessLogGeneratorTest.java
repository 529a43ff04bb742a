/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.lookup.IpLocator;
import io.spindex.text.Ipv6Text;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AccessLogGeneratorTest {
  @Test
  void linesDependOnSeedAndNumberOnly() {
    AccessLogGenerator a = new AccessLogGenerator(7, 10);
    AccessLogGenerator b = new AccessLogGenerator(7, 10);
    for (long n = 0; n < 1000; n += 37) {
      assertEquals(a.text(n), b.text(n));
    }
    assertTrue(!a.text(1).equals(new AccessLogGenerator(8, 10).text(1)));
  }

  @Test
  void rejectShareAndLineLengthAreAsDocumented() {
    AccessLogGenerator gen = new AccessLogGenerator(1, 20, 400);
    IpLocator first = IpLocator.first();
    IpLocator field0 = IpLocator.field((byte) ' ', 0);
    int n = 100_000;
    int rejected = 0;
    int ipv6 = 0;
    long bytes = 0;
    long[] v6 = new long[2];
    long[] f6 = new long[2];
    for (int i = 0; i < n; i++) {
      byte[] b = gen.line(i);
      bytes += b.length + 1;
      long a = first.locate(b, 0, b.length, v6);
      long f = field0.locate(b, 0, b.length, f6);
      assertEquals(a < 0, f < 0, gen.text(i));
      if (a == IpLocator.IPV6) {
        ipv6++;
        assertEquals(IpLocator.IPV6, f);
        assertArrayEquals(v6, f6);
        assertTrue(gen.text(i).startsWith(Ipv6Text.format(v6[0], v6[1]) + " "), gen.text(i));
        assertTrue((v6[0] >>> 61) == 1, "in 2000::/3: " + gen.text(i));
      } else if (a >= 0) {
        assertEquals(a, f);
        assertTrue(gen.text(i).startsWith(io.spindex.text.Ipv4Text.format((int) a) + " "));
      } else {
        rejected++;
      }
      assertTrue(new String(b, StandardCharsets.US_ASCII).indexOf('\n') < 0);
    }
    assertTrue(rejected > n * 0.015 && rejected < n * 0.025, "rejected " + rejected);
    assertTrue(ipv6 > n * 0.38 && ipv6 < n * 0.42, "ipv6 " + ipv6);
    double avg = (double) bytes / n;
    assertTrue(avg > 120 && avg < 180, "average line " + avg);
  }
}
