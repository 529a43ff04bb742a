/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.annotations.Internal;
import io.spindex.text.AddressText;
import io.spindex.text.Ipv4Text;
import io.spindex.text.Ipv6Text;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * What {@code spindex_ip} calls: the canonical text of an address (a dotted quad, also for
 * IPv4-mapped text; RFC 5952 for IPv6, {@code ::ffff:a.b.c.d} for 16 mapped bytes), or NULL when it
 * does not parse (counted).
 */
@Internal
public final class IpText implements AddressTarget {
  private static final long serialVersionUID = 1L;

  private final Unparseable unparseable;
  private transient long[] v6;
  private transient byte[] out;

  IpText(Unparseable unparseable) {
    this.unparseable = unparseable;
  }

  private UTF8String miss(Object value) {
    unparseable.miss(value);
    return null;
  }

  @Override
  public void nullInput() {
    unparseable.nullInput();
  }

  private UTF8String text(int n) {
    return UTF8String.fromBytes(java.util.Arrays.copyOf(out, n));
  }

  private void buffers() {
    if (out == null) {
      out = new byte[48];
      v6 = new long[2];
    }
  }

  public UTF8String canonical(UTF8String s) {
    buffers();
    byte[] b = s.getBytes();
    long a = AddressText.parse(b, 0, b.length, AddressText.LOOKUP, v6);
    if (a < 0) {
      return miss(s);
    }
    return a == AddressText.IPV6
        ? text(Ipv6Text.format(v6[0], v6[1], out, 0))
        : text(Ipv4Text.format((int) a, out, 0));
  }

  public UTF8String canonical(int ip) {
    buffers();
    return text(Ipv4Text.format(ip, out, 0));
  }

  public UTF8String canonical(long ip) {
    buffers();
    return ip < 0 || ip > 0xFFFF_FFFFL ? miss(ip) : text(Ipv4Text.format((int) ip, out, 0));
  }

  public UTF8String canonical(byte[] b) {
    buffers();
    if (b.length == 4) {
      int a = ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
      return text(Ipv4Text.format(a, out, 0));
    }
    if (b.length != 16) {
      return miss(b);
    }
    long hi = 0;
    long lo = 0;
    for (int i = 0; i < 8; i++) {
      hi = (hi << 8) | (b[i] & 0xFF);
      lo = (lo << 8) | (b[i + 8] & 0xFF);
    }
    return Ipv6Text.isIpv4Mapped(hi, lo)
        ? text(Ipv4Text.format((int) lo, out, 0))
        : text(Ipv6Text.format(hi, lo, out, 0));
  }

  @Override
  public String toString() {
    return "canonical text";
  }
}
