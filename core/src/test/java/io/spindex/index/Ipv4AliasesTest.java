/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * IPv6 prefixes answered as IPv4 addresses: which addresses a prefix holds and which IPv4 address
 * each answers as, against a 128-bit {@link BigInteger} reference, for every prefix length.
 */
class Ipv4AliasesTest {
  private static final BigInteger MASK64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private static BigInteger of(long hi, long lo) {
    return new BigInteger(Long.toUnsignedString(hi))
        .shiftLeft(64)
        .or(new BigInteger(Long.toUnsignedString(lo)));
  }

  @Test
  void theWellKnownAliases() {
    Ipv4Aliases a =
        Ipv4Aliases.of(new long[] {0, 0, 96, 0x2002L << 48, 0, 16, 0x2001_0000L << 32, 0, 32});
    // 2002:102:304::/48 is 6to4 for 1.2.3.4; 2001:0:506:708:: is Teredo with server 5.6.7.8.
    assertEquals(0x01020304L, a.ipv4(0x2002_0102_0304_0000L, 0));
    assertEquals(0x05060708L, a.ipv4(0x2001_0000_0506_0708L, 99));
    assertEquals(0x0A000001L, a.ipv4(0, 0x0A000001L));
    assertEquals(-1, a.ipv4(0x2003_0000_0000_0000L, 0));
    assertEquals(-1, a.ipv4(0, 0xFFFF_0A00_0001L), "::ffff:10.0.0.1 is not listed");
    assertEquals("2002::/16", a.prefixText(1));
  }

  @Test
  void everyLengthAgainstA128BitReference() {
    SplittableRandom r = new SplittableRandom(28);
    for (int len = 0; len <= 96; len++) {
      long hi = r.nextLong();
      long lo = r.nextLong();
      BigInteger prefix = of(hi, lo).shiftRight(128 - len).shiftLeft(128 - len);
      long pHi = prefix.shiftRight(64).longValue();
      long pLo = prefix.and(MASK64).longValue();
      Ipv4Aliases a = Ipv4Aliases.of(new long[] {pHi, pLo, len});
      for (int i = 0; i < 200; i++) {
        BigInteger addr =
            i % 2 == 0
                ? prefix.or(new BigInteger(128 - len, new java.util.Random(r.nextLong())))
                : of(r.nextLong(), r.nextLong());
        boolean inside = addr.shiftRight(128 - len).equals(prefix.shiftRight(128 - len));
        long expected =
            inside
                ? addr.shiftRight(96 - len).and(BigInteger.valueOf(0xFFFF_FFFFL)).longValue()
                : -1;
        assertEquals(
            expected,
            a.ipv4(addr.shiftRight(64).longValue(), addr.and(MASK64).longValue()),
            "length " + len + ", address " + addr.toString(16));
      }
    }
  }

  @Test
  void malformedTriplesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> Ipv4Aliases.of(new long[] {0, 0}));
    assertThrows(IllegalArgumentException.class, () -> Ipv4Aliases.of(new long[] {0, 0, 97}));
    assertThrows(IllegalArgumentException.class, () -> Ipv4Aliases.of(new long[] {0, 1, 96}));
  }
}
