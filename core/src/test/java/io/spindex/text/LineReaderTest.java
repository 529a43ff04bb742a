/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LineReaderTest {

  /** Collects lines as strings, and over-long ones as "TOO LONG @index". */
  private static List<String> read(byte[] data, long limit, boolean atStart) throws IOException {
    List<String> out = new ArrayList<>();
    long n =
        new LineReader(null)
            .read(
                Channels.newChannel(new ByteArrayInputStream(data)),
                limit,
                atStart,
                new LineReader.Sink() {
                  @Override
                  public void line(byte[] buf, int from, int to, long index) {
                    assertEquals(out.size(), index);
                    out.add(new String(buf, from, to - from, StandardCharsets.UTF_8));
                  }

                  @Override
                  public void tooLong(byte[] buf, int from, int to, long index) {
                    assertEquals(out.size(), index);
                    out.add("TOO LONG @" + index);
                  }
                });
    assertEquals(out.size(), n, "line count");
    return out;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void splitsOnLfAndKeepsCrForTheSink() throws IOException {
    assertEquals(Arrays.asList("a", "b\r", "", "c"), read(utf8("a\nb\r\n\nc"), -1, true));
    assertEquals(Arrays.asList("a", "b"), read(utf8("a\nb\n"), -1, true));
    assertEquals(Arrays.asList(), read(new byte[0], -1, true));
    assertEquals(Arrays.asList(""), read(utf8("\n"), -1, true));
  }

  @Test
  void skipsBomOnlyAtFileStart() throws IOException {
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'x', '\n', 'y'};
    assertEquals(Arrays.asList("x", "y"), read(bom, -1, true));
    assertEquals(Arrays.asList("\uFEFFx", "y"), read(bom, -1, false));
    assertEquals(Arrays.asList(), read(Arrays.copyOf(bom, 3), -1, true));
  }

  @Test
  void honoursTheByteLimit() throws IOException {
    assertEquals(Arrays.asList("ab", "c"), read(utf8("ab\ncd\nef\n"), 4, true));
  }

  @Test
  void reportsOverLongLinesOnceAndGoesOn() throws IOException {
    byte[] longLine = new byte[LineReader.MAX_LINE_BYTES + 10];
    Arrays.fill(longLine, (byte) 'x');
    byte[] huge = new byte[9 << 20]; // longer than the reader's block
    Arrays.fill(huge, (byte) 'y');
    byte[] data =
        concat(utf8("first\n"), longLine, utf8("\nmiddle\n"), huge, utf8("\nlast\n"), huge);
    assertEquals(
        Arrays.asList("first", "TOO LONG @1", "middle", "TOO LONG @3", "last", "TOO LONG @5"),
        read(data, -1, true));
  }

  /** Random lines across many 4 MiB blocks agree with String.split. */
  @Test
  void agreesWithStringSplitAcrossBlocks() throws IOException {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    StringBuilder sb = new StringBuilder();
    while (sb.length() < (10 << 20)) {
      int len = rnd.nextInt(10) == 0 ? rnd.nextInt(100_000) : rnd.nextInt(40);
      for (int i = 0; i < len; i++) {
        sb.append((char) ('a' + rnd.nextInt(26)));
      }
      sb.append(rnd.nextInt(5) == 0 ? "\r\n" : "\n");
    }
    sb.append("tail");
    List<String> expected = Arrays.asList(sb.toString().split("\n", -1));
    assertEquals(expected, read(utf8(sb.toString()), -1, true), "seed " + seed);
  }

  private static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
