/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.net.InetAddresses;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Ipv6TextTest {

  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
  private static final BigInteger TWO_128 = BigInteger.ONE.shiftLeft(128);

  /** Reads {@code text} with {@link AddressText#PLAIN}: its canonical text, or its reason. */
  private static String parsed(String text) {
    return parsed(text, AddressText.PLAIN);
  }

  /** Reads {@code text} with {@code forms}: its canonical text, or its reason. */
  static String parsed(String text, int forms) {
    long[] out = {7, 7};
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    long code = AddressText.parse(b, 0, b.length, forms, out);
    if (code < 0) {
      assertArrayEquals(new long[] {7, 7}, out, "a reject leaves out alone: " + text);
      return AddressText.reason(code);
    }
    return canonical(code, out);
  }

  /** The canonical text of a result: a dotted quad, or RFC 5952. */
  static String canonical(long result, long[] out) {
    return result == AddressText.IPV6
        ? Ipv6Text.format(out[0], out[1])
        : Ipv4Text.format((int) result);
  }

  @ParameterizedTest(name = "''{0}'' -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "::|::",
        "::1|::1",
        "1::|1::",
        "::0|::",
        "0::0|::",
        "1:2:3:4:5:6:7::|1:2:3:4:5:6:7:0",
        "::2:3:4:5:6:7:8|0:2:3:4:5:6:7:8",
        "1::3:4:5:6:7:8|1:0:3:4:5:6:7:8",
        "1:2:3:4:5:6:7:8|1:2:3:4:5:6:7:8",
        "0001:0002:0003:0004:0005:0006:0007:0008|1:2:3:4:5:6:7:8",
        "2001:DB8:0:0:0:0:0:1|2001:db8::1",
        "2001:db8::0:1|2001:db8::1",
        "2001:0db8:0000:0000:0000:ff00:0042:8329|2001:db8::ff00:42:8329",
        "FFFF:ffff:FfFf:fFfF:ffff:ffff:ffff:ffff|ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        "1:0:0:1:0:0:0:1|1:0:0:1::1",
        "1:0:0:1:0:0:1:1|1::1:0:0:1:1",
        "1:0:1:1:1:1:1:1|1:0:1:1:1:1:1:1",
        "fe80::1:0:0:0|fe80::1:0:0:0",
        "fe80:0:0:0:1::|fe80::1:0:0:0",
        "1:0:0:2:0:0:3:4|1::2:0:0:3:4",
        "::ffff:1.2.3.4|1.2.3.4",
        "::FFFF:0102:0304|1.2.3.4",
        "0:0:0:0:0:ffff:255.255.255.255|255.255.255.255",
        "::ffff:0:0|0.0.0.0",
        "::fffe:1.2.3.4|::fffe:102:304",
        "64:ff9b::1.2.3.4|64:ff9b::102:304",
        "::1.2.3.4|::102:304",
        "::0.0.0.0|::",
        "1:2:3:4:5:6:1.2.3.4|1:2:3:4:5:6:102:304",
        "1::1.2.3.4|1::102:304",
        "1:2:3:4:5::1.2.3.4|1:2:3:4:5:0:102:304",
        "``|not-ipv4",
        "`:`|not-ipv6",
        "`:: `|::",
        "g::|not-ipv6",
        "::g|not-ipv6",
        "`::1 `|::1",
        "` ::1`|::1",
        "`\"::1\"`|::1",
        "`\"::1`|not-ipv6",
        "::-1|not-ipv6",
        "１::|not-ipv6",
        "::١|not-ipv6",
        ":1::|not-ipv6",
        "::1:|not-ipv6",
        "1:|not-ipv6",
        ":1|not-ipv6",
        "1:2:3:4:5:6:7:8:|not-ipv6",
        ":1:2:3:4:5:6:7:8|not-ipv6",
        "1|not-ipv4",
        "abcd|not-ipv4",
        "12345|octet-out-of-range",
        "1.2.3.4|1.2.3.4",
        "[::1]|brackets-not-allowed",
        "[::1]:80|port-not-allowed",
        "1.2.3.4:80|port-not-allowed",
        "::1/128|not-ipv6",
        "fe80::1%eth0|zone-id",
        "fe80::%1|zone-id",
        "::1%|zone-id",
        "::ffff:1.2.3.4%eth0|zone-id",
        "%eth0|not-ipv4",
        "g::1%eth0|not-ipv6",
        "1::2::3|double-colon-twice",
        "::1::|double-colon-twice",
        "1:::2|double-colon-twice",
        ":::|double-colon-twice",
        "12345::|group-too-long",
        "::12345|group-too-long",
        "00000::|group-too-long",
        "1:2:3:4:5:6:7:00008|group-too-long",
        "1:2:3:4:5:6:7|wrong-group-count",
        "1:2:3:4:5:6:7:8:9|wrong-group-count",
        "1:2:3:4:5:6:7::8|wrong-group-count",
        "1::2:3:4:5:6:7:8|wrong-group-count",
        "::1:2:3:4:5:6:7:8|wrong-group-count",
        "1:2:3:4:5:6:7:8::|wrong-group-count",
        "1:2:3:4:5:6:7:1.2.3.4|wrong-group-count",
        "1:2:3:4:5:6::1.2.3.4|wrong-group-count",
        "1:2:3:4:5:1.2.3.4|wrong-group-count",
        "1.2.3.4::|ipv4-not-last",
        "::1.2.3.4:1|ipv4-not-last",
        "1.2::3|ipv4-not-last",
        "::1.2.3.256|bad-embedded-ipv4",
        "::01.2.3.4|bad-embedded-ipv4",
        "::1.2.3.04|bad-embedded-ipv4",
        "::1.2.3|bad-embedded-ipv4",
        "::1.2.3.4.5|bad-embedded-ipv4",
        "::a.2.3.4|bad-embedded-ipv4",
        "::1.2.3.4x|bad-embedded-ipv4",
        "::1234.1.2.3|bad-embedded-ipv4",
        "::12345.1.2.3|bad-embedded-ipv4",
        "::.1.2.3|bad-embedded-ipv4",
        "::1..2.3|bad-embedded-ipv4",
      })
  void edgeCases(String text, String expected) {
    assertEquals(expected, parsed(text), text);
    if (!expected.contains("-")) {
      assertEquals(expected, parsed(expected), "canonical text parses to itself");
      assertGuava(text, true);
    } else if (!text.contains("%")) {
      assertGuava(text, false);
    }
  }

  /**
   * Guava accepts exactly our accepts (trimmed, unquoted), as the same address (zone ids and
   * non-ASCII aside).
   */
  private static void assertGuava(String text, boolean accepted) {
    String t = text.trim();
    if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
      t = t.substring(1, t.length() - 1);
    }
    if (t.chars().allMatch(c -> c < 128)) {
      assertEquals(accepted, InetAddresses.isInetAddress(t), text);
    }
  }

  /** Every reject code has its own reason; unknown codes read as not-an-address. */
  @Test
  void reasons() {
    long[] codes = {
      AddressText.NOT_IPV4,
      AddressText.OCTET_OUT_OF_RANGE,
      AddressText.LEADING_ZERO,
      AddressText.NOT_IPV6,
      AddressText.ZONE_ID,
      AddressText.DOUBLE_COLON_TWICE,
      AddressText.GROUP_TOO_LONG,
      AddressText.WRONG_GROUP_COUNT,
      AddressText.IPV4_NOT_LAST,
      AddressText.BAD_EMBEDDED_IPV4,
      AddressText.NUMBER_OUT_OF_RANGE,
      AddressText.PREFIX_OUT_OF_RANGE,
      AddressText.HOST_BITS_SET,
      AddressText.BRACKETS_NOT_ALLOWED,
      AddressText.PORT_NOT_ALLOWED,
    };
    String[] reasons = {
      "not-ipv4",
      "octet-out-of-range",
      "leading-zero",
      "not-ipv6",
      "zone-id",
      "double-colon-twice",
      "group-too-long",
      "wrong-group-count",
      "ipv4-not-last",
      "bad-embedded-ipv4",
      "number-out-of-range",
      "prefix-out-of-range",
      "host-bits-set",
      "brackets-not-allowed",
      "port-not-allowed",
    };
    for (int i = 0; i < codes.length; i++) {
      assertTrue(codes[i] < 0);
      assertEquals(reasons[i], AddressText.reason(codes[i]));
      assertFalse(AddressText.explain(codes[i]).isEmpty());
      for (int k = 0; k < i; k++) {
        assertNotEquals(codes[k], codes[i]);
      }
    }
    assertEquals("not-an-address", AddressText.reason(-99));
  }

  /**
   * Random texts of every shape (valid forms, then some mutated) against Guava and the JDK: same
   * acceptance, same address, and our canonical text equals Guava's {@code toAddrString}.
   */
  @Test
  void agreesWithGuavaAndJdkOnRandomText() throws Exception {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] out = new long[2];
    long[] again = new long[2];
    int accepted = 0;
    int rejected = 0;
    int mapped = 0;
    int embedded = 0;
    for (int i = 0; i < 200_000; i++) {
      long hi;
      long lo;
      if (rnd.nextInt(8) == 0) {
        hi = rnd.nextInt(4) == 0 ? randomHalf(rnd) : 0;
        lo = 0xFFFF_0000_0000L | (rnd.nextLong() >>> 32);
      } else {
        hi = randomHalf(rnd);
        lo = randomHalf(rnd);
      }
      String text = randomText(rnd, hi, lo);
      boolean mutated = rnd.nextInt(3) == 0;
      if (mutated) {
        text = mutate(rnd, text);
      }
      String context = "seed " + seed + ": '" + text + "'";
      long code = AddressText.parse(text, AddressText.PLAIN, out);
      String trimmed = text.trim();
      if (text.indexOf('%') >= 0) {
        assertTrue(code < 0, context);
        String address = text.substring(0, text.indexOf('%'));
        long zone = AddressText.parse(address, 0, again);
        if (zone >= 0 && !address.endsWith(" ")) { // (a blank before the % is inside the text)
          assertEquals(AddressText.ZONE_ID, code, context);
        }
        continue;
      }
      boolean guava = InetAddresses.isInetAddress(trimmed);
      assertEquals(guava, code >= 0, context + " " + AddressText.reason(code));
      if (!guava) {
        rejected++;
        continue;
      }
      accepted++;
      embedded += text.indexOf('.') >= 0 ? 1 : 0;
      long rHi = code == AddressText.IPV6 ? out[0] : 0;
      long rLo = code == AddressText.IPV6 ? out[1] : 0xFFFF_0000_0000L | code;
      if (!mutated) {
        assertEquals(hi, rHi, context);
        assertEquals(lo, rLo, context);
      }
      InetAddress reference = InetAddresses.forString(trimmed);
      byte[] expected = sixteen(reference);
      assertArrayEquals(expected, bytes(rHi, rLo), context);
      // An IPv4-mapped address is folded to IPv4, as Guava's (and the JDK's) parser folds it.
      assertEquals(code != AddressText.IPV6, reference instanceof Inet4Address, context);
      if (trimmed.indexOf(':') >= 0) {
        // The JDK's parser, on a literal Guava accepts; the brackets keep it from ever asking DNS.
        assertArrayEquals(
            expected, sixteen(InetAddress.getByName("[" + trimmed + "]")), context + " (JDK)");
      }
      String canonical = canonical(code, out);
      mapped += code != AddressText.IPV6 && trimmed.indexOf(':') >= 0 ? 1 : 0;
      assertEquals(InetAddresses.toAddrString(reference), canonical, context);
      assertEquals(code, AddressText.parse(canonical, AddressText.PLAIN, again), context);
      if (code == AddressText.IPV6) {
        assertEquals(out[0], again[0], context);
        assertEquals(out[1], again[1], context);
      }
    }
    assertTrue(accepted > 100_000, "accepted " + accepted);
    assertTrue(rejected > 20_000, "rejected " + rejected);
    assertTrue(mapped > 5_000, "mapped " + mapped);
    assertTrue(embedded > 10_000, "embedded " + embedded);
  }

  /** Random short strings over the address alphabet: same acceptance and value as Guava. */
  @Test
  void agreesWithGuavaOnRandomStrings() throws Exception {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    String alphabet = "0123456789abcdefABCDEF::::::::....0000ffff";
    long[] out = new long[2];
    int accepted = 0;
    for (int i = 0; i < 200_000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int k = rnd.nextInt(0, 24); k > 0; k--) {
        sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
      }
      String text = sb.toString();
      long code = AddressText.parse(text, AddressText.PLAIN, out);
      boolean guava = InetAddresses.isInetAddress(text);
      assertEquals(guava, code >= 0, "seed " + seed + ": '" + text + "'");
      if (guava) {
        accepted++;
        long rHi = code == AddressText.IPV6 ? out[0] : 0;
        long rLo = code == AddressText.IPV6 ? out[1] : 0xFFFF_0000_0000L | code;
        assertArrayEquals(sixteen(InetAddresses.forString(text)), bytes(rHi, rLo), text);
      }
    }
    assertTrue(accepted > 1_000, "accepted " + accepted);
  }

  /**
   * The group-by-group reader of the common forms ({@code Ipv6Text.common}) on canonical, full,
   * upper-case and zero-padded texts of random addresses, and on each with one byte inserted,
   * deleted or replaced: whatever it accepts Guava accepts as the same address, and it accepts
   * every text of hex groups and colons Guava accepts (the rest goes to the byte-at-a-time reader).
   */
  @Test
  void commonFormsAgreeWithGuava() throws Exception {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    String bytes = "0123456789abcdefABCDEFg::.%/[] ";
    long[] out = new long[2];
    int common = 0;
    int mutated = 0;
    for (int i = 0; i < 100_000; i++) {
      long hi = rnd.nextLong();
      long lo = rnd.nextLong();
      // Zero groups in runs, so that "::" stands at the start, in the middle and at the end.
      for (int g = rnd.nextInt(0, 8); g > 0; g--) {
        int at = rnd.nextInt(8);
        if (at < 4) {
          hi &= ~(0xFFFFL << (48 - 16 * at));
        } else {
          lo &= ~(0xFFFFL << (48 - 16 * (at - 4)));
        }
      }
      String text = Ipv6Text.format(hi, lo);
      switch (rnd.nextInt(4)) {
        case 0:
          text = text.toUpperCase(Locale.ROOT);
          break;
        case 1:
          StringBuilder full = new StringBuilder();
          for (int g = 0; g < 8; g++) {
            long v = ((g < 4 ? hi : lo) >>> (48 - 16 * (g & 3))) & 0xFFFF;
            full.append(g > 0 ? ":" : "").append(String.format(Locale.ROOT, "%04x", v));
          }
          text = full.toString();
          break;
        default:
          break;
      }
      if (rnd.nextBoolean() && !text.isEmpty()) {
        StringBuilder m = new StringBuilder(text);
        int at = rnd.nextInt(m.length());
        char c = bytes.charAt(rnd.nextInt(bytes.length()));
        switch (rnd.nextInt(3)) {
          case 0:
            m.insert(at, c);
            break;
          case 1:
            m.deleteCharAt(at);
            break;
          default:
            m.setCharAt(at, c);
            break;
        }
        text = m.toString();
        mutated++;
      }
      byte[] b = text.getBytes(StandardCharsets.US_ASCII);
      String context = "seed " + seed + ": '" + text + "'";
      boolean accepted = Ipv6Text.common(b, 0, b.length, out);
      boolean guava = InetAddresses.isInetAddress(text) && text.indexOf(':') >= 0;
      if (accepted) {
        common++;
        assertTrue(guava, context);
        assertArrayEquals(sixteen(InetAddresses.forString(text)), bytes(out[0], out[1]), context);
      } else {
        assertFalse(guava && text.matches("[0-9a-fA-F:]*"), context);
      }
    }
    assertTrue(common > 50_000, "common " + common);
    assertTrue(mutated > 40_000, "mutated " + mutated);
  }

  /** format is RFC 5952 (Guava) and parses back, for random values, mostly-zero ones included. */
  @Test
  void formatRoundTrips() throws Exception {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] out = new long[2];
    byte[] buf = new byte[64];
    for (int i = 0; i < 200_000; i++) {
      long hi = randomHalf(rnd);
      long lo = randomHalf(rnd);
      String context = "seed " + seed + ": " + Long.toHexString(hi) + " " + Long.toHexString(lo);
      int at = rnd.nextInt(8);
      int end = Ipv6Text.format(hi, lo, buf, at);
      assertTrue(end - at <= 39, context);
      String text = new String(buf, at, end - at, StandardCharsets.US_ASCII);
      assertEquals(Ipv6Text.format(hi, lo), text, context);
      assertEquals(text.toLowerCase(Locale.ROOT), text, context);
      boolean isMapped = Ipv6Text.isIpv4Mapped(hi, lo);
      long code = AddressText.parse(buf, at, end, AddressText.PLAIN, out);
      if (isMapped) {
        assertEquals(lo & 0xFFFF_FFFFL, code, context);
        assertEquals("::ffff:" + Ipv4Text.format((int) lo), text, context);
      } else {
        assertEquals(AddressText.IPV6, code, context);
        assertEquals(hi, out[0], context);
        assertEquals(lo, out[1], context);
        assertEquals(InetAddresses.toAddrString(InetAddress.getByAddress(bytes(hi, lo))), text);
      }
      // Any other text of the value reads back as the same value.
      assertEquals(code, AddressText.parse(randomText(rnd, hi, lo), AddressText.PLAIN, out));
      if (!isMapped) {
        assertEquals(text, Ipv6Text.format(out[0], out[1]), context);
      }
    }
    assertEquals("::", Ipv6Text.format(0, 0));
    assertEquals("::1", Ipv6Text.format(0, 1));
    assertEquals("1::", Ipv6Text.format(1L << 48, 0));
    assertEquals("::ffff:1.2.3.4", Ipv6Text.format(0, 0xFFFF_0102_0304L));
    assertEquals("::ffff:255.255.255.255", Ipv6Text.format(0, 0xFFFF_FFFF_FFFFL));
    assertEquals("::ffff:0.0.0.0", Ipv6Text.format(0, 0xFFFF_0000_0000L));
    assertEquals("::1:0:0:0", Ipv6Text.format(0, 1L << 48));
    assertEquals("0:1::", Ipv6Text.format(1L << 32, 0));
    assertEquals("1:0:1::", Ipv6Text.format(0x0001_0000_0001_0000L, 0));
    assertEquals(
        "1:0:1:0:1:0:1:0", Ipv6Text.format(0x0001_0000_0001_0000L, 0x0001_0000_0001_0000L));
    String max = "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff";
    assertEquals(max, Ipv6Text.format(-1, -1));
    assertEquals(39, max.length());
    assertTrue(Ipv6Text.isIpv4Mapped(0, 0xFFFF_0000_0000L));
    assertFalse(Ipv6Text.isIpv4Mapped(1, 0xFFFF_0000_0000L));
    assertFalse(Ipv6Text.isIpv4Mapped(0, 0x1_FFFF_0000_0000L));
    assertFalse(Ipv6Text.isIpv4Mapped(0, 0xFFFE_0000_0000L));
  }

  @ParameterizedTest(name = "''{0}'' -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "::/0|0|::",
        "8000::/1|1|8000::",
        "2001:db8::/32|32|2001:db8::",
        "2001:db8:0:ff00::/64|64|2001:db8:0:ff00::",
        "2001:db8::1:0:0:0/80|80|2001:db8:0:0:1::",
        "::fffe/127|127|::fffe",
        "::1/128|128|::1",
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128|128|"
            + "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        "::ffff:1.2.3.0/120|24|1.2.3.0",
        "::ffff:0:0/96|0|0.0.0.0",
        "::ffff:0:0/95|host-bits-set|",
        "::/129|prefix-out-of-range|",
        "::/200|prefix-out-of-range|",
        "::/1000|prefix-out-of-range|",
        "::/|prefix-out-of-range|",
        "::/064|prefix-out-of-range|",
        "::/00|prefix-out-of-range|",
        "::/-1|prefix-out-of-range|",
        "::/6a|prefix-out-of-range|",
        "`::/64 `|64|::",
        "`\"::/64\"`|64|::",
        "::/64x|prefix-out-of-range|",
        "::/64/64|prefix-out-of-range|",
        "8000::/0|host-bits-set|",
        "c000::/1|host-bits-set|",
        "2001:db8::1/64|host-bits-set|",
        "2001:db8:0:0:8000::/64|host-bits-set|",
        "2001:db8:0:0:0:0:0:1/127|host-bits-set|",
        "::3/127|host-bits-set|",
        "::1/127|host-bits-set|",
        "2001:db8::|-1|2001:db8::",
        "``|not-ipv4|",
        "/64|not-ipv4|",
        "1.2.3.0/24|24|1.2.3.0",
        "1.2.3.1/24|host-bits-set|",
        "1.2.3.0/33|prefix-out-of-range|",
        "1.2.3.0/024|prefix-out-of-range|",
        "16909056/24|octet-out-of-range|",
        "fe80::%eth0/64|zone-id|",
        "1::2::/64|double-colon-twice|",
        "2001:db8::/33x|prefix-out-of-range|",
      })
  void cidr(String text, String expected, String network) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    long[] out = {7, 7, 0, 0};
    long a = AddressText.parse(b, 0, b.length, AddressText.CIDR, out);
    if (a >= 0) {
      assertEquals(expected, Long.toString(out[AddressText.PREFIX]), text);
      assertEquals(network, canonical(a, out), text);
    } else {
      assertEquals(expected, AddressText.reason(a), text);
      assertEquals(7, out[0], text);
      assertEquals(7, out[1], text);
    }
  }

  /** Random blocks: the network of every length parses; one host bit more is rejected. */
  @Test
  void cidrRandom() {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    java.util.Random bits = new java.util.Random(rnd.nextLong());
    long[] out = new long[AddressText.DETAILED];
    for (int i = 0; i < 50_000; i++) {
      BigInteger v = new BigInteger(128, bits);
      int len = rnd.nextInt(129);
      BigInteger network = v.shiftRight(128 - len).shiftLeft(128 - len);
      String text = Ipv6Text.format(hi(network), lo(network)) + "/" + len;
      byte[] b = text.getBytes(StandardCharsets.US_ASCII);
      long a = AddressText.parse(b, 0, b.length, AddressText.CIDR, out);
      String context = "seed " + seed + ": " + text;
      if (Ipv6Text.isIpv4Mapped(hi(network), lo(network))) {
        assertEquals(lo(network) & 0xFFFF_FFFFL, a, context);
        assertEquals(len - 96, out[AddressText.PREFIX], context);
      } else {
        assertEquals(AddressText.IPV6, a, context);
        assertEquals(len, out[AddressText.PREFIX], context);
        assertEquals(hi(network), out[0], context);
        assertEquals(lo(network), out[1], context);
      }
      if (len < 128) {
        BigInteger host = network.setBit(rnd.nextInt(128 - len));
        String bad = Ipv6Text.format(hi(host), lo(host)) + "/" + len;
        byte[] bb = bad.getBytes(StandardCharsets.US_ASCII);
        assertEquals(
            AddressText.HOST_BITS_SET,
            AddressText.parse(bb, 0, bb.length, AddressText.CIDR, out),
            context + " " + bad);
      }
    }
  }

  @ParameterizedTest(name = "''{0}'' -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "0|::",
        "1|::1",
        "65535|::ffff",
        "4294967295|::ffff:ffff",
        "18446744073709551615|::ffff:ffff:ffff:ffff",
        "18446744073709551616|0:0:0:1::",
        "42540766411282592856903984951653826560|2001:db8::",
        "281470681743360|::ffff:0.0.0.0",
        "340282366920938463463374607431768211455|ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        "340282366920938463463374607431768211454|ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe",
        "339282366920938463463374607431768211456|ff3f:6831:8436:f8ea:4cb4:60f0::",
        "340282366920938463463374607431768211456|number-out-of-range",
        "340282366920938463463374607431768211465|number-out-of-range",
        "350000000000000000000000000000000000000|number-out-of-range",
        "1000000000000000000000000000000000000000|number-out-of-range",
        "99999999999999999999999999999999999999999999|number-out-of-range",
        "``|not-ipv6",
        "00|not-ipv6",
        "01|not-ipv6",
        "0042540766411282592856903984951653826560|not-ipv6",
        "-1|not-ipv6",
        "+1|not-ipv6",
        "`1 `|not-ipv6",
        "1e5|not-ipv6",
        "::1|not-ipv6",
        "1.2|not-ipv6",
        "3402823669209384634633746074317682114550x|not-ipv6",
      })
  void decimal(String text, String expected) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    long[] out = {7, 7};
    int code = Ipv6Text.parseDecimal(b, 0, b.length, out);
    assertEquals(
        expected, code == Ipv6Text.OK ? Ipv6Text.format(out[0], out[1]) : AddressText.reason(code));
    if (code == Ipv6Text.OK) {
      BigInteger v = new BigInteger(text);
      assertEquals(hi(v), out[0], text);
      assertEquals(lo(v), out[1], text);
    } else {
      assertArrayEquals(new long[] {7, 7}, out, text);
    }
  }

  /**
   * Random values of every bit length, against BigInteger, through the reader ({@link
   * AddressText#DECIMAL}): IPv4 below 2^32, IPv4 when IPv4-mapped, else IPv6.
   */
  @Test
  void decimalAgreesWithBigInteger() {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    java.util.Random bits = new java.util.Random(rnd.nextLong());
    long[] out = new long[2];
    BigInteger two32 = BigInteger.ONE.shiftLeft(32);
    for (int i = 0; i < 100_000; i++) {
      BigInteger v = new BigInteger(rnd.nextInt(0, 131), bits);
      if (rnd.nextInt(16) == 0) {
        v = TWO_128.add(BigInteger.valueOf(rnd.nextInt(-3, 3)));
      } else if (rnd.nextInt(16) == 0) {
        v = TWO_64.add(BigInteger.valueOf(rnd.nextInt(-3, 3)));
      } else if (rnd.nextInt(16) == 0) {
        v = BigInteger.valueOf(0xFFFF_0000_0000L + rnd.nextLong(1L << 32));
      }
      String text = v.toString();
      long a = AddressText.parse(text, AddressText.DECIMAL, out);
      String context = "seed " + seed + ": " + text;
      if (v.compareTo(two32) < 0) {
        assertEquals(v.longValue(), a, context);
      } else if (v.compareTo(TWO_128) >= 0) {
        assertEquals(AddressText.NUMBER_OUT_OF_RANGE, a, context);
      } else if (Ipv6Text.isIpv4Mapped(hi(v), lo(v))) {
        assertEquals(lo(v) & 0xFFFF_FFFFL, a, context);
      } else {
        assertEquals(AddressText.IPV6, a, context);
        assertEquals(hi(v), out[0], context);
        assertEquals(lo(v), out[1], context);
      }
    }
  }

  @ParameterizedTest(name = "''{0}'' -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "::1|::1",
        "[::1]|::1",
        "[::1]:80|::1",
        "[2001:db8::1]:0|2001:db8::1",
        "[2001:db8::1]:65535|2001:db8::1",
        "[::ffff:1.2.3.4]:443|1.2.3.4",
        "[1.2.3.4]|1.2.3.4",
        "1.2.3.4:80|1.2.3.4",
        "\"[::1]:80\"|::1",
        "1.2.3.4:65536|bad-port",
        "1.2.3.4:|bad-port",
        "[2001:DB8::1]:08080|2001:db8::1",
        "::1:80|::1:80",
        "[::1]:65536|bad-port",
        "[::1]:99999|bad-port",
        "[::1]:123456|bad-port",
        "[::1]:|bad-port",
        "[::1]:8a|bad-port",
        "[::1]:-1|bad-port",
        "[::1]x|not-ipv6",
        "[::1]80|not-ipv6",
        "[::1]]|not-ipv6",
        "[::1|not-ipv6",
        "::1]|not-ipv6",
        "[[::1]]|not-ipv6",
        "[]|not-ipv4",
        "[|not-ipv4",
        "``|not-ipv4",
        "` [::1]`|::1",
        "[1.2.3.4]:80|1.2.3.4",
        "[1.2.3.256]:80|octet-out-of-range",
        "[fe80::1%eth0]:80|zone-id",
        "[1::2::3]:80|double-colon-twice",
        "[12345::]|group-too-long",
      })
  void field(String text, String expected) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    long[] out = {7, 7};
    assertEquals(expected, parsed(text, AddressText.LOOKUP), text);
  }

  /** A slice of a larger array is read within its bounds only. */
  @Test
  void readsOnlyTheSlice() {
    byte[] b = "x::1:2y".getBytes(StandardCharsets.US_ASCII);
    long[] out = new long[2];
    assertEquals(Ipv6Text.OK, Ipv6Text.parse(b, 1, 6, out));
    assertEquals("::1:2", Ipv6Text.format(out[0], out[1]));
    assertEquals(Ipv6Text.NOT_IPV6, Ipv6Text.parse(b, 1, 5, out));
    assertEquals(Ipv6Text.OK, Ipv6Text.parse(b, 1, 4, out));
    assertEquals("::1", Ipv6Text.format(out[0], out[1]));
    assertEquals(Ipv6Text.NOT_IPV6, Ipv6Text.parse(b, 1, 2, out));
    byte[] d = "[12][340282366920938463463374607431768211455]".getBytes(StandardCharsets.US_ASCII);
    assertEquals(Ipv6Text.OK, Ipv6Text.parseDecimal(d, 1, 3, out));
    assertEquals("::c", Ipv6Text.format(out[0], out[1]));
    assertEquals(Ipv6Text.OK, Ipv6Text.parseDecimal(d, 5, d.length - 1, out));
    assertEquals(-1L, out[0]);
    assertEquals(-1L, out[1]);
    long[] detailed = new long[AddressText.DETAILED];
    byte[] c = "a::/64b".getBytes(StandardCharsets.US_ASCII);
    assertEquals(AddressText.IPV6, AddressText.parse(c, 1, 6, AddressText.CIDR, detailed));
    assertEquals(64, detailed[AddressText.PREFIX]);
    byte[] f = "[[::1]:80]".getBytes(StandardCharsets.US_ASCII);
    assertEquals(AddressText.IPV6, AddressText.parse(f, 1, 9, AddressText.LOOKUP, out));
    byte[] q = "\"1.2.3.4\"x".getBytes(StandardCharsets.US_ASCII);
    assertEquals(0x01020304L, AddressText.parse(q, 0, 9, AddressText.PLAIN, out));
    assertEquals(AddressText.NOT_IPV4, AddressText.parse(q, 0, 10, AddressText.PLAIN, out));
  }

  // ---- random addresses and texts

  /** 64 random bits, with zero groups (runs of every length and position) made likely. */
  private static long randomHalf(SplittableRandom rnd) {
    switch (rnd.nextInt(6)) {
      case 0:
        return 0;
      case 1:
        return rnd.nextLong();
      default:
        long v = 0;
        for (int g = 0; g < 4; g++) {
          int kind = rnd.nextInt(4);
          long group = kind == 0 ? rnd.nextInt(0x10000) : kind == 1 ? rnd.nextInt(1, 16) : 0;
          v = (v << 16) | group;
        }
        return v;
    }
  }

  /**
   * A valid text of {@code (hi, lo)}, any RFC 4291 form: groups with random leading zeros and case,
   * any run of zero groups (not only the longest, and of any length from 1) compressed, and the
   * last 32 bits as a dotted quad at times.
   */
  static String randomText(SplittableRandom rnd, long hi, long lo) {
    int[] groups = new int[8];
    for (int g = 0; g < 8; g++) {
      groups[g] = (int) ((g < 4 ? hi : lo) >>> (48 - 16 * (g & 3))) & 0xFFFF;
    }
    boolean quad = rnd.nextInt(Ipv6Text.isIpv4Mapped(hi, lo) ? 2 : 5) == 0;
    int n = quad ? 6 : 8;
    int skipFrom = -1;
    int skipTo = -1;
    if (rnd.nextInt(4) != 0) {
      // Compress a random run of zero groups among the first n.
      int start = rnd.nextInt(n);
      while (start < n && groups[start] != 0) {
        start++;
      }
      if (start < n) {
        int end = start + 1;
        int max = rnd.nextInt(1, n + 1);
        while (end < n && groups[end] == 0 && end - start < max) {
          end++;
        }
        skipFrom = start;
        skipTo = end;
      }
    }
    StringBuilder sb = new StringBuilder();
    for (int g = 0; g < n; g++) {
      if (g == skipFrom) {
        sb.append("::");
        g = skipTo - 1;
        continue;
      }
      if (g > 0 && g != skipTo) {
        sb.append(':');
      }
      String hex = Integer.toHexString(groups[g]);
      int pad = rnd.nextInt(4) == 0 ? rnd.nextInt(hex.length(), 5) - hex.length() : 0;
      sb.append("0".repeat(pad));
      for (char c : hex.toCharArray()) {
        sb.append(rnd.nextBoolean() ? Character.toUpperCase(c) : c);
      }
    }
    if (quad) {
      if (skipTo != n) {
        sb.append(':');
      }
      sb.append(Ipv4Text.format((int) lo));
    }
    return sb.toString();
  }

  /** One to three random edits: insert, delete or replace a character of an address alphabet. */
  private static String mutate(SplittableRandom rnd, String text) {
    String alphabet = "0123456789abcdefABCDEF:::::....g%/ ";
    StringBuilder sb = new StringBuilder(text);
    for (int k = rnd.nextInt(1, 4); k > 0; k--) {
      int at = rnd.nextInt(sb.length() + 1);
      char c = alphabet.charAt(rnd.nextInt(alphabet.length()));
      switch (rnd.nextInt(3)) {
        case 0:
          sb.insert(at, c);
          break;
        case 1:
          if (at < sb.length()) {
            sb.deleteCharAt(at);
          }
          break;
        default:
          if (at < sb.length()) {
            sb.setCharAt(at, c);
          }
      }
    }
    return sb.toString();
  }

  // ---- conversions

  private static byte[] bytes(long hi, long lo) {
    byte[] b = new byte[16];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (hi >>> (56 - 8 * i));
      b[8 + i] = (byte) (lo >>> (56 - 8 * i));
    }
    return b;
  }

  /** The 16 bytes of an address; an {@link Inet4Address} (from a mapped text) is mapped back. */
  private static byte[] sixteen(InetAddress a) {
    byte[] raw = a.getAddress();
    if (a instanceof Inet4Address) {
      byte[] b = new byte[16];
      b[10] = (byte) 0xFF;
      b[11] = (byte) 0xFF;
      System.arraycopy(raw, 0, b, 12, 4);
      return b;
    }
    return raw;
  }

  private static long hi(BigInteger v) {
    return v.shiftRight(64).longValue();
  }

  private static long lo(BigInteger v) {
    return v.longValue();
  }
}
