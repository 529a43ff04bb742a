/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.IndexKind;
import io.spindex.index.IndexWriter;
import io.spindex.index.Section;
import io.spindex.index.SectionEntry;
import io.spindex.index.SourceInfo;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import io.spindex.testing.MmdbTestWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every builder records when its sources were built ({@code source_info}'s {@code source_time}): a
 * MaxMind database's build epoch, else the newest modification time of the input files, or the time
 * a caller knows better; never later than the index's created time. Every loader, the verifier and
 * {@link Loader#readVersion} give it back; a file without it says so (-1).
 */
class SourceTimeTest {
  @TempDir Path dir;

  private static final Instant MODIFIED = Instant.parse("2026-10-19T03:00:00Z");
  private static final long CREATED = Instant.parse("2026-11-29T05:00:00Z").toEpochMilli();

  private Path text(String name, String content, Instant modified) throws IOException {
    Path p = Files.write(dir.resolve(name), content.getBytes(StandardCharsets.UTF_8));
    Files.setLastModifiedTime(p, FileTime.from(modified));
    return p;
  }

  /** The source time each loader, the verifier and the version read give for {@code file}. */
  private static void sourceTimeEverywhere(Path file, long expected) throws IOException {
    assertEquals(expected, Loader.readVersion(file).sourceMillis(), "readVersion");
    assertEquals(expected, IndexVerifier.verify(file).sourceMillis(), "verify");
    assertEquals(expected, IndexVerifier.checksums(file).sourceMillis(), "checksums");
    for (IndexLoader l : new IndexLoader[] {Loader.IO, Loader.NIO, Loader.MAPPED}) {
      assertEquals(expected, l.load(file).header().sourceMillis(), l.loaderName());
    }
    // A header read alone does not know it: the section is not read.
    assertEquals(-1, Loader.readHeader(file).sourceMillis(), "readHeader");
  }

  @Test
  void aTextBuildOfEveryKindRecordsTheNewestModificationTimeOfItsInputs() throws IOException {
    Path older = text("a.txt", "10.0.0.1\n", MODIFIED.minusSeconds(86_400));
    Path newer = text("b.txt", "10.0.0.2\n", MODIFIED);
    Path set = dir.resolve("set.spx");
    new IpSetBuilder().createdMillis(CREATED).build(List.of(newer, older), set);
    sourceTimeEverywhere(set, MODIFIED.toEpochMilli());

    Path ranges = dir.resolve("ranges.spx");
    Path rangeText = text("r.txt", "1.0.0.0|1.0.0.255|AU\n", MODIFIED);
    new IpRangeBuilder().createdMillis(CREATED).build(List.of(rangeText), ranges);
    sourceTimeEverywhere(ranges, MODIFIED.toEpochMilli());
    assertEquals(
        List.of(Map.entry(SourceInfo.SOURCE_TIME, "2026-10-19T03:00:00Z")),
        Loader.NIO.load(ranges).asRanges().sourceInfo().entries());

    Path products = dir.resolve("products.spx");
    Path feed = text("feed.tsv", "id\ttitle\tprice_pc\tshipping\nP1\tt\t1000\t0\n", MODIFIED);
    new ProductIndexBuilder().createdMillis(CREATED).build(List.of(feed), products);
    sourceTimeEverywhere(products, MODIFIED.toEpochMilli());
    assertEquals(
        "source built 2026-10-19T03:00:00Z)",
        Loader.readVersion(products).versionText().replaceAll(".*, (source built .*)", "$1"));
  }

  @Test
  void aSourceIsNeverNewerThanItsIndex() throws IOException {
    Path in = text("ips.txt", "10.0.0.1\n", Instant.ofEpochMilli(CREATED).plusSeconds(3600));
    Path out = dir.resolve("ips.spx");
    new IpSetBuilder().createdMillis(CREATED).build(List.of(in), out);
    sourceTimeEverywhere(out, CREATED);
  }

  @Test
  void whatTheCallerKnowsWinsOverTheFilesTime() throws IOException {
    Path in = text("ips.txt", "10.0.0.1\n", MODIFIED);
    Path out = dir.resolve("ips.spx");
    long known = Instant.parse("2026-09-01T12:34:56.789Z").toEpochMilli();
    new IpSetBuilder().createdMillis(CREATED).sourceMillis(known).build(List.of(in), out);
    // Written to the second.
    sourceTimeEverywhere(out, Instant.parse("2026-09-01T12:34:56Z").toEpochMilli());
  }

  @Test
  void aMaxMindDatabaseGivesItsBuildEpochNotItsFilesTime() throws IOException {
    long epoch = Instant.parse("2026-08-04T16:20:00Z").getEpochSecond();
    Path mmdb = dir.resolve("city.mmdb");
    MmdbTestWriter w = MmdbTestWriter.ipv4().buildEpoch(epoch);
    w.insert("1.0.0.0/24", Map.of("country", "AU"));
    w.write(mmdb);
    Files.setLastModifiedTime(mmdb, FileTime.from(MODIFIED)); // later than the build epoch
    Path out = dir.resolve("city.spx");
    new IpRangeBuilder().createdMillis(CREATED).build(List.of(mmdb), out);
    sourceTimeEverywhere(out, epoch * 1000);
    List<Map.Entry<String, String>> info = Loader.NIO.load(out).asRanges().sourceInfo().entries();
    assertEquals(Map.entry(SourceInfo.SOURCE_TIME, "2026-08-04T16:20:00Z"), info.get(0));
    assertEquals(Map.entry("source", "city.mmdb"), info.get(1), "the database's own lines follow");
    // The distributed build of the same database (its copy is new): the same time.
    Files.setLastModifiedTime(mmdb, FileTime.from(Instant.now()));
    Assembled a = new IpRangeBuilder().createdMillis(CREATED).assembleDatabases(List.of(mmdb));
    assertEquals(epoch * 1000, a.writer.writeTo(dir.resolve("copy.spx")).sourceMillis());
  }

  @Test
  void withAFixedCreatedTimeTheBytesDoNotDependOnWhenTheSourceWasWritten() throws IOException {
    Path in = dir.resolve("ips.txt");
    byte[][] built = new byte[2][];
    for (int i = 0; i < 2; i++) {
      text("ips.txt", "10.0.0.1\n10.0.0.2\n", Instant.ofEpochMilli(CREATED).plusSeconds(60L * i));
      Path out = dir.resolve("ips-" + i + ".spx");
      new IpSetBuilder().createdMillis(CREATED).build(List.of(in), out);
      built[i] = Files.readAllBytes(out);
    }
    assertArrayEquals(built[0], built[1]);
  }

  @Test
  void aFileWithoutASourceTimeSaysSoAndAgesFromItsCreatedTime() throws IOException {
    Path out = dir.resolve("old.spx");
    new IndexWriter(IndexKind.IPV4_SET, 1, new byte[32])
        .createdMillis(CREATED)
        .ints(Section.KEYS, new int[] {0x8A000001}, 1)
        .writeTo(out);
    IndexHeader h = Loader.readVersion(out);
    assertEquals(-1, h.sourceMillis());
    assertEquals(CREATED, h.freshAsOfMillis());
    assertTrue(h.versionText().endsWith(", built 2026-11-29T05:00:00Z)"), h.versionText());
  }

  @Test
  void aSourceTimeThatIsNotATimeIsNotWrittenAndACorruptFileWhenFound() throws IOException {
    IndexWriter w =
        new IndexWriter(IndexKind.IPV4_SET, 1, new byte[32])
            .createdMillis(CREATED)
            .ints(Section.KEYS, new int[] {0x8A000001}, 1);
    w.sourceInfo(new SourceInfo.Builder().put(SourceInfo.SOURCE_TIME, "last tuesday").build());
    Path out = dir.resolve("bad-time.spx");
    assertThrows(IllegalArgumentException.class, () -> w.writeTo(out));
    // Another writer's file: a valid one with the value changed, its checksums made right.
    w.sourceInfo(SourceInfo.NONE).sourceMillis(MODIFIED.toEpochMilli()).writeTo(out);
    IndexHeader h = Loader.readHeader(out);
    SectionEntry e = h.find(Section.SOURCE_INFO);
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
    byte[] text = "source_time\tlast tuesday 03:00:0".getBytes(StandardCharsets.UTF_8);
    assertEquals(e.length(), text.length);
    System.arraycopy(text, 0, b.array(), (int) e.offset(), text.length);
    CRC32C crc = new CRC32C();
    crc.update(text);
    int entry = 128 + 32 * h.sections().indexOf(e);
    b.putInt(entry + 24, (int) crc.getValue());
    crc.reset();
    crc.update(b.array(), 0, 124);
    crc.update(b.array(), 128, 32 * h.sections().size());
    b.putInt(124, (int) crc.getValue());
    Files.write(out, b.array());
    long at = e.offset();
    String expected =
        out
            + ": section 'source_info' at offset "
            + at
            + ": expected source_time as ISO-8601 UTC (2026-10-19T03:00:00Z), found 'last"
            + " tuesday 03:00:0'";
    assertEquals(
        expected,
        assertThrows(CorruptIndexException.class, () -> Loader.NIO.load(out)).getMessage());
    assertEquals(
        expected,
        assertThrows(CorruptIndexException.class, () -> Loader.readVersion(out)).getMessage());
  }
}
