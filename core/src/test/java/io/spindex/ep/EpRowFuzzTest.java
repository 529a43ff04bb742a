/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.spindex.ep.feed.ByteSink;
import io.spindex.ep.feed.EpHeader;
import io.spindex.ep.feed.Utf8;
import java.nio.file.Paths;
import java.util.List;

/**
 * Coverage-guided fuzzing of the EP row reader (Jazzer: a normal test run replays the saved inputs,
 * {@code scripts/fuzz} fuzzes). Any bytes, as one line of a five-column feed, go through every way
 * Spindex reads an EP row: the byte-wise path ({@link LineCheck#check}, {@link
 * EpTransform.Worker#applyBytewise}: the reference), the fused word-at-a-time scan inside a chunk
 * ({@link EpTransform.Worker#applyNext}, what {@code spindex ep transform} runs) and on a line held
 * on its own ({@link EpTransform.Worker#apply}, what the Spark and MapReduce jobs run). None may
 * throw; all must agree on the verdict, the reject reason and its detail, and the output bytes; an
 * accepted row is valid UTF-8 without a line end, and a rejected one has a reason.
 */
class EpRowFuzzTest {
  /** {@link FastPathTest#SPEC}'s steps, with room for lines as long as the fuzzer makes them. */
  static final String SPEC =
      FastPathTest.SPEC.replace("max-line-bytes = 60", "max-line-bytes = 2000");

  private static final EpTransform TRANSFORM = compile();

  private static EpTransform compile() {
    if (SPEC.equals(FastPathTest.SPEC)) {
      throw new IllegalStateException("FastPathTest.SPEC changed: update the line limit here");
    }
    try {
      return TransformSpec.parse(SPEC, Paths.get("."), "fuzz.conf")
          .compile(EpHeader.of(List.of("a", "b", "c", "d", "e")));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private final EpTransform.Worker scan = TRANSFORM.worker();
  private final EpTransform.Worker byteWise = TRANSFORM.worker();
  private final EpTransform.Worker single = TRANSFORM.worker();
  private final ByteSink scanOut = new ByteSink(1 << 10);
  private final ByteSink byteWiseOut = new ByteSink(1 << 10);
  private final ByteSink singleOut = new ByteSink(1 << 10);

  @FuzzTest(maxDuration = "")
  void anyLine(byte[] data) {
    // The line starts at every alignment of the scan's 8-byte words and is followed by an LF and
    // more bytes, as inside a chunk.
    int off = data.length & 7;
    byte[] buf = new byte[off + data.length + 4];
    System.arraycopy(data, 0, buf, off, data.length);
    int limit = off + data.length;
    buf[limit] = '\n';
    buf[limit + 1] = 'x';
    scanOut.clear();
    byteWiseOut.clear();
    singleOut.clear();
    int lf = scan.applyNext(buf, off, buf.length, scanOut);
    int expectedLf = off;
    while (buf[expectedLf] != '\n') {
      expectedLf++;
    }
    assertEquals(expectedLf, lf, "line end");
    boolean ok = byteWise.applyBytewise(buf, off, lf, byteWiseOut);
    assertEquals(ok, scan.accepted(), "verdict");
    assertEquals(byteWise.rejectReason(), scan.rejectReason(), "reason");
    assertEquals(byteWise.rejectDetail(), scan.rejectDetail(), "detail");
    byte[] out = scanOut.toByteArray();
    assertArrayEquals(byteWiseOut.toByteArray(), out, "output");
    // The same line on its own, as a Hadoop record (the bytes after it are not an LF).
    buf[lf] = 'y';
    assertEquals(ok, single.apply(buf, off, lf, singleOut), "verdict of a line on its own");
    assertEquals(byteWise.rejectReason(), single.rejectReason(), "reason of a line on its own");
    assertEquals(byteWise.rejectDetail(), single.rejectDetail(), "detail of a line on its own");
    assertArrayEquals(byteWiseOut.toByteArray(), singleOut.toByteArray(), "output on its own");
    if (ok) {
      int end = out.length - 1;
      assertTrue(end >= 0 && out[end] == '\n', "an output row ends with its LF");
      for (int i = 0; i < end; i++) {
        // A CR inside a field is data (strip-control removes it where a spec asks); only the
        // trailing CR of a CRLF line end is the reader's to drop.
        assertFalse(out[i] == '\n', "an LF inside an output row");
      }
      assertTrue(Utf8.firstInvalid(out, 0, end) < 0, "output row is not UTF-8");
    } else {
      assertNotNull(byteWise.rejectReason());
      assertFalse(byteWise.rejectReason().isEmpty());
    }
  }
}
