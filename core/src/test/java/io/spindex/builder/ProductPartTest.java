/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spindex.ep.feed.EpHeader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An EP feed parsed in two parts, cut at every line start, gives the product index the one-machine
 * build gives of the whole feed, byte for byte: the header is skipped only by the part that starts
 * the file, and a repeated id is a duplicate-id reject of the later row wherever the cut falls.
 */
class ProductPartTest {
  @TempDir Path dir;

  static final String FEED =
      "id\ttitle\tprice_pc\tshipping\treview_count\n"
          + "p1\tOne\t100\t0\t3\n"
          + "broken line\n"
          + "p2\tTwo\t200\t-1\t0\r\n"
          + "p1\tOne again\t150\t0\t9\n"
          + "\tNo id\t1\t0\t0\n"
          + "p3\tThree\t300\t2500\t1\n"
          + "p2\tTwo again\t210\t0\t4\n";

  @Test
  void twoPartsAtEveryCutGiveTheWholeFeedsIndex() throws Exception {
    byte[] bytes = FEED.getBytes(StandardCharsets.UTF_8);
    Path in = dir.resolve("feed.tsv");
    Files.write(in, bytes);
    List<String> ints = List.of("review_count");
    Path whole = dir.resolve("whole.spx");
    BuildReport want =
        new ProductIndexBuilder()
            .threads(1)
            .extraIntFields(ints)
            .createdMillis(0)
            .build(List.of(in), whole);
    assertEquals(3, want.count("products"));
    assertEquals(2, want.count("duplicates"));
    assertEquals(
        want.count("lines"),
        want.count("skipped") + want.count("accepted") + want.count("rejected"));
    byte[] wantBytes = Files.readAllBytes(whole);
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
    EpHeader header = EpHeader.read(in);

    for (int cut = 1; cut < bytes.length; cut++) {
      if (bytes[cut - 1] != '\n') {
        continue;
      }
      List<ProductPart> parts = new ArrayList<>();
      for (int[] p : new int[][] {{0, cut}, {cut, bytes.length}}) {
        ProductPart.Parser parser =
            new ProductPart.Parser(0, in.toString(), header, ints, 1 << 16, p[0]);
        parser.lines(Arrays.copyOfRange(bytes, p[0], p[1]), 0, p[1] - p[0], p[0]);
        parts.add(Shipped.shipped(parser.finish()));
      }
      Assembled got =
          new ProductIndexBuilder()
              .extraIntFields(ints)
              .createdMillis(0)
              .assembleParts(parts, header, List.of(in.toString()), bytes.length, digest);
      Path out = dir.resolve("parts.spx");
      // As the engine does (io.spindex.hadoop.IndexBuild): the inputs' modification time.
      got.writer.sourceMillis(Files.getLastModifiedTime(in).toMillis());
      got.writer.writeTo(out);
      assertArrayEquals(wantBytes, Files.readAllBytes(out), "cut at byte " + cut);
      assertEquals(want.counts(), got.counts, "cut at byte " + cut);
      // The later p1 and p2 rows, by their offsets, with their ids.
      int p1 = FEED.indexOf("p1\tOne again");
      int p2 = FEED.indexOf("p2\tTwo again");
      List<String> records =
          new ArrayList<>(
              Arrays.asList(new String(got.rejectRecords, StandardCharsets.UTF_8).split("\n")));
      records.sort(null);
      List<String> expected =
          new ArrayList<>(
              List.of(
                  in + "\t" + p1 + "\tduplicate-id\tsee docs/EP.md\tp1",
                  in + "\t" + p2 + "\tduplicate-id\tsee docs/EP.md\tp2"));
      expected.sort(null);
      assertEquals(expected, records, "cut at byte " + cut);
    }
  }
}
