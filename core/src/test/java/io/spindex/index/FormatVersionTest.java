/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What format 1 promises files of later minor versions (docs/FORMAT.md, "Room to grow"): a reader
 * of 1.0 reads any 1.x file, skipping the sections of ids it does not know that the directory marks
 * optional, their bounds and checksums still checked. The refusals (a pre-release file, major 2, an
 * unknown section not marked optional, a damaged optional one) are fixtures of {@code bad/}.
 */
class FormatVersionTest {
  @TempDir Path dir;

  private Path set() throws IOException {
    Path text = dir.resolve("ips.txt");
    Files.write(text, List.of("10.0.0.1", "192.0.2.7", "2001:db8::1"), StandardCharsets.UTF_8);
    Path file = dir.resolve("ips.spx");
    new IpSetBuilder().createdMillis(0).prefixTable(false).build(List.of(text), file);
    return file;
  }

  private Path ranges() throws IOException {
    Path text = dir.resolve("ranges.txt");
    Files.write(
        text,
        List.of("1.0.0.0|1.0.0.255|AU", "8.8.8.0|8.8.8.255|US", "2001:db8::/48|DOC"),
        StandardCharsets.UTF_8);
    Path file = dir.resolve("ranges.spx");
    new IpRangeBuilder().createdMillis(0).build(List.of(text), file);
    return file;
  }

  /** A file of a later minor version with an optional section of a later id reads as before. */
  @Test
  void everyLoaderSkipsAnOptionalSectionOfALaterMinorVersion() throws IOException {
    for (Path file : List.of(set(), ranges())) {
      byte[] later =
          BadFixtures.addSection(
              Files.readAllBytes(file),
              40,
              8,
              Layout.OPTIONAL,
              "a faster search, say: 32 bytes..".getBytes(StandardCharsets.UTF_8));
      // Format 1.3: minor 3 (byte 8), major 1 (byte 9).
      later = BadFixtures.put16(later, Layout.OFF_VERSION, 1 << 8 | 3, true);
      Path next = dir.resolve("next-" + file.getFileName());
      Files.write(next, later);
      IndexHeader h = Loader.readHeader(next);
      assertEquals("1.3", h.formatVersion());
      SectionEntry skipped = h.sections().get(h.sections().size() - 1);
      assertNull(skipped.section());
      assertEquals("id 40", skipped.name());
      try (InputStream in = Files.newInputStream(next)) {
        assertEquals(h.headerCrc32c(), IndexHeader.read(in, later.length, next).headerCrc32c());
      }
      SpindexIndex before = Loader.NIO.load(file);
      for (IndexLoader l : Loaders.all()) {
        SpindexIndex index = l.load(next);
        for (int a : new int[] {0x0A000001, 0xC0000207, 0x01000005, 0x08080808, 0x09000000}) {
          assertEquals(answer(before, a), answer(index, a), l.loaderName());
        }
        long[] v6 = {0x2001_0db8_0000_0000L, 1};
        assertEquals(answer(before, v6), answer(index, v6), l.loaderName());
      }
      IndexVerifier.verify(next);
    }
  }

  /** The version field is major * 256 + minor: 1.0 files carry 256. */
  @Test
  void theWriterWritesFormat10() throws IOException {
    IndexHeader h = Loader.readHeader(set());
    assertEquals("1.0", h.formatVersion());
    assertEquals("1.0", IndexHeader.FORMAT_VERSION);
    byte[] b = Files.readAllBytes(dir.resolve("ips.spx"));
    assertEquals(0, b[Layout.OFF_VERSION]);
    assertEquals(1, b[Layout.OFF_VERSION + 1]);
  }

  /** Any minor version of major 0 is a pre-release file: one line, the remedy in it. */
  @Test
  void preReleaseVersionsAreOneLineWithTheRemedy() throws IOException {
    byte[] b = Files.readAllBytes(set());
    for (int v : new int[] {1, 2, 7}) {
      Path old = dir.resolve("old-" + v + ".spx");
      Files.write(old, BadFixtures.put16(b, Layout.OFF_VERSION, v, true));
      for (IndexLoader l : Loaders.all()) {
        CorruptIndexException e = assertThrows(CorruptIndexException.class, () -> l.load(old));
        assertEquals(
            old
                + ": written by a pre-release Spindex (format 0."
                + v
                + "); Spindex 1.x reads format 1 only: rebuild it with 'spindex build'",
            e.getMessage(),
            l.loaderName());
      }
    }
  }

  private static String answer(SpindexIndex index, int address) {
    return index instanceof IpRanges
        ? index.asRanges().label(address)
        : String.valueOf(index.asSet().contains(address));
  }

  private static String answer(SpindexIndex index, long[] v6) {
    return index instanceof IpRanges
        ? index.asRanges().label(v6[0], v6[1])
        : String.valueOf(index.asSet().contains(v6[0], v6[1]));
  }
}
