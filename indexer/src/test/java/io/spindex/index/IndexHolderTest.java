/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.build.IpSetBuilder;
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
}
