/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one reject record format: what {@link Rejects} writes, {@link RejectReader} reads back, field
 * for field and byte for byte; the golden file {@code rejects/rejects.tsv} is what both write, and
 * what the Python reader's test ({@code python/tests/test_rejects.py}) reads.
 */
class RejectsTest {
  static final Path GOLDEN = Paths.get("src/test/resources/rejects/rejects.tsv");

  /** {source, offset, reason, detail, line bytes}: every escape, a CR and a bad byte in a line. */
  static final Object[][] CASES = {
    {"file:/data/logs/a.log", 0L, "no-ip-found", "", bytes("GET / HTTP/1.1\t200")},
    {"hdfs://nn/x/b.gz", 1234567890123L, "not-ipv4", "", bytes("1.2.3\t-\t\"q\"")},
    {"C:\\feeds\\ep.tsv", 42L, "field-count", "11 fields,\theader has 12", bytes("a\tb")},
    {"feed with\ttab.tsv", 7L, "map:brand", "no mapping for 'x'\nsecond line", bytes("")},
    {"in.tsv", 99L, "invalid-utf8", "byte 1", new byte[] {'a', (byte) 0xC3, 'b', '\r', 'c'}},
  };

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] write() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (Object[] c : CASES) {
      byte[] line = (byte[]) c[4];
      b.write(
          Rejects.record(
              (String) c[0], (Long) c[1], (String) c[2], (String) c[3], line, 0, line.length));
      b.write('\n');
    }
    return b.toByteArray();
  }

  @Test
  void writesTheGoldenFile() throws Exception {
    assertArrayEquals(Files.readAllBytes(GOLDEN), write(), "rerun main() after a format change");
    String first = new String(Files.readAllBytes(GOLDEN), StandardCharsets.UTF_8).split("\n")[2];
    assertEquals("C:\\\\feeds\\\\ep.tsv\t42\tfield-count\t11 fields,\\theader has 12\ta\tb", first);
  }

  @Test
  void readsBackWhatItWrote() throws Exception {
    List<RejectReader.Reject> got = RejectReader.readAll(new ByteArrayInputStream(write()));
    assertEquals(CASES.length, got.size());
    for (int i = 0; i < CASES.length; i++) {
      RejectReader.Reject r = got.get(i);
      assertEquals(CASES[i][0], r.source);
      assertEquals((long) (Long) CASES[i][1], r.offset);
      assertEquals(CASES[i][2], r.reason);
      assertEquals(CASES[i][3], r.detail);
      assertArrayEquals((byte[]) CASES[i][4], r.line);
    }
  }

  @Test
  void aTrailingCrIsNotPartOfTheLine() {
    byte[] l = bytes("1.2.3.4 x\r");
    assertArrayEquals(
        bytes("s\t0\tr\t\t1.2.3.4 x"), Rejects.record("s", 0, "r", null, l, 0, l.length));
  }

  @Test
  void aRecordWithoutFiveFieldsIsNamed() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                RejectReader.readAll(new ByteArrayInputStream(bytes("ok\t1\tr\td\tl\nno-tabs\n"))));
    assertEquals("reject record 2: expected 5 tab-separated fields, found 1", e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> RejectReader.parse(bytes("s\tx\tr\td\tl")));
    assertEquals("reject record: expected a byte offset, found 'x'", e.getMessage());
  }

  /** The Python reader's test, on the same golden file (skipped without python3 and pytest). */
  @Test
  void thePythonReaderReadsTheGoldenFile() throws Exception {
    Path test = Paths.get("../python/tests/test_rejects.py").toAbsolutePath().normalize();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        run("python3", "-c", "import pytest") == 0, "python3 with pytest");
    assertEquals(
        0, run("python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", test.toString()));
  }

  private static int run(String... command) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      return -1; // no python3
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = p.waitFor();
    if (code != 0 && command.length > 3) {
      System.err.println(out);
    }
    return code;
  }

  /** Writes the golden file: {@code main()} from the core module's directory. */
  public static void main(String[] args) throws Exception {
    Files.createDirectories(GOLDEN.getParent());
    Files.write(GOLDEN, write());
  }
}
