/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.text.AddressText;
import java.util.Arrays;

/** Parses one piece of input into addresses and a /16 histogram. */
final class IpSink extends DataLineSink {
  final int[] histogram = new int[65536];
  int[] values;
  int count;
  long[] hi6 = new long[16];
  long[] lo6 = new long[16];
  int count6;
  private final long[] v6 = new long[2];

  IpSink(SourceScan.Piece piece) {
    // Lines are at least 8 bytes ("1.2.3.4\n"); typical lists average ~14.
    this(piece.name(), piece.gzip ? 1 << 20 : (piece.end - piece.start) / 12 + 16);
  }

  IpSink(String file, long guess) {
    super(file);
    this.values = new int[(int) Math.min(guess, Integer.MAX_VALUE - 16)];
  }

  @Override
  void data(byte[] b, int from, int to, int f, int t, long index) {
    long a = AddressText.parse(b, f, t, AddressText.PLAIN, v6);
    if (a == AddressText.IPV6) {
      addIpv6(v6[0], v6[1]);
      return;
    } else if (a < 0) {
      rejects.add(AddressText.reason(a), file, index + 1, b, from, to);
      return;
    }
    if (count == values.length) {
      values = Arrays.copyOf(values, (int) Math.min(Integer.MAX_VALUE - 16, count * 3L / 2 + 16));
    }
    int v = (int) a;
    values[count++] = v;
    histogram[v >>> 16]++;
  }

  private void addIpv6(long hi, long lo) {
    if (count6 == hi6.length) {
      int n = (int) Math.min(Integer.MAX_VALUE - 16, count6 * 2L);
      hi6 = Arrays.copyOf(hi6, n);
      lo6 = Arrays.copyOf(lo6, n);
    }
    hi6[count6] = hi;
    lo6[count6++] = lo;
  }
}
