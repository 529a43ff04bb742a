/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code spindex --version}: the version of the root pom.xml, the index format, the commit. */
class VersionTest {
  /** The one place the version is set: the root pom.xml's revision property. */
  private static String pomVersion() throws IOException {
    String pom = Files.readString(Path.of("..", "pom.xml"), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("<revision>([^<]+)</revision>").matcher(pom);
    assertTrue(m.find(), "no <revision> in the root pom.xml");
    return m.group(1).trim();
  }

  @Test
  void printsThePomVersionTheFormatAndTheCommit() throws IOException {
    for (String option : new String[] {"--version", "-V"}) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int exit =
          SpindexCli.commandLine()
              .setOut(new PrintWriter(out, true))
              .setErr(new PrintWriter(err, true))
              .execute(option);
      assertEquals(0, exit, err.toString());
      assertEquals("", err.toString());
      String[] lines = out.toString().split("\n", -1);
      assertEquals(4, lines.length, out.toString()); // three lines, each ended
      assertEquals("spindex " + pomVersion(), lines[0]);
      assertEquals(
          "index format " + SpindexCli.Version.INDEX_FORMAT + " (writes and reads)", lines[1]);
      assertTrue(lines[1].matches("index format \\d+\\.\\d+ .*"), lines[1]);
      assertTrue(lines[2].matches("commit ([0-9a-f]{40}(-dirty)?|unknown)"), lines[2]);
      assertEquals("", lines[3]);
    }
  }

  /** A build from a source archive leaves the commit's placeholder: "unknown", not the text. */
  @Test
  void aBuildWithoutGitSaysUnknown() {
    Properties archive = new Properties();
    archive.setProperty("version", "1.0.0");
    archive.setProperty("commit", "${spindex.git.commit}");
    archive.setProperty("dirty", "${spindex.git.dirty}");
    assertArrayEquals(
        new String[] {
          "spindex 1.0.0",
          "index format " + SpindexCli.Version.INDEX_FORMAT + " (writes and reads)",
          "commit unknown"
        },
        SpindexCli.Version.lines(archive));
    assertEquals("spindex unknown", SpindexCli.Version.lines(new Properties())[0]);

    Properties dirty = new Properties();
    dirty.setProperty("commit", "0123456789abcdef0123456789abcdef01234567");
    dirty.setProperty("dirty", "true");
    assertEquals(
        "commit 0123456789abcdef0123456789abcdef01234567-dirty",
        SpindexCli.Version.lines(dirty)[2]);
  }

  /** The format version it names is the one docs/FORMAT.md's title specifies. */
  @Test
  void theFormatIsTheOneFormatMdSpecifies() throws IOException {
    String title = Files.readAllLines(Path.of("..", "docs", "FORMAT.md")).get(0);
    assertTrue(title.endsWith("format " + SpindexCli.Version.INDEX_FORMAT), title);
  }
}
