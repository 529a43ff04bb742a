/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden fixtures: {@code ep/input.tsv} (BOM, a CRLF line, a last line without LF, an unknown
 * column, empty optional fields, Korean at the length limits, a row of every reject reason) through
 * one spec per step in {@code ep/specs/}; output, rejects and counts must equal the files in {@code
 * ep/expected/}, whatever the thread count and chunk size. Run {@link #main} to regenerate after a
 * deliberate change, and read the diff.
 */
class TransformGoldenTest {
  @TempDir Path work;

  static Path dir() throws URISyntaxException {
    return Paths.get(TransformGoldenTest.class.getResource("/ep/input.tsv").toURI()).getParent();
  }

  static Stream<String> specs() throws IOException, URISyntaxException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir().resolve("specs"))) {
      s.map(p -> p.getFileName().toString().replace(".conf", "")).sorted().forEach(names::add);
    }
    return names.stream();
  }

  /** Output, rejects (sources relative to the input's name) and counts of one run. */
  static String[] run(Path dir, String spec, Path work, int threads, int chunk) throws IOException {
    Path in = dir.resolve("input.tsv");
    Path out = work.resolve(spec + ".out.tsv");
    Path rej = work.resolve(spec + ".rejects.tsv");
    var r =
        LocalEpJobs.transform(
            in, out, rej, dir.resolve("specs").resolve(spec + ".conf"), threads, chunk);
    assertTrue(r.counts.reconciles(), spec + ": in = out + rejected");
    // Every reject's byte offset is the start of its line in the input, chunk edges or not.
    byte[] input = Files.readAllBytes(in);
    for (io.spindex.text.RejectReader.Reject x :
        io.spindex.text.RejectReader.readAll(Files.newInputStream(rej))) {
      int o = (int) x.offset;
      assertTrue(o == 0 || input[o - 1] == '\n', spec + ": not a line start: " + x);
      assertArrayEquals(
          x.line, java.util.Arrays.copyOfRange(input, o, o + x.line.length), spec + ": " + x);
    }
    return new String[] {
      Files.readString(out, StandardCharsets.UTF_8),
      new String(Files.readAllBytes(rej), StandardCharsets.UTF_8)
          .replace(in.toString(), "input.tsv"),
      r.counts.format()
    };
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("specs")
  void matchesGolden(String spec) throws Exception {
    Path expected = dir().resolve("expected");
    String[] want = {
      read(expected.resolve(spec + ".out.tsv")),
      read(expected.resolve(spec + ".rejects.tsv")),
      read(expected.resolve(spec + ".counts.txt"))
    };
    for (int threads : new int[] {1, 2}) {
      for (int chunk : new int[] {1, 1 << 20}) {
        String[] got = run(dir(), spec, work, threads, chunk);
        assertArrayEquals(want, got, spec + " with " + threads + " threads, chunk " + chunk);
      }
    }
  }

  private static String read(Path p) throws IOException {
    return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
  }

  /** Regenerates {@code ep/expected/} from the sources: {@code main(src/test/resources/ep)}. */
  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[0]);
    Path expected = dir.resolve("expected");
    Files.createDirectories(expected);
    Path work = Files.createTempDirectory("golden");
    try (Stream<Path> s = Files.list(dir.resolve("specs"))) {
      for (Path p : (Iterable<Path>) s.sorted()::iterator) {
        String spec = p.getFileName().toString().replace(".conf", "");
        String[] got = run(dir, spec, work, 1, 1 << 20);
        Files.write(expected.resolve(spec + ".out.tsv"), got[0].getBytes(StandardCharsets.UTF_8));
        Files.write(
            expected.resolve(spec + ".rejects.tsv"), got[1].getBytes(StandardCharsets.UTF_8));
        Files.write(
            expected.resolve(spec + ".counts.txt"), got[2].getBytes(StandardCharsets.UTF_8));
        assertEquals(got.length, 3);
      }
    }
  }
}
