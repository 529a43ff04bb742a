/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.ep.feed.ByteSink;
import io.spindex.ep.feed.EpHeader;
import io.spindex.ep.feed.EpRow;
import io.spindex.ep.feed.LineCheck;
import io.spindex.ep.feed.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The fused line scan ({@link EpRow#scanLine}, {@link EpTransform.Worker#applyNext}) against the
 * byte-wise path ({@link LineCheck#check}, {@link EpTransform.Worker#apply}) on random lines: the
 * scan may give up on any line, but a line it accepts must split exactly as the byte-wise path
 * splits it, and a field it calls clean must hold nothing a text normaliser looks at. Lines mix
 * ASCII, tabs, pipes, Korean (with 0xED leads), spaces (single, double, U+00A0, U+3000), control
 * characters, CR, 2- and 4-byte characters and invalid bytes, at every alignment, followed by other
 * bytes in the same buffer.
 */
class FastPathTest {
  static final byte[][] PIECES = {
    b("a"),
    b("\t"),
    b("상품"),
    b("하"), // ED 95 98
    b("韓"), // E9 9F 93
    b("！\ufffd"), // EF BC 81, EF BF BD
    b("https://x.kr/a|b|c"),
    b(" "),
    b("  "),
    b("12,000원"),
    b("é"),
    b("·"),
    b("\u00a0"),
    b("\u3000"),
    b("😀"),
    b("\u0001"),
    b("\u007f"),
    b("\u0085"),
    b("\r"),
    {(byte) 0xFF},
    {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // a surrogate
    {(byte) 0xE0, (byte) 0x80, (byte) 0x80}, // overlong
    {(byte) 0xE0, (byte) 0xA0, (byte) 0x80}, // U+0800, valid
    {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
    {(byte) 0xEA}, // truncated
    {(byte) 0x80}, // a stray continuation byte
    {(byte) 0xC0, (byte) 0x80},
  };

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A random line without LF, mostly valid, often with exactly {@code fields} fields. */
  static byte[] line(SplittableRandom r, int fields) {
    List<byte[]> parts = new ArrayList<>();
    // All pieces, or only valid ones without control characters (and without the emoji, which the
    // scan leaves to the byte-wise path).
    int kinds = r.nextInt(4) == 0 ? PIECES.length : r.nextBoolean() ? 14 : 15;
    boolean exact = r.nextInt(4) > 0;
    int n = r.nextInt(60);
    for (int i = 0; i < n; i++) {
      byte[] p = PIECES[r.nextInt(kinds)];
      if (exact && p[0] == '\t') {
        continue;
      }
      parts.add(p);
    }
    if (exact) {
      // Tabs at random places for exactly `fields` fields.
      for (int t = 0; t < fields - 1; t++) {
        parts.add(r.nextInt(parts.size() + 1), PIECES[1]);
      }
    }
    if (r.nextInt(5) == 0) {
      parts.add(b("\r"));
    }
    int len = 0;
    for (byte[] p : parts) {
      len += p.length;
    }
    byte[] out = new byte[len];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }

  /** {@code line + LF + other bytes} at {@code off} in a buffer; returns the buffer. */
  static byte[] place(SplittableRandom r, byte[] line, int off) {
    byte[] next = line(r, 3);
    byte[] buf = new byte[off + line.length + 1 + next.length + r.nextInt(3) * 8];
    System.arraycopy(line, 0, buf, off, line.length);
    buf[off + line.length] = '\n';
    System.arraycopy(next, 0, buf, off + line.length + 1, next.length);
    return buf;
  }

  /** {@code line} at {@code off} in a buffer, followed by random bytes or by nothing. */
  static byte[] alone(SplittableRandom r, byte[] line, int off) {
    byte[] buf = new byte[off + line.length + r.nextInt(3) * 5];
    r.nextBytes(buf);
    System.arraycopy(line, 0, buf, off, line.length);
    return buf;
  }

  @Test
  void checkLineGivesTheVerdictsAndSlicesOfCheck() {
    SplittableRandom r = new SplittableRandom(23);
    for (int k = 0; k < 100_000; k++) {
      int fields = 1 + r.nextInt(6);
      byte[] line = line(r, fields);
      if (line.length > 0 && r.nextInt(50) == 0) {
        line[r.nextInt(line.length)] = '\n'; // never in a Hadoop record
      }
      int off = r.nextInt(9);
      byte[] buf = alone(r, line, off);
      LineCheck check = new LineCheck(fields, 40, true);
      EpRow single = new EpRow(fields + 1);
      EpRow slow = new EpRow(fields + 1);
      Verdict sv = new Verdict();
      Verdict v = new Verdict();
      int to = off + line.length;
      boolean ok = check.checkLine(buf, off, to, single, sv, r.nextLong());
      String at = "case " + k + ": " + new String(line, StandardCharsets.ISO_8859_1);
      assertEquals(check.check(buf, off, to, slow, v), ok, at);
      if (!ok) {
        assertEquals(v.reason, sv.reason, at);
        assertEquals(v.detail, sv.detail, at);
        continue;
      }
      for (int s = 0; s <= fields; s++) {
        assertArrayEquals(
            Arrays.copyOfRange(slow.array(s), slow.from(s), slow.to(s)),
            Arrays.copyOfRange(single.array(s), single.from(s), single.to(s)),
            at + " slot " + s);
      }
    }
  }

  @Test
  void scanLineSplitsAsTheByteWisePathAndScreensFields() {
    SplittableRandom r = new SplittableRandom(17);
    int fast = 0;
    for (int k = 0; k < 100_000; k++) {
      int fields = 1 + r.nextInt(6);
      byte[] line = line(r, fields);
      int off = r.nextInt(9);
      byte[] buf = place(r, line, off);
      int limit = r.nextInt(8) == 0 ? off + line.length + r.nextInt(9) : buf.length;
      EpRow row = new EpRow(fields + 2);
      int lf = row.scanLine(buf, off, limit, fields, r.nextInt(4) == 0 ? r.nextLong() : -1L);
      if (lf == EpRow.SLOW) {
        continue;
      }
      fast++;
      String at = "case " + k + ": " + new String(line, StandardCharsets.ISO_8859_1);
      assertEquals(off + line.length, lf, at);
      EpRow slow = new EpRow(fields + 2);
      LineCheck check = new LineCheck(fields, Integer.MAX_VALUE, true);
      Verdict v = new Verdict();
      int end = lf > off && buf[lf - 1] == '\r' ? lf - 1 : lf;
      if (end == off) {
        continue; // blank: the caller's check
      }
      assertTrue(check.check(buf, off, lf, slow, v), at + ": " + v.reason);
      for (int s = 0; s < fields + 2; s++) {
        assertArrayEquals(
            Arrays.copyOfRange(slow.array(s), slow.from(s), slow.to(s)),
            Arrays.copyOfRange(row.array(s), row.from(s), row.to(s)),
            at + " slot " + s);
        if (row.isClean(s)) {
          assertTrue(s < fields, at);
          byte[] f = Arrays.copyOfRange(row.array(s), row.from(s), row.to(s));
          String text = new String(f, StandardCharsets.ISO_8859_1);
          assertFalse(text.contains("  "), at + " slot " + s);
          for (byte x : f) {
            int c = x & 0xFF;
            assertFalse(c < 0x20 || c == 0x7F || c == 0xC2 || c == 0xE3, at + " slot " + s);
          }
        }
      }
    }
    assertTrue(fast > 20_000, "the scan took only " + fast + " lines");
  }

  static final String SPEC =
      "input { max-line-bytes = 60 }\n"
          + "steps = [\n"
          + "  { normalize { fields = [a, b], ops = [strip-control, collapse-whitespace, trim] } }\n"
          + "  { normalize { fields = [c], ops = [trim, digits-only] } }\n"
          + "  { normalize { fields = [d], ops = [collapse-whitespace] } }\n"
          + "  { default { field = b, from = a } }\n"
          + "  { normalize { fields = [b], ops = [trim] } }\n"
          + "  { require { a { max-chars = 12 }, d { max-items { max = 3, separator = \"|\" } } } }\n"
          + "  { reorder = [d, a] }\n"
          + "]\n";

  @Test
  void applyNextAndApplyEqualApplyBytewise() throws Exception {
    EpHeader header = EpHeader.of(List.of("a", "b", "c", "d", "e"));
    EpTransform t = TransformSpec.parse(SPEC, Paths.get("."), "t.conf").compile(header);
    EpTransform.Worker fast = t.worker();
    EpTransform.Worker single = t.worker();
    EpTransform.Worker slow = t.worker();
    SplittableRandom r = new SplittableRandom(5);
    ByteSink fastOut = new ByteSink(1 << 10);
    ByteSink singleOut = new ByteSink(1 << 10);
    ByteSink slowOut = new ByteSink(1 << 10);
    for (int k = 0; k < 100_000; k++) {
      byte[] line = line(r, 5);
      int off = r.nextInt(9);
      byte[] buf = place(r, line, off);
      fastOut.clear();
      singleOut.clear();
      slowOut.clear();
      int lf = fast.applyNext(buf, off, buf.length, fastOut);
      assertEquals(off + line.length, lf);
      boolean ok = slow.applyBytewise(buf, off, lf, slowOut);
      // A line on its own, as the jobs get it: other bytes follow it in the buffer, no LF.
      boolean singleOk = single.apply(alone(r, line, off), off, lf, singleOut);
      String at = "case " + k + ": " + new String(line, StandardCharsets.ISO_8859_1);
      assertEquals(ok, fast.accepted(), at);
      assertEquals(ok, singleOk, at);
      for (EpTransform.Worker w : List.of(fast, single)) {
        assertEquals(slow.rejectReason(), w.rejectReason(), at);
        assertEquals(slow.rejectDetail(), w.rejectDetail(), at);
      }
      assertArrayEquals(slowOut.toByteArray(), fastOut.toByteArray(), at);
      assertArrayEquals(slowOut.toByteArray(), singleOut.toByteArray(), at);
    }
    assertEquals(slow.counts().asMap(), fast.counts().asMap());
    assertEquals(slow.counts().asMap(), single.counts().asMap());
    // A last line without LF: the fast path finds the end of the data.
    byte[] last = b("x\ty\t1\tz\tw");
    assertEquals(last.length, fast.applyNext(last, 0, last.length, fastOut));
    assertTrue(fast.accepted());
  }
}
