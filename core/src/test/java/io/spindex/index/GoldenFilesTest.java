/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.net.InetAddresses;
import io.spindex.index.GoldenFiles.Golden;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The golden files of format 1 ({@code format-1/}, made by {@link GoldenFiles}), which every later
 * Spindex must read: every loader reads each one and gives exactly the answers of its {@code
 * .expected.tsv}, which references computed from the file's source, and {@code verify} accepts it.
 * And today's writer still writes each one byte for byte from its source.
 */
class GoldenFilesTest {
  @TempDir Path work;

  static Path dir() throws URISyntaxException {
    return Paths.get(GoldenFilesTest.class.getResource("/format-1/ipv4-set.spx").toURI())
        .getParent();
  }

  /**
   * Every loader reads the file and answers every query of its {@code .expected.tsv} as written
   * there. This holds for every Spindex of format 1, whatever a later minor version adds: never
   * relax it.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(Golden.class)
  void everyLoaderGivesTheExpectedAnswers(Golden g) throws Exception {
    Path file = dir().resolve(g.name + ".spx");
    List<String[]> rows = new ArrayList<>();
    for (String line :
        Files.readAllLines(dir().resolve(g.name + ".expected.tsv"), StandardCharsets.UTF_8)) {
      if (!line.startsWith("#")) {
        rows.add(line.split("\t", -1));
      }
    }
    assertTrue(rows.size() >= 8, g + ": " + rows.size() + " answers");
    assertEquals("1.0", Loader.readHeader(file).formatVersion());
    IndexVerifier.verify(file);
    for (IndexLoader l : Loaders.all()) {
      SpindexIndex index = l.load(file);
      for (String[] row : rows) {
        String where = g + ", " + l.loaderName() + ", " + row[0];
        if (index instanceof ProductIndex) {
          assertEquals(String.join("\t", row), product((ProductIndex) index, row[0]), where);
        } else if (index instanceof IpSet) {
          assertEquals(row[1], String.valueOf(contains((IpSet) index, row[0])), where);
        } else {
          IpRanges r = (IpRanges) index;
          int id = labelId(r, row[0]);
          assertEquals(row[1], String.valueOf(id != IpRanges.NONE), where);
          if (id != IpRanges.NONE) {
            assertArrayEquals(row[2].getBytes(StandardCharsets.UTF_8), r.labelBytes(id), where);
            Object[] values = r.labelValues(id);
            for (int i = 3; i < row.length; i++) {
              Object v = values[i - 3];
              assertEquals(row[i], v == null ? "\\N" : String.valueOf(v), where);
            }
          }
        }
      }
    }
  }

  /**
   * Today's writer writes the file byte for byte from its source. A later 1.x writer may add
   * optional sections to what it writes; then this is the assertion to relax (to the sections of
   * format 1.0), never the answers above.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(Golden.class)
  void theWriterWritesItByteForByte(Golden g) throws Exception {
    Path out = work.resolve(g.name + ".spx");
    g.build(dir().resolve(g.source), out);
    assertArrayEquals(Files.readAllBytes(dir().resolve(g.name + ".spx")), Files.readAllBytes(out));
  }

  /**
   * Every file says when its sources were built ({@code source_info}'s {@code source_time}): the
   * created time, to which the sources' later modification times (and the MaxMind database's build
   * epoch, no earlier) are clamped.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(Golden.class)
  void everyFileSaysWhenItsSourceWasBuilt(Golden g) throws Exception {
    IndexHeader h = Loader.readVersion(dir().resolve(g.name + ".spx"));
    assertEquals(GoldenFiles.CREATED, h.createdMillis(), g.name);
    assertEquals(GoldenFiles.CREATED, h.sourceMillis(), g.name);
  }

  /** The address as Guava reads it: IPv4 text, an IPv4-mapped IPv6 text, or IPv6 text. */
  private static long[] address(String text) {
    InetAddress a = InetAddresses.forString(text);
    BigInteger v = new BigInteger(1, a.getAddress());
    if (a instanceof Inet4Address) {
      // Java turns ::ffff:a.b.c.d into its IPv4 address: keep the IPv6 form asked for.
      return text.contains(":")
          ? new long[] {0, 0xFFFF_0000_0000L | v.longValue()}
          : new long[] {v.longValue()};
    }
    return new long[] {v.shiftRight(64).longValue(), v.longValue()};
  }

  private static boolean contains(IpSet s, String q) {
    long[] a = address(q);
    return a.length == 1 ? s.contains((int) a[0]) : s.contains(a[0], a[1]);
  }

  private static int labelId(IpRanges r, String q) {
    long[] a = address(q);
    int single = a.length == 1 ? r.labelId((int) a[0]) : r.labelId(a[0], a[1]);
    int[] batch = new int[1];
    if (a.length == 1) {
      r.labelIds(new int[] {(int) a[0]}, 1, batch);
    } else {
      r.labelIds(new long[] {a[0]}, new long[] {a[1]}, 1, batch);
    }
    assertEquals(single, batch[0], q + ": the batch lookup");
    return single;
  }

  /** The row of {@code id} as the products' {@code .expected.tsv} gives it. */
  private static String product(ProductIndex p, String id) throws IOException {
    byte[] b = id.getBytes(StandardCharsets.UTF_8);
    int row = p.rowOfId(b, 0, b.length);
    if (row == ProductIndex.NONE) {
      return id + "\tfalse";
    }
    List<String> cells = new ArrayList<>(List.of(id, "true"));
    for (int c = 0; c < p.columnNames().size(); c++) {
      int v = p.value(row, c);
      cells.add(v == ProductIndex.NULL_INT ? "\\N" : String.valueOf(v));
    }
    return String.join("\t", cells);
  }
}
