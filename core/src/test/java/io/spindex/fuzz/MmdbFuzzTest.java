/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.text.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Any file given to a range build as a MaxMind DB ends in an index, an {@link InputException} (a
 * damaged database: one line naming the file) or an {@link IllegalArgumentException} (a usage
 * mistake: a field path that holds a map, records that are not maps); never another exception, a
 * hang or an error of the JVM. The build reads through MaxMind's reader, after Spindex's own checks
 * of the metadata and the search tree. Seeds ({@code MmdbFuzzTestInputs/anyDatabase}): small
 * databases written by {@code MmdbTestWriter} — an IPv4 one of flat records, an IPv6 one of
 * City-shaped records with the IPv4 aliases (pointers on), and one with 28-bit records.
 */
class MmdbFuzzTest {
  private static Path dir;

  @BeforeAll
  static void setUp() throws IOException {
    dir = Files.createTempDirectory("spindex-mmdb-fuzz");
  }

  @AfterAll
  static void tearDown() throws IOException {
    try (java.util.stream.Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.deleteIfExists(p);
      }
    }
    Files.deleteIfExists(dir);
  }

  @FuzzTest(maxDuration = "")
  void anyDatabase(byte[] data) throws IOException {
    Path db = Files.write(dir.resolve("db.mmdb"), data);
    Path out = dir.resolve("out.spx");
    try {
      new IpRangeBuilder()
          .mmdbFields(
              List.of("country=country.iso_code", "lat=location.latitude", "asn=asn", "a=list.1"),
              true)
          .build(List.of(db), out);
    } catch (InputException | IllegalArgumentException expected) {
      // the documented outcomes for a damaged database or a field that is not a value
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
