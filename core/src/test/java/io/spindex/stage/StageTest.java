/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.gen.IpListGenerator;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.Loader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Stager}: verified copies, idempotence, concurrency, every copy method. */
class StageTest {
  @TempDir Path dir;

  static Path buildSet(Path dir, String name, long count, long seed) throws IOException {
    Path text = dir.resolve(name + ".txt");
    try (OutputStream out = Files.newOutputStream(text)) {
      new IpListGenerator(count, seed, 0).writeTo(out);
    }
    Path index = dir.resolve(name + ".spx");
    new IpSetBuilder().createdMillis(0).build(List.of(text), index);
    return index;
  }

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < n; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }

  private List<String> leftovers() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("dst"))) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".tmp"))
          .collect(Collectors.toList());
    }
  }

  @Test
  void copiesAnIndexAndChecksEverySection() throws Exception {
    Path src = buildSet(dir, "ips", 200_000, 1);
    Path dst = dir.resolve("dst/ips.spx");
    StageResult r = Stager.stage(StageSource.local(src), dst);
    assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dst));
    IndexHeader h = Loader.readHeader(src);
    assertTrue(r.copied());
    assertTrue(r.index());
    assertEquals(h.headerCrc32c(), r.headerCrc32c());
    assertEquals("header + " + h.sections().size() + " section CRC32Cs", r.checked());
    assertEquals(Files.size(src), r.bytes());
    assertEquals(
        Files.getLastModifiedTime(src).toMillis(), Files.getLastModifiedTime(dst).toMillis());
    assertEquals(List.of(), leftovers());
  }

  @Test
  void stagingAgainCopiesNothing() throws Exception {
    Path src = buildSet(dir, "ips", 50_000, 1);
    Path dst = dir.resolve("dst/ips.spx");
    Stager.stage(StageSource.local(src), dst);
    Object inode = Files.readAttributes(dst, BasicFileAttributes.class).fileKey();
    StageResult again = Stager.stage(StageSource.local(src), dst);
    assertFalse(again.copied());
    assertEquals("already current (same length and header CRC32C)", again.checked());
    assertEquals(inode, Files.readAttributes(dst, BasicFileAttributes.class).fileKey());
    StageResult forced =
        Stager.stage(StageSource.local(src), dst, StageOptions.defaults().force(true));
    assertTrue(forced.copied());
  }

  @Test
  void changedSourceIsCopiedAgain() throws Exception {
    Path src = buildSet(dir, "ips", 50_000, 1);
    Path dst = dir.resolve("dst/ips.spx");
    Stager.stage(StageSource.local(src), dst);
    Path other = buildSet(dir, "other", 50_000, 2);
    Files.move(other, src, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    StageResult r = Stager.stage(StageSource.local(src), dst);
    assertTrue(r.copied());
    assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dst));
  }

  @Test
  void corruptSourceIsNotStagedAndTheMessageNamesSectionAndOffset() throws Exception {
    Path good = buildSet(dir, "ips", 50_000, 1);
    byte[] bytes = Files.readAllBytes(good);
    long keys = Loader.readHeader(good).sections().get(0).offset();
    bytes[(int) keys + 100] ^= 1;
    Path src = dir.resolve("corrupt.spx");
    Files.write(src, bytes);
    // Reference: what the loader itself says about the source.
    CorruptIndexException ref =
        assertThrows(CorruptIndexException.class, () -> Loader.MAPPED.load(src));
    String detail = ref.getMessage().substring((src + ": ").length());
    Path dst = dir.resolve("dst/ips.spx");
    Files.createDirectories(dst.getParent());
    StageException e =
        assertThrows(StageException.class, () -> Stager.stage(StageSource.local(src), dst));
    assertEquals(src + ": corrupt, not staged to " + dst + ": " + detail, e.getMessage());
    assertTrue(detail.startsWith("section 'keys' at offset " + keys + ": expected CRC32C"), detail);
    assertFalse(Files.exists(dst));
    assertEquals(List.of(), leftovers());
  }

  /**
   * A file whose checksums are all right but whose label ids point past the dictionary (the {@code
   * bad/} fixture): every loader refuses it at open, so staging it over a good index fails and the
   * good index stays.
   */
  @Test
  void aFileEveryLoaderRefusesIsNotStagedThoughItsChecksumsAreRight() throws Exception {
    Path src = dir.resolve("label-ids.spx");
    try (java.io.InputStream in =
        getClass().getResourceAsStream("/bad/label-id-out-of-range.spx")) {
      Files.copy(in, src);
    }
    CorruptIndexException ref =
        assertThrows(CorruptIndexException.class, () -> Loader.NIO.load(src));
    String detail = ref.getMessage().substring((src + ": ").length());
    Path dst = dir.resolve("dst/ranges.spx");
    Files.createDirectories(dst.getParent());
    Path good = buildSet(dir, "ips-good", 1_000, 3);
    Files.copy(good, dst);
    byte[] before = Files.readAllBytes(dst);
    StageException e =
        assertThrows(StageException.class, () -> Stager.stage(StageSource.local(src), dst));
    assertEquals(src + ": corrupt, not staged to " + dst + ": " + detail, e.getMessage());
    assertTrue(detail.contains("section 'row_label_ids'"), detail);
    assertArrayEquals(before, Files.readAllBytes(dst));
    assertEquals(List.of(), leftovers());
  }

  @Test
  void corruptDestinationIsReplaced() throws Exception {
    Path src = buildSet(dir, "ips", 50_000, 1);
    Path dst = dir.resolve("dst/ips.spx");
    Stager.stage(StageSource.local(src), dst);
    byte[] bytes = Files.readAllBytes(dst);
    bytes[20] ^= 1; // header: the header checksum no longer matches
    Files.write(dst, bytes);
    StageResult r = Stager.stage(StageSource.local(src), dst);
    assertTrue(r.copied());
    assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dst));
  }

  @Test
  void otherFilesAreCurrentByLengthAndTime() throws Exception {
    Path src = dir.resolve("feed.tsv");
    Files.write(src, random(300_000, 3));
    Path dst = dir.resolve("dst/feed.tsv");
    StageResult r = Stager.stage(StageSource.local(src), dst);
    assertTrue(r.copied());
    assertFalse(r.index());
    assertEquals("length", r.checked());
    StageResult again = Stager.stage(StageSource.local(src), dst);
    assertFalse(again.copied());
    assertEquals("already current (same length and modification time)", again.checked());
    Files.setLastModifiedTime(
        src, FileTime.fromMillis(Files.getLastModifiedTime(src).toMillis() + 5000));
    assertTrue(Stager.stage(StageSource.local(src), dst).copied());
  }

  @Test
  void deepCheck() throws Exception {
    Path text = dir.resolve("ranges.txt");
    try (OutputStream out = Files.newOutputStream(text)) {
      new RangeGenerator(20_000, 5, RangeGenerator.Format.parse("range")).writeTo(out);
    }
    Path src = dir.resolve("ranges.spx");
    new IpRangeBuilder().createdMillis(0).build(List.of(text), src);
    StageResult r =
        Stager.stage(
            StageSource.local(src),
            dir.resolve("dst/ranges.spx"),
            StageOptions.defaults().check(StageOptions.Check.DEEP));
    assertEquals("deep (everything spindex verify checks)", r.checked());
    Path plain = dir.resolve("plain.bin");
    Files.write(plain, random(1000, 1));
    StageException e =
        assertThrows(
            StageException.class,
            () ->
                Stager.stage(
                    StageSource.local(plain),
                    dir.resolve("dst/plain.bin"),
                    StageOptions.defaults().check(StageOptions.Check.DEEP)));
    assertEquals(plain + ": not a Spindex index (a deep check needs one)", e.getMessage());
  }

  @Test
  void aLocalFileIsCopiedWholeWithItsProgress() throws Exception {
    Path src = dir.resolve("data.bin");
    byte[] data = random((3 << 20) + 4321, 9);
    Files.write(src, data);
    Path dst = dir.resolve("dst/data.bin");
    long[] progress = {0};
    StageResult r =
        Stager.stage(
            StageSource.local(src), dst, StageOptions.defaults().progress(n -> progress[0] += n));
    assertTrue(r.copied());
    assertArrayEquals(data, Files.readAllBytes(dst));
    assertEquals(data.length, progress[0], "progress");
  }

  @Test
  void streamSourceLikeAHadoopFileSystem() throws Exception {
    Path index = buildSet(dir, "ips", 100_000, 4);
    byte[] bytes = Files.readAllBytes(index);
    int[] opens = {0};
    StageSource remote =
        new StageSource() {
          @Override
          public String name() {
            return "hdfs://nn/indexes/ips.spx";
          }

          @Override
          public long length() {
            return bytes.length;
          }

          @Override
          public long lastModifiedMillis() {
            return 1_700_000_000_000L;
          }

          @Override
          public InputStream open() {
            opens[0]++;
            return new ByteArrayInputStream(bytes);
          }

          @Override
          public int bufferBytes() {
            return 64 << 10; // smaller than the file: several reads
          }
        };
    Path dst = dir.resolve("dst/ips.spx");
    StageResult r = Stager.stage(remote, dst);
    assertTrue(r.copied());
    assertTrue(r.index());
    assertArrayEquals(bytes, Files.readAllBytes(dst));
    assertEquals(2, opens[0], "once for the header, once to copy");
    assertEquals(1_700_000_000_000L, Files.getLastModifiedTime(dst).toMillis());
    assertFalse(Stager.stage(remote, dst).copied());
  }

  @Test
  void sourceShorterThanItsLengthIsRefused() throws Exception {
    byte[] bytes = random(10_000, 2);
    StageSource liar =
        new StageSource() {
          @Override
          public String name() {
            return "liar";
          }

          @Override
          public long length() {
            return 20_000;
          }

          @Override
          public long lastModifiedMillis() {
            return -1;
          }

          @Override
          public InputStream open() {
            return new ByteArrayInputStream(bytes);
          }
        };
    Path dst = dir.resolve("dst/x.bin");
    StageException e = assertThrows(StageException.class, () -> Stager.stage(liar, dst));
    assertEquals(
        "liar: copied 10,000 bytes but its length is 20,000 (changed during the copy?); "
            + dst
            + " not written",
        e.getMessage());
    assertFalse(Files.exists(dst));
    assertEquals(List.of(), leftovers());
  }

  @Test
  void destinationThatIsADirectory() throws Exception {
    Path src = dir.resolve("a.bin");
    Files.write(src, random(10, 1));
    Path d = Files.createDirectories(dir.resolve("dst/a.bin"));
    StageException e =
        assertThrows(StageException.class, () -> Stager.stage(StageSource.local(src), d));
    assertEquals(d + ": is a directory", e.getMessage());
  }

  @Test
  void manyThreadsStagingAtOnceCopyOnce() throws Exception {
    Path src = buildSet(dir, "ips", 300_000, 6);
    Path dst = dir.resolve("dst/ips.spx");
    int n = 16;
    ExecutorService pool = Executors.newFixedThreadPool(n);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<StageResult>> results = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      results.add(
          pool.submit(
              () -> {
                go.await();
                return Stager.stage(StageSource.local(src), dst);
              }));
    }
    go.countDown();
    int copies = 0;
    for (Future<StageResult> f : results) {
      copies += f.get().copied() ? 1 : 0;
    }
    pool.shutdown();
    assertEquals(1, copies);
    assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dst));
    assertEquals(List.of(), leftovers());
  }

  /** While one thread is copying, another waits for it and then finds the file current. */
  @Test
  void aSecondStagerWaitsForTheFirstAndCopiesNothing() throws Exception {
    Path src = buildSet(dir, "ips", 50_000, 7);
    Path dst = dir.resolve("dst/ips.spx");
    CountDownLatch copying = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    StageSource slow =
        new StageSource() {
          final StageSource local = StageSource.local(src);

          @Override
          public String name() {
            return local.name();
          }

          @Override
          public long length() throws IOException {
            return local.length();
          }

          @Override
          public long lastModifiedMillis() throws IOException {
            return local.lastModifiedMillis();
          }

          @Override
          public InputStream open() throws IOException {
            return local.open();
          }

          @Override
          public long copyTo(Path target, java.util.function.LongConsumer progress)
              throws IOException {
            copying.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              throw new java.io.InterruptedIOException();
            }
            return local.copyTo(target, progress);
          }
        };
    ExecutorService pool = Executors.newFixedThreadPool(2);
    Future<StageResult> first = pool.submit(() -> Stager.stage(slow, dst));
    copying.await();
    Thread[] waiter = new Thread[1];
    Future<StageResult> second =
        pool.submit(
            () -> {
              waiter[0] = Thread.currentThread();
              return Stager.stage(StageSource.local(src), dst);
            });
    while (waiter[0] == null || waiter[0].getState() != Thread.State.TIMED_WAITING) {
      Thread.sleep(1);
    }
    assertFalse(second.isDone(), "the second stager waits for the lock");
    release.countDown();
    assertTrue(first.get().copied());
    StageResult s = second.get();
    assertFalse(s.copied());
    assertEquals("already current (same length and header CRC32C)", s.checked());
    pool.shutdown();
  }
}
