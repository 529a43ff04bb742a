/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spindex.text.InputException;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Chunked parallel reading keeps every line, in order, with its byte offset: random lines around
 * the smallest chunk (48 bytes for a 16-byte cap), lines longer than a chunk, blank lines, CRLF, a
 * last line with or without LF, plain and gzip input, 1 to 3 threads.
 */
class ChunkPipelineTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "seed {0}, {1} threads, gzip {2}")
  @CsvSource({"1, 1, false", "2, 2, false", "3, 3, false", "4, 2, true", "5, 1, true"})
  void everyLineOnceInOrder(long seed, int threads, boolean gzip) throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    text.write("name\n".getBytes(StandardCharsets.UTF_8));
    StringBuilder expectedOut = new StringBuilder("name\n");
    List<String> expectedRejects = new ArrayList<>();
    int lines = 2000;
    for (int i = 0; i < lines; i++) {
      int len = r.nextInt(10) == 0 ? r.nextInt(200) : r.nextInt(20);
      StringBuilder sb = new StringBuilder();
      for (int k = 0; k < len; k++) {
        sb.append((char) ('a' + r.nextInt(26)));
      }
      String s = sb.toString();
      boolean last = i == lines - 1;
      String end = last && r.nextBoolean() ? "" : r.nextInt(4) == 0 ? "\r\n" : "\n";
      long lineAt = text.size();
      text.write((s + end).getBytes(StandardCharsets.UTF_8));
      if (len == 0) {
        if (!(last && end.isEmpty())) {
          expectedRejects.add(lineAt + " blank-line");
        }
      } else if (len > 16) {
        expectedRejects.add(lineAt + " line-too-long");
      } else {
        expectedOut.append(s).append('\n');
      }
    }
    Path in = dir.resolve(gzip ? "in.tsv.gz" : "in.tsv");
    try (OutputStream o =
        gzip ? new GZIPOutputStream(Files.newOutputStream(in)) : Files.newOutputStream(in)) {
      o.write(text.toByteArray());
    }
    Path spec = spec("input { max-line-bytes = 16 }, steps = []");
    Path out = dir.resolve("out.tsv");
    Path rej = dir.resolve("rej.tsv");
    var res = LocalEpJobs.transform(in, out, rej, spec, threads, 1);
    String where = "seed " + seed;
    assertEquals(expectedOut.toString(), Files.readString(out), where);
    List<String> got = new ArrayList<>();
    for (String line : Files.readAllLines(rej)) {
      String[] f = line.split("\t", 5); // source, offset, reason, detail, line
      assertEquals(in.toString(), f[0], where);
      got.add(f[1] + " " + f[2]);
    }
    assertEquals(expectedRejects, got, where);
    assertEquals(expectedRejects.size(), res.counts.rejected(), where);
    assertEquals(true, res.counts.reconciles(), where);
  }

  @Test
  void emptyFileIsAnError() throws Exception {
    Path in = dir.resolve("empty.tsv");
    Files.write(in, new byte[0]);
    Path spec = spec("steps = []");
    InputException e =
        assertThrows(
            InputException.class,
            () -> LocalEpJobs.transform(in, dir.resolve("o"), dir.resolve("r"), spec, 1));
    assertEquals(in + ": empty file: an EP file starts with a header line", e.getMessage());
    assertEquals(false, Files.exists(dir.resolve("o")), "no output on failure");
  }

  @Test
  void headerOnlyGivesHeaderOnly() throws Exception {
    Path in = dir.resolve("h.tsv");
    Files.write(in, "\uFEFFid\ttitle\r\n".getBytes(StandardCharsets.UTF_8));
    Path spec = spec("steps = []");
    var r = LocalEpJobs.transform(in, dir.resolve("o"), dir.resolve("r"), spec, 2);
    assertEquals("id\ttitle\n", Files.readString(dir.resolve("o")));
    assertEquals(0, r.counts.in());
  }

  @Test
  void repeatedHeaderFieldIsAnError() throws Exception {
    Path in = dir.resolve("dup.tsv");
    Files.write(in, "id\ttitle\tid\n".getBytes(StandardCharsets.UTF_8));
    Path spec = spec("steps = []");
    InputException e =
        assertThrows(
            InputException.class,
            () -> LocalEpJobs.transform(in, dir.resolve("o"), dir.resolve("r"), spec, 1));
    assertEquals(in + ":1: bad header: field 'id' appears twice (fields 1 and 3)", e.getMessage());
  }

  private Path spec(String text) throws Exception {
    Path p = dir.resolve("spec.conf");
    Files.writeString(p, text);
    return p;
  }
}
