/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.lookup.AccessLogGen;
import io.spindex.lookup.IpLocator;
import io.spindex.lookup.RejectReason;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;

/**
 * Test data for ip-lookup with its expected answers computed independently of the job: a range
 * index (reference: a TreeMap), a set index (reference: a HashMap), and access-log input files, one
 * of them gzip-compressed, with the byte offset of every line.
 */
final class IpLookupFixture {
  static final long SEED = 77;

  final Path ranges;
  final Path set;
  final Path inputDir;
  final List<Line> lines = new ArrayList<>();
  private final TreeMap<Long, Object[]> rangeRef = new TreeMap<>();
  private final Map<Long, Boolean> setRef = new HashMap<>();

  /** One input line with where it came from. */
  static final class Line {
    final String text;
    final String file;
    final long offset;

    Line(String text, String file, long offset) {
      this.text = text;
      this.file = file;
      this.offset = offset;
    }
  }

  IpLookupFixture(Path dir, int linesPerFile) throws IOException {
    Random rnd = new Random(SEED);
    List<long[]> rs = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (long at = 0; ; ) {
      at += 1 + (long) (rnd.nextDouble() * 30_000_000L);
      long end = at + (long) (rnd.nextDouble() * 40_000_000L);
      if (end > 0xFFFF_FFFFL) {
        break;
      }
      String label = "R" + rnd.nextInt(12) + (rnd.nextInt(8) == 0 ? " ünï\tcode" : "");
      rs.add(new long[] {at, end});
      labels.add(label);
      rangeRef.put(at, new Object[] {end, label});
      at = end;
    }
    ranges = dir.resolve("ranges.spx");
    TestIndexes.writeRanges(ranges, rs.toArray(new long[0][]), labels.toArray(new String[0]));

    inputDir = Files.createDirectories(dir.resolve("in"));
    AccessLogGen gen = new AccessLogGen(SEED, 30);
    int[] setAddresses = new int[2000];
    long n = 0;
    for (String name : new String[] {"a.log", "b.log.gz", "c.log"}) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      for (int i = 0; i < linesPerFile; i++) {
        String text = gen.text(n++);
        if (i % 1000 == 1) {
          text = "  "; // blank
        } else if (i % 1000 == 2) {
          text = "300.1.2.3 - - impossible address";
        }
        lines.add(new Line(text, name, bytes.size()));
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        bytes.write(b, 0, b.length);
        bytes.write(i % 500 == 3 ? '\r' : '\n');
        if (i % 500 == 3) {
          bytes.write('\n');
        }
        long a = IpLocator.first().locate(b, 0, b.length);
        if (a >= 0 && i % 3 == 0 && i / 3 < setAddresses.length) {
          setAddresses[i / 3] = (int) a;
        }
      }
      try (OutputStream out =
          name.endsWith(".gz")
              ? new GZIPOutputStream(Files.newOutputStream(inputDir.resolve(name)))
              : Files.newOutputStream(inputDir.resolve(name))) {
        bytes.writeTo(out);
      }
    }
    for (int a : setAddresses) {
      setRef.put(Integer.toUnsignedLong(a), Boolean.TRUE);
    }
    set = dir.resolve("set.spx");
    TestIndexes.writeSet(set, setAddresses);
  }

  /** The address of a line, or the reject reason's negative code (via the unit-tested locator). */
  static long address(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return IpLocator.first().locate(b, 0, b.length);
  }

  static RejectReason reason(String text) {
    return RejectReason.ofCode(address(text));
  }

  String rangeLabel(long a) {
    Map.Entry<Long, Object[]> e = rangeRef.floorEntry(a);
    return e != null && (Long) e.getValue()[0] >= a ? (String) e.getValue()[1] : "\\N";
  }

  boolean inSet(long a) {
    return setRef.containsKey(a);
  }
}
