/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.testing.MmdbTestWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every text output stays one record per line: a label holding a tab, a line end or another control
 * character is written escaped ({@code \t}, {@code \n}, {@code \r}, {@code \\}, {@code \}{@code
 * u00XX}, as {@code --json} escapes it), and {@code \N} alone is NULL.
 */
class OneLineOutputTest {
  @TempDir Path dir;

  @Test
  void aLabelWithControlCharactersIsOneEscapedAnswer() throws Exception {
    // The label of the first line: a tab, a CR, a backslash and U+001B in it; of the second: \N.
    Files.write(
        dir.resolve("r.txt"),
        "1.2.3.0|1.2.3.255|a\tb\rc\\d\u001be\n5.0.0.0|5.0.0.255|\\N\n"
            .getBytes(StandardCharsets.UTF_8));
    SpindexProcess.Run b = SpindexProcess.run(dir, "build", "ranges", "r.txt", "-o", "r.spx");
    assertEquals(0, b.exit, b.err);
    SpindexProcess.Run r =
        SpindexProcess.run(dir, "lookup", "r.spx", "1.2.3.4", "5.0.0.1", "9.9.9.9");
    assertEquals(0, r.exit, r.err);
    assertEquals(
        "1.2.3.4\ta\\tb\\rc\\\\d\\u001be\n" + "5.0.0.1\t\\\\N\n" + "9.9.9.9\t\\N\n", r.out);
    SpindexProcess.Run j = SpindexProcess.run(dir, "lookup", "--json", "r.spx", "1.2.3.4");
    assertEquals(
        "{\"ip\":\"1.2.3.4\",\"label\":{\"label\":\"a\\u0009b\\u000dc\\\\d\\u001be\"}}\n", j.out);
  }

  /** A database value holding a line end (MaxMind allows any UTF-8) answers on one line. */
  @Test
  void aDatabaseValueWithALineEndIsOneLine() throws Exception {
    MmdbTestWriter.ipv4()
        .insert("10.0.0.0/8", Map.of("city", "Line one\nLine two", "cc", "KR"))
        .write(dir.resolve("db.mmdb"));
    SpindexProcess.Run b =
        SpindexProcess.run(
            dir, "build", "ranges", "db.mmdb", "-o", "db.spx", "--field", "city=city");
    assertEquals(0, b.exit, b.err);
    SpindexProcess.Run r = SpindexProcess.run(dir, "lookup", "db.spx", "10.1.2.3");
    assertEquals("10.1.2.3\tLine one\\nLine two\n", r.out);
  }

  /**
   * inspect names a control character delimiter by its escape, never the raw byte: a database whose
   * values hold '|' and tab gets U+001F ({@code (split on '')} before).
   */
  @Test
  void inspectShowsAControlDelimiterEscaped() throws Exception {
    MmdbTestWriter.ipv4()
        .insert("10.0.0.0/8", Map.of("a", "x|y", "b", "p\tq"))
        .write(dir.resolve("db.mmdb"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        SpindexCli.commandLine()
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute(
                "build",
                "ranges",
                dir.resolve("db.mmdb").toString(),
                "-o",
                dir.resolve("db.spx").toString());
    assertEquals(0, exit, err.toString());
    out.getBuffer().setLength(0);
    exit =
        SpindexCli.commandLine()
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute("inspect", dir.resolve("db.spx").toString());
    assertEquals(0, exit, err.toString());
    String text = out.toString();
    assertTrue(text.contains("label fields   a string, b string (split on '\\u001f')\n"), text);
    for (char c : text.toCharArray()) {
      assertFalse(c < 0x20 && c != '\n', "a raw control character " + (int) c + " in:\n" + text);
    }
    SpindexProcess.Run r = SpindexProcess.run(dir, "lookup", "db.spx", "10.1.2.3");
    assertEquals("10.1.2.3\tx|y\\u001fp\\tq\n", r.out);
  }
}
