/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpSetBuilder;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.IpSet;
import io.spindex.index.Section;
import io.spindex.index.SpindexIndex;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexHolderTest {
  @TempDir Path dir;
  Path index;

  /** Counts loads and can be told to fail, or to take its time so that callers pile up. */
  static final class CountingLoader implements IndexLoader {
    final AtomicInteger loads = new AtomicInteger();
    volatile boolean fail;
    volatile long sleepMillis;

    @Override
    public String loaderName() {
      return "counting";
    }

    @Override
    public SpindexIndex load(Path file) throws IOException {
      loads.incrementAndGet();
      try {
        Thread.sleep(sleepMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (fail) {
        throw new IOException("disk on fire");
      }
      return Loader.NIO.load(file);
    }
  }

  @BeforeEach
  void setUp() throws IOException {
    IndexHolder.clear();
    Path src = dir.resolve("ips.txt");
    Files.write(src, "10.0.0.1\n10.0.0.2\n".getBytes(StandardCharsets.UTF_8));
    index = dir.resolve("ips.spx");
    new IpSetBuilder().build(List.of(src), index);
  }

  @AfterEach
  void tearDown() {
    IndexHolder.clear();
  }

  @Test
  void sixtyFourCallersAtOnceMakeExactlyOneLoad() throws Exception {
    CountingLoader loader = new CountingLoader();
    loader.sleepMillis = 200;
    ExecutorService pool = Executors.newFixedThreadPool(64);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<IndexHolder.Acquired>> results = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      results.add(
          pool.submit(
              () -> {
                start.await();
                return IndexHolder.acquire(index, loader);
              }));
    }
    start.countDown();
    int reporters = 0;
    SpindexIndex first = null;
    for (Future<IndexHolder.Acquired> f : results) {
      IndexHolder.Acquired a = f.get(30, TimeUnit.SECONDS);
      reporters += a.loadedByThisCall() ? 1 : 0;
      if (first == null) {
        first = a.index();
      }
      assertSame(first, a.index());
      assertTrue(a.index().asSet().contains(0x0A000002));
      assertEquals(Files.size(index), a.bytes());
    }
    pool.shutdown();
    assertEquals(1, loader.loads.get(), "loads");
    assertEquals(1, reporters, "callers told they loaded");
  }

  @Test
  void aFailedLoadIsRetriedByTheNextCaller() throws Exception {
    CountingLoader loader = new CountingLoader();
    loader.fail = true;
    IOException e = assertThrows(IOException.class, () -> IndexHolder.acquire(index, loader));
    assertEquals("disk on fire", e.getMessage());
    loader.fail = false;
    IndexHolder.Acquired a = IndexHolder.acquire(index, loader);
    assertTrue(a.loadedByThisCall());
    assertEquals(2, loader.loads.get());
    assertTrue(!IndexHolder.acquire(index, loader).loadedByThisCall());
    assertEquals(2, loader.loads.get());
  }

  @Test
  void aReplacedFileIsLoadedAgain() throws Exception {
    CountingLoader loader = new CountingLoader();
    IndexHolder.Acquired before = IndexHolder.acquire(index, loader);
    Path src = dir.resolve("other.txt");
    Files.write(src, "192.168.0.1\n".getBytes(StandardCharsets.UTF_8));
    new IpSetBuilder().build(List.of(src), index);
    IndexHolder.Acquired after = IndexHolder.acquire(index, loader);
    assertTrue(after.loadedByThisCall());
    assertTrue(after.index().asSet().contains(0xC0A80001));
    assertTrue(!before.index().asSet().contains(0xC0A80001));
    assertEquals(2, loader.loads.get());
  }

  @Test
  void aCorruptFileFailsFastWithoutALoad() throws Exception {
    CountingLoader loader = new CountingLoader();
    Path bad = dir.resolve("bad.spx");
    Files.write(
        bad,
        "not an index at all, but long enough to hold a header?"
            .repeat(4)
            .getBytes(StandardCharsets.UTF_8));
    assertThrows(CorruptIndexException.class, () -> IndexHolder.acquire(bad, loader));
    assertEquals(0, loader.loads.get());
    assertEquals(0, IndexHolder.size());
  }

  /**
   * A section damaged behind an intact header: an unchecked load takes it (that is its promise),
   * but a later checked acquire of the same file loads and checks it, and fails.
   */
  @Test
  void aCheckedAcquireIsNeverAnsweredByAnUncheckedLoad() throws Exception {
    byte[] b = Files.readAllBytes(index);
    long keys = Loader.readHeader(index).find(Section.KEYS).offset();
    b[(int) keys] ^= 0x10;
    Path damaged = dir.resolve("damaged.spx");
    Files.write(damaged, b);
    IndexHolder.acquire(damaged, Loader.mappedUnchecked());
    CorruptIndexException e =
        assertThrows(
            CorruptIndexException.class, () -> IndexHolder.acquire(damaged, Loader.MAPPED));
    assertTrue(e.getMessage().contains("section 'keys'"), e.getMessage());
  }

  /**
   * Readers on three threads acquire and read the index while it is replaced by atomic rename 100
   * times: every answer comes from exactly one complete version, the holder keeps one version, and
   * the old mappings (of the file's snapshots) go (counted in /proc/self/maps, Linux) once they are
   * unreachable.
   */
  @Test
  void aReplacedFileIsSeenAtTheNextAcquireAndOldVersionsAreReleased() throws Exception {
    Path file = dir.resolve("live.spx");
    writeVersion(file, 0);
    java.util.concurrent.atomic.AtomicBoolean done =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicReference<Throwable> failure =
        new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();
    List<Thread> readers = new java.util.ArrayList<>();
    for (int t = 0; t < 3; t++) {
      Thread r =
          new Thread(
              () -> {
                try {
                  while (!done.get()) {
                    IpSet set = IndexHolder.acquire(file, Loader.MAPPED).index().asSet();
                    int v = set.address(0) >>> 16;
                    for (int j = 0; j < 100; j++) {
                      int a = (v << 16) | j;
                      if (!set.contains(a) || set.contains(((v + 1) << 16) | j)) {
                        throw new AssertionError("version " + v + " answered for another at " + j);
                      }
                    }
                    assertEquals(100, set.size(), "version " + v + " complete");
                    reads.incrementAndGet();
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      readers.add(r);
      r.start();
    }
    for (int v = 1; v <= 100; v++) {
      writeVersion(file, v);
      IpSet now = IndexHolder.acquire(file, Loader.MAPPED).index().asSet();
      assertEquals(v, now.address(0) >>> 16, "the next acquire sees version " + v);
    }
    done.set(true);
    for (Thread r : readers) {
      r.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertTrue(reads.get() > 0);
    assertEquals(1, IndexHolder.size());
    assertTrue(IndexHolder.versions() <= IndexHolder.DEFAULT_VERSIONS, IndexHolder.versions() + "");
    Path maps = Path.of("/proc/self/maps");
    // The mapped loader maps private snapshots of the file, named after its path.
    String snapshots = Snapshots.directory().resolve(Snapshots.prefixOf(file)).toString();
    if (Files.isReadable(maps)) {
      long mapped = Long.MAX_VALUE;
      for (int attempt = 0; attempt < 20 && mapped > 5; attempt++) {
        System.gc();
        Thread.sleep(100);
        mapped = Files.readAllLines(maps).stream().filter(l -> l.contains(snapshots)).count();
      }
      assertTrue(mapped <= 5, mapped + " mappings of the index left after 100 replacements");
    }
    try (java.util.stream.Stream<Path> left = Files.list(Snapshots.directory())) {
      long kept =
          left.filter(p -> p.getFileName().toString().startsWith(Snapshots.prefixOf(file))).count();
      assertEquals(1, kept, "snapshots of the file kept on disk: the current version's");
    }
  }

  /**
   * An index written over in place ({@code cp} over it: the same inode) while a {@code mapped}
   * version of it is in use: the version in use keeps answering (it maps a private snapshot), and
   * the next acquire loads the new contents.
   */
  @Test
  void anIndexOverwrittenInPlaceWhileMappedIsLoadedAgainAndTheOldVersionStillAnswers()
      throws Exception {
    Path file = dir.resolve("in-place.spx");
    writeVersion(file, 1);
    IpSet old = IndexHolder.acquire(file, Loader.MAPPED).index().asSet();
    Path other = dir.resolve("other.spx");
    writeVersion(other, 2);
    Files.write(file, Files.readAllBytes(other)); // truncates and rewrites the same inode
    IndexHolder.Acquired now = IndexHolder.acquire(file, Loader.MAPPED);
    assertTrue(now.loadedByThisCall());
    assertEquals(2, now.index().asSet().address(0) >>> 16);
    assertEquals(1, old.address(0) >>> 16);
    assertTrue(old.contains(1 << 16) && !old.contains(2 << 16));
    Files.write(file, new byte[0]); // and truncated to nothing
    assertTrue(old.contains(1 << 16) && !old.contains(2 << 16));
    assertTrue(now.index().asSet().contains(2 << 16));
  }

  /** Version v: the 100 addresses v.x.0.0 + j, written atomically (temporary file, rename). */
  private static void writeVersion(Path file, int v) throws IOException {
    int[] a = new int[100];
    for (int j = 0; j < 100; j++) {
      a[j] = (v << 16) | j;
    }
    io.spindex.lookup.TestIndexes.writeSet(file, a);
  }
}
