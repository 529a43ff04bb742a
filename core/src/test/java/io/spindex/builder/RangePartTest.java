/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A range file parsed in two parts, cut at every line start, gives the index the one-machine build
 * gives of the whole file, byte for byte, and the same rejects: the second part is told what the
 * file's first lines settled (the delimiter, and that the header is behind it), so neither a bad
 * line nor a range right after the cut is taken for a header, and a file whose header names no
 * delimiter still splits on the one its first range settled.
 */
class RangePartTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(
      strings = {
        // A header with the data's delimiter, a bad line after it, CIDR, decimals, IPv6, mapped.
        "# geo ranges\nstart|end|country|city\nhello\n1.0.0.0|1.0.0.255|KR|Seoul\n"
            + "10.0.0.0/8|US|Ashburn\r\n\n167772160|167772415|US|Reston\nnot a range at all\n"
            + "2001:db8::|2001:db8::ffff|KR|Busan\n::ffff:1.2.3.0|::ffff:1.2.3.9|JP|Tokyo\n"
            + "1.0.0.0|1.0.0.255|KR|Seoul again\n",
        // A header that settles no delimiter: the first range does (','), later cuts must keep it.
        "ranges\n\n1.2.3.0,1.2.3.255,a\nhello\n5.6.7.8,5.6.7.9,b|c\n9.9.9.0/24,x,y\n",
        // IPv6 ranges across ::ffff:0:0/96: stored as up to three rows, each one accepted line.
        "::/0|world\n0|340282366920938463463374607431768211455|all\n::1|::ffff:1.2.3.4|low\n"
            + "::ffff:5.6.7.8|2001:db8::1|high\n1.2.3.0|1.2.3.255|x\n",
        // No header: the first line is a bad range, a reject and not a header.
        "10.0.0.10|10.0.0.1|x\n1.1.1.0|1.1.1.255|one\n# c\n2.2.2.0|2.2.2.255|two\n"
      })
  void twoPartsAtEveryCutGiveTheWholeFilesIndex(String text) throws Exception {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    Path in = dir.resolve("ranges.txt");
    Files.write(in, bytes);
    Path whole = dir.resolve("whole.spx");
    BuildReport want =
        new IpRangeBuilder()
            .onOverlap(OverlapPolicy.LAST)
            .allowEmpty(true) // the first text's header settles no delimiter: all rejected
            .createdMillis(0)
            .build(List.of(in), whole);
    byte[] wantBytes = Files.readAllBytes(whole);
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
    RangePart.FileStart start =
        RangePart.FileStart.read(new ByteArrayInputStream(bytes), in.toString(), (byte) 0);

    int cuts = 0;
    for (int cut = 1; cut < bytes.length; cut++) {
      if (bytes[cut - 1] != '\n') {
        continue;
      }
      cuts++;
      List<RangePart> parts = new ArrayList<>();
      for (int[] p : new int[][] {{0, cut}, {cut, bytes.length}}) {
        RangePart.Parser parser =
            new RangePart.Parser(0, in.toString(), (byte) 0, start, p[0], null, 0);
        parser.lines(Arrays.copyOfRange(bytes, p[0], p[1]), 0, p[1] - p[0], p[0]);
        parts.add(Shipped.shipped(parser.finish()));
      }
      Assembled got =
          new IpRangeBuilder()
              .onOverlap(OverlapPolicy.LAST)
              .createdMillis(0)
              .assembleParts(parts, List.of(in.toString()), bytes.length, digest);
      Path out = dir.resolve("parts.spx");
      // As the engine does (io.spindex.hadoop.IndexBuild): the inputs' modification time.
      got.writer.sourceMillis(Files.getLastModifiedTime(in).toMillis());
      got.writer.writeTo(out);
      assertArrayEquals(wantBytes, Files.readAllBytes(out), "cut at byte " + cut);
      assertEquals(
          want.count("rejected"), parts.get(0).rejected() + parts.get(1).rejected(), "cut " + cut);
      assertEquals(want.count("skipped"), got.counts.get("skipped"), "cut at byte " + cut);
      assertEquals(want.count("accepted"), got.counts.get("accepted"), "cut at byte " + cut);
      assertEquals(true, got.reconciles(), "cut at byte " + cut);
    }
    assertEquals(text.split("\n", -1).length - 2, cuts);
  }

  /**
   * An IPv6 range across the IPv4-mapped block is stored as three rows (below, the IPv4 part,
   * above) but is one accepted line: the counts reconcile (lines = skipped + accepted + rejected).
   */
  @ParameterizedTest
  @ValueSource(strings = {"::/0|world", "0|340282366920938463463374607431768211455|world"})
  void aRangeAcrossTheMappedBlockIsOneAcceptedLine(String line) throws Exception {
    Path in = dir.resolve("across.txt");
    Files.write(in, (line + "\n").getBytes(StandardCharsets.UTF_8));
    BuildReport r = new IpRangeBuilder().build(List.of(in), dir.resolve("across.spx"));
    assertEquals(1, r.count("lines"));
    assertEquals(1, r.count("accepted"));
    assertEquals(0, r.count("rejected") + r.count("skipped"));
    assertEquals(3, r.count("ranges"), "below ::ffff:0:0/96, the IPv4 part, above it");
  }
}
