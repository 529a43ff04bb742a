/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.net.InetAddresses;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Ipv4TextTest {

  @ParameterizedTest(name = "''{0}'' -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "0.0.0.0|0",
        "255.255.255.255|4294967295",
        "1.2.3.4|16909060",
        "10.0.0.1|167772161",
        "128.0.0.0|2147483648",
        "256.1.1.1|octet-out-of-range",
        "1.2.3.256|octet-out-of-range",
        "1.2.3.1000|octet-out-of-range",
        "1.2.3|not-ipv4",
        "1.2.3.4.5|not-ipv4",
        "01.2.3.4|leading-zero",
        "1.2.3.00|leading-zero",
        "1.2.3.0|16909056",
        "`1.2.3.4 `|16909060",
        "` 1.2.3.4`|16909060",
        "`\"1.2.3.4\"`|16909060",
        "`\"1.2.3.4`|not-ipv4",
        "`\" 1.2.3.4\"`|not-ipv4",
        "1..2.3|not-ipv4",
        ".1.2.3|not-ipv4",
        "1.2.3.|not-ipv4",
        "``|not-ipv4",
        "a.b.c.d|not-ipv4",
        "1.2.3.4/24|not-ipv4",
        "::ffff:1.2.3.4|16909060",
        "1.2.3.4:80|port-not-allowed",
        "1234|octet-out-of-range",
        "１.２.３.４|not-ipv4",
        "-1.2.3.4|not-ipv4",
        "+1.2.3.4|not-ipv4",
      })
  void edgeCases(String text, String expected) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    long v = AddressText.parse(b, 0, b.length, AddressText.PLAIN, new long[2]);
    assertEquals(expected, v >= 0 ? Long.toString(v) : AddressText.reason(v), text);
  }

  /** Agrees with Guava's parser (which also rejects leading zeros) on random near-addresses. */
  @Test
  void agreesWithGuavaOnRandomInput() throws Exception {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    String alphabet = "0123456789.....a";
    for (int i = 0; i < 200_000; i++) {
      String s;
      if (rnd.nextBoolean()) {
        s =
            rnd.nextInt(300)
                + "."
                + rnd.nextInt(300)
                + "."
                + rnd.nextInt(300)
                + "."
                + rnd.nextInt(300);
      } else {
        StringBuilder sb = new StringBuilder();
        for (int k = rnd.nextInt(1, 17); k > 0; k--) {
          sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
        }
        s = sb.toString();
      }
      long ours = AddressText.parse(s, AddressText.PLAIN, new long[2]);
      boolean guavaV4 = InetAddresses.isInetAddress(s);
      assertEquals(guavaV4, ours >= 0, "seed " + seed + ": '" + s + "'");
      if (guavaV4) {
        Inet4Address a = (Inet4Address) InetAddresses.forString(s);
        assertEquals(
            Integer.toUnsignedLong(InetAddresses.coerceToInteger(a)), ours, "seed " + seed);
      }
    }
  }

  @Test
  void formatRoundTripsAgainstInetAddress() throws Exception {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = 0; i < 100_000; i++) {
      int a = rnd.nextInt();
      String text = Ipv4Text.format(a);
      byte[] raw = {(byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8), (byte) a};
      assertEquals(InetAddress.getByAddress(raw).getHostAddress(), text, "seed " + seed);
      assertEquals(
          Integer.toUnsignedLong(a),
          AddressText.parse(text, AddressText.PLAIN, new long[2]),
          "seed " + seed);
    }
    assertEquals("0.0.0.0", Ipv4Text.format(0));
    assertEquals("255.255.255.255", Ipv4Text.format(-1));
  }
}
