/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file in {@code bad/} is rejected with the exact message in {@code bad/expected-errors.tsv}:
 * at open by every checking loader (stage {@code open}), or, for damage that only a deep check can
 * see, by the verifier (stage {@code verify}).
 */
class BadFixturesTest {
  @TempDir Path work;

  static Path badDir() throws URISyntaxException {
    return Paths.get(BadFixturesTest.class.getResource("/bad/expected-errors.tsv").toURI())
        .getParent();
  }

  static Stream<Arguments> expectations() throws IOException, URISyntaxException {
    List<Arguments> rows = new ArrayList<>();
    for (String line : Files.readAllLines(badDir().resolve("expected-errors.tsv"))) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t", 3);
      rows.add(Arguments.of(f[0], f[1], f[2]));
    }
    return rows.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expectations")
  void rejectedWithTheDocumentedMessage(String name, String stage, String message)
      throws Exception {
    Path file = badDir().resolve(name);
    String expected = message.replace("{file}", file.toString());
    if (stage.equals("open")) {
      for (IndexLoader l : Loader.values()) {
        CorruptIndexException e = assertThrows(CorruptIndexException.class, () -> l.load(file));
        assertEquals(expected, e.getMessage(), l.loaderName());
      }
      // mapped-unchecked skips the section checksums and the row checks (label ids, offsets, the
      // prefix table's order).
      boolean sectionDamage = message.contains("CRC32C");
      boolean rowCheck =
          message.contains("a label id in")
              || message.contains("offsets in ascending order")
              || message.contains("entries in ascending order");
      if (!sectionDamage && !rowCheck) {
        CorruptIndexException e =
            assertThrows(CorruptIndexException.class, () -> Loader.mappedUnchecked().load(file));
        assertEquals(expected, e.getMessage(), "mapped unchecked");
      }
    } else {
      for (IndexLoader l : Loaders.all()) {
        l.load(file); // opens: the damage is consistent with every checksum
      }
    }
    CorruptIndexException e =
        assertThrows(CorruptIndexException.class, () -> IndexVerifier.verify(file));
    assertEquals(expected, e.getMessage(), "verify");
  }

  @Test
  void everyFixtureHasAnExpectation() throws Exception {
    List<String> listed = new ArrayList<>();
    expectations().forEach(a -> listed.add((String) a.get()[0]));
    List<String> files = new ArrayList<>();
    try (Stream<Path> s = Files.list(badDir())) {
      s.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".spx"))
          .sorted()
          .forEach(files::add);
    }
    listed.sort(null);
    assertEquals(files, listed);
  }

  /** The committed fixtures are exactly what {@link BadFixtures} makes from today's writer. */
  @Test
  void fixturesAreUpToDate() throws Exception {
    Map<String, byte[]> made = BadFixtures.make(work);
    for (Map.Entry<String, byte[]> e : made.entrySet()) {
      Path committed = badDir().resolve(e.getKey());
      if (!Files.exists(committed)) {
        fail("missing fixture " + e.getKey() + ": run BadFixtures.main");
      }
      assertArrayEquals(e.getValue(), Files.readAllBytes(committed), e.getKey());
    }
  }

  /** Prints the current messages (to review when fixtures change). */
  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[0]);
    StringBuilder sb = new StringBuilder();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s.sorted()::iterator) {
        if (!p.toString().endsWith(".spx")) {
          continue;
        }
        String stage = "open";
        String msg;
        try {
          Loader.NIO.load(p);
          stage = "verify";
          IndexVerifier.verify(p);
          msg = "NOT REJECTED";
        } catch (CorruptIndexException e) {
          msg = e.getMessage().replace(p.toString(), "{file}");
        }
        sb.append(p.getFileName()).append('\t').append(stage).append('\t').append(msg).append('\n');
      }
    }
    System.out.print(
        new String(sb.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
  }
}
