/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.net.InetAddresses;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random IPv4 and IPv6 addresses written in every form the reader knows, read in every context,
 * against independent references: Guava's {@code InetAddresses} and the JDK's {@code InetAddress}
 * (on the bare address; both fold IPv4-mapped addresses to IPv4, as the reader does) and {@code
 * BigInteger} (decimal numbers, CIDR blocks). A form the context refuses must be refused with the
 * reason that names it. Seeded: {@code -Daddress.seed=N} replays a failure, whose message starts
 * with its seed.
 */
class AddressFormsPropertyTest {
  private static final int[] CONTEXTS = {
    AddressText.PLAIN, AddressText.LOOKUP, AddressText.RANGE, AddressText.RANGE_FIRST
  };

  /** One written form of an address: its text and the forms it needs ({@code 0}: none). */
  private static final class Written {
    final String text;
    final int needs;
    final int prefix;

    Written(String text, int needs, int prefix) {
      this.text = text;
      this.needs = needs;
      this.prefix = prefix;
    }
  }

  @Test
  void everyFormInEveryContextAgreesWithTheReferences() throws Exception {
    long seed = Long.getLong("address.seed", System.nanoTime());
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] out = new long[AddressText.DETAILED];
    int accepted = 0;
    int refused = 0;
    int mapped = 0;
    for (int i = 0; i < 50_000; i++) {
      long hi;
      long lo;
      switch (rnd.nextInt(4)) {
        case 0: // IPv4
          hi = 0;
          lo = 0xFFFF_0000_0000L | (rnd.nextLong() >>> 32);
          break;
        case 1: // near or in the mapped block
          hi = 0;
          lo = ((long) rnd.nextInt(0xFFFE, 0x10000) << 32) | (rnd.nextLong() >>> 32);
          break;
        default:
          hi = rnd.nextInt(3) == 0 ? rnd.nextLong() >>> rnd.nextInt(64) : rnd.nextLong();
          lo = rnd.nextInt(3) == 0 ? rnd.nextLong() >>> rnd.nextInt(64) : rnd.nextLong();
      }
      boolean isMapped = Ipv6Text.isIpv4Mapped(hi, lo);
      Written w = write(rnd, hi, lo, isMapped);
      String bare = bare(w.text);
      // The references: Guava on the bare address, the JDK on it too (bracketed when IPv6 so
      // that it never asks DNS), BigInteger for decimal numbers.
      byte[] want;
      boolean wantV4;
      boolean sixForm = bare.indexOf(':') >= 0; // written as IPv6: text, or a number >= 2^32
      if (w.text.indexOf(':') < 0 && bare.chars().allMatch(c -> c >= '0' && c <= '9')) {
        BigInteger v = new BigInteger(bare);
        want = sixteen(v);
        sixForm = v.bitLength() > 32;
        wantV4 = isMapped || !sixForm;
      } else {
        InetAddress guava = InetAddresses.forString(bare);
        InetAddress jdk = InetAddress.getByName(bare.indexOf(':') >= 0 ? "[" + bare + "]" : bare);
        assertEquals(guava, jdk, "seed " + seed + ": the references disagree on " + bare);
        want = sixteen(guava);
        wantV4 = guava instanceof Inet4Address;
      }
      for (int forms : CONTEXTS) {
        String context = "seed " + seed + ": '" + w.text + "' with forms " + forms;
        long a = AddressText.parse(w.text, forms, out);
        int missing = w.needs & ~forms;
        if (missing != 0) {
          refused++;
          assertTrue(a < 0, context + ": accepted " + a);
          String reason = AddressText.reason(a);
          if ((missing & AddressText.PORT) != 0) {
            assertEquals("port-not-allowed", reason, context);
          } else if ((missing & AddressText.BRACKETS) != 0) {
            assertEquals("brackets-not-allowed", reason, context);
          }
          // (A number or a block where the context reads only addresses: that parse's reason.)
          continue;
        }
        accepted++;
        assertTrue(a >= 0, context + ": " + AddressText.reason(a));
        assertEquals(wantV4, a != AddressText.IPV6, context);
        long rHi = a == AddressText.IPV6 ? out[0] : 0;
        long rLo = a == AddressText.IPV6 ? out[1] : 0xFFFF_0000_0000L | a;
        assertEquals(new BigInteger(1, want), new BigInteger(1, bytes(rHi, rLo)), context);
        int wantPrefix = w.prefix < 0 ? -1 : wantV4 ? w.prefix - 96 : w.prefix;
        assertEquals(wantPrefix, out[AddressText.PREFIX], context);
        mapped += wantV4 && sixForm ? 1 : 0;
        assertEquals(
            wantV4 && sixForm, (out[AddressText.FOUND] & AddressText.MAPPED) != 0, context);
      }
    }
    assertTrue(accepted > 50_000, "accepted " + accepted);
    assertTrue(refused > 20_000, "refused " + refused);
    assertTrue(mapped > 5_000, "mapped " + mapped);
  }

  /**
   * {@code (hi, lo)} written in a random form: plain (IPv4 as a dotted quad, IPv6 in any RFC 4291
   * text, the mapped block also as {@code ::ffff:a.b.c.d}), then maybe a decimal number or a CIDR
   * block (of the network of the address), in brackets, with a port, in quotes, padded.
   */
  private static Written write(SplittableRandom rnd, long hi, long lo, boolean isMapped) {
    String addr;
    int needs = 0;
    int prefix = -1;
    boolean v4 = isMapped && rnd.nextInt(3) > 0;
    int kind = rnd.nextInt(10);
    if (kind == 0) {
      BigInteger v = new BigInteger(1, bytes(hi, lo));
      if (v4) {
        v = BigInteger.valueOf(lo & 0xFFFF_FFFFL);
      }
      addr = v.toString();
      needs = AddressText.DECIMAL;
    } else if (kind == 1) {
      // The network of a block the address is in.
      int len = v4 ? rnd.nextInt(33) : rnd.nextInt(129);
      BigInteger v = v4 ? BigInteger.valueOf(lo & 0xFFFF_FFFFL) : new BigInteger(1, bytes(hi, lo));
      int bits = v4 ? 32 : 128;
      v = v.shiftRight(bits - len).shiftLeft(bits - len);
      long nHi = v4 ? 0 : v.shiftRight(64).longValue();
      long nLo = v4 ? 0xFFFF_0000_0000L | v.longValue() : v.longValue();
      if (!v4 && Ipv6Text.isIpv4Mapped(nHi, nLo) != isMapped) {
        len = 128; // the block would leave or enter the mapped block: keep the address
        nHi = hi;
        nLo = lo;
      }
      String text = v4 ? Ipv4Text.format((int) nLo) : Ipv6TextTest.randomText(rnd, nHi, nLo);
      return new Written(text + "/" + len, AddressText.CIDR, v4 ? len + 96 : len);
    } else {
      addr = v4 ? Ipv4Text.format((int) lo) : Ipv6TextTest.randomText(rnd, hi, lo);
      switch (rnd.nextInt(4)) {
        case 0:
          addr = "[" + addr + "]";
          needs = AddressText.BRACKETS;
          break;
        case 1:
          if (addr.indexOf(':') >= 0) {
            addr = "[" + addr + "]:" + rnd.nextInt(65536);
            needs = AddressText.BRACKETS | AddressText.PORT;
          } else {
            addr = addr + ":" + rnd.nextInt(65536);
            needs = AddressText.PORT;
          }
          break;
        default:
          break;
      }
    }
    if (rnd.nextBoolean()) {
      addr = "\"" + addr + "\"";
    }
    if (rnd.nextInt(4) == 0) {
      addr = " \t".substring(rnd.nextInt(2)) + addr + " \r".substring(rnd.nextInt(2));
    }
    return new Written(addr, needs, prefix);
  }

  /** The address itself: trimmed, unquoted, unbracketed, without a port or a prefix length. */
  private static String bare(String text) {
    String t = text.trim();
    if (t.indexOf('/') >= 0) {
      return t.substring(0, t.indexOf('/'));
    }
    if (t.startsWith("\"")) {
      t = t.substring(1, t.length() - 1);
    }
    if (t.startsWith("[")) {
      return t.substring(1, t.indexOf(']'));
    }
    int colon = t.indexOf(':');
    if (colon >= 0 && colon == t.lastIndexOf(':')) {
      return t.substring(0, colon); // a.b.c.d:port
    }
    return t;
  }

  private static byte[] bytes(long hi, long lo) {
    byte[] b = new byte[16];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (hi >>> (56 - 8 * i));
      b[8 + i] = (byte) (lo >>> (56 - 8 * i));
    }
    return b;
  }

  /** 16 bytes; an IPv4 address as its IPv4-mapped IPv6 address. */
  private static byte[] sixteen(InetAddress a) {
    byte[] raw = a.getAddress();
    if (raw.length == 16) {
      return raw;
    }
    byte[] b = new byte[16];
    b[10] = (byte) 0xFF;
    b[11] = (byte) 0xFF;
    System.arraycopy(raw, 0, b, 12, 4);
    return b;
  }

  /** 16 bytes of a number below 2^128; below 2^32, as its IPv4-mapped IPv6 address. */
  private static byte[] sixteen(BigInteger v) {
    if (v.bitLength() <= 32) {
      v = v.or(BigInteger.valueOf(0xFFFF_0000_0000L));
    }
    byte[] raw = v.toByteArray();
    byte[] b = new byte[16];
    int n = Math.min(raw.length, 16);
    System.arraycopy(raw, raw.length - n, b, 16 - n, n);
    return b;
  }
}
