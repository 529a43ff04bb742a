/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spindex.ep.feed.EpRow;
import io.spindex.ep.feed.Utf8;
import io.spindex.text.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The word-at-a-time scanners against plain loops and the JDK: UTF-8 validation ({@link Utf8},
 * {@link EpRow#splitUtf8}) against the strict {@code CharsetDecoder}; splitting against {@code
 * String.split}; character counts against {@code codePointCount}. Inputs mix ASCII, tabs, Korean,
 * 2- and 4-byte characters and random bytes, at every alignment.
 */
class BytesTest {
  static final byte[][] PIECES = {
    "a".getBytes(StandardCharsets.UTF_8),
    "\t".getBytes(StandardCharsets.UTF_8),
    "상품".getBytes(StandardCharsets.UTF_8),
    "é".getBytes(StandardCharsets.UTF_8),
    "😀".getBytes(StandardCharsets.UTF_8),
    "https://x.kr/".getBytes(StandardCharsets.UTF_8),
    "\u3000".getBytes(StandardCharsets.UTF_8),
    {(byte) 0xFF},
    {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // a surrogate
    {(byte) 0xE0, (byte) 0x80, (byte) 0x80}, // overlong
    {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
    {(byte) 0xEA}, // truncated
    {(byte) 0xC0, (byte) 0x80},
  };

  static byte[] random(SplittableRandom r, boolean valid) {
    List<Byte> b = new ArrayList<>();
    int n = r.nextInt(40);
    for (int i = 0; i < n; i++) {
      byte[] p = PIECES[r.nextInt(valid ? 7 : PIECES.length)];
      for (byte x : p) {
        b.add(x);
      }
    }
    byte[] out = new byte[b.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = b.get(i);
    }
    return out;
  }

  @Test
  void utf8ValidationEqualsTheJdk() {
    long seed = 11;
    SplittableRandom r = new SplittableRandom(seed);
    for (int k = 0; k < 20000; k++) {
      byte[] b = random(r, r.nextInt(3) > 0);
      int off = r.nextInt(4);
      byte[] padded = new byte[b.length + off + 3];
      System.arraycopy(b, 0, padded, off, b.length);
      boolean jdk = RefEp.decode(b) != null;
      int bad = Utf8.firstInvalid(padded, off, off + b.length);
      assertEquals(jdk, bad < 0, "seed " + seed + " case " + k);
      if (!jdk) {
        // The first invalid byte: everything before it decodes.
        byte[] prefix = java.util.Arrays.copyOfRange(padded, off, bad);
        assertEquals(true, RefEp.decode(prefix) != null, "seed " + seed + " case " + k);
      }
      EpRow row = new EpRow(64);
      int split = row.splitUtf8(padded, off, off + b.length, 64);
      assertEquals(jdk ? row.split(padded, off, off + b.length, 64) : -1 - bad, split, "case " + k);
      if (jdk) {
        String s = RefEp.decode(b);
        String[] fields = s.split("\t", -1);
        assertEquals(fields.length, split);
        row.splitUtf8(padded, off, off + b.length, 64);
        for (int i = 0; i < fields.length; i++) {
          String f = new String(padded, row.from(i), row.length(i), StandardCharsets.UTF_8);
          assertEquals(fields[i], f, "case " + k + " field " + i);
          assertEquals(
              fields[i].codePointCount(0, fields[i].length()),
              Utf8.chars(padded, row.from(i), row.to(i)));
        }
      }
    }
  }

  @Test
  void indexOfEqualsALoop() {
    SplittableRandom r = new SplittableRandom(3);
    for (int k = 0; k < 5000; k++) {
      byte[] b = new byte[r.nextInt(40)];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) (r.nextInt(4) == 0 ? '\n' : r.nextInt(256));
      }
      int from = b.length == 0 ? 0 : r.nextInt(b.length);
      int loop = from;
      while (loop < b.length && b[loop] != '\n') {
        loop++;
      }
      assertEquals(
          loop, Bytes.indexOf(b, from, b.length, (byte) '\n', Bytes.repeat((byte) '\n')), "" + k);
    }
  }

  @Test
  void seenRowsOrAndNextClear() {
    SeenRows a = new SeenRows(130);
    SeenRows b = new SeenRows(130);
    a.set(0);
    a.set(64);
    b.set(1);
    b.set(129);
    a.or(b);
    assertEquals(4, a.cardinality());
    assertEquals(2, a.nextClear(0));
    assertEquals(65, a.nextClear(64));
    assertEquals(66, a.nextClear(66));
    assertEquals(130, a.nextClear(129));
    for (int i = 2; i < 129; i++) {
      a.set(i);
    }
    assertEquals(130, a.nextClear(0));
    assertEquals(130, a.cardinality());
  }
}
