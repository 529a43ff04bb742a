/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.CorruptIndexException;
import io.spindex.index.IpRanges;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.Loader;
import io.spindex.lookup.TestIndexes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index file written over in place ({@code cp new.spx live.spx}: the same inode truncated, then
 * written) and truncated to nothing, again and again, while readers on several threads look
 * addresses up in it: every answer is the answer of one complete version (checked against a {@code
 * TreeMap} of that version's ranges), never a mix of two, never a fault, never an unbounded
 * allocation; a load that meets the file half written fails with one line naming the file.
 */
class InPlaceOverwriteTest {
  private static final int RANGES = 40_000;
  private static final int READERS = 4;
  private static final int OVERWRITES = 30;

  @TempDir Path dir;
  private Path live;
  private final Version[] versions = new Version[2];

  /** One version of the file: its bytes, its header checksum, and a reference of its ranges. */
  private static final class Version {
    final byte[] bytes;
    final int headerCrc;
    final String tag;

    /** Unsigned start to {end, label index}. */
    final TreeMap<Long, long[]> ranges = new TreeMap<>();

    final String[] labels;

    Version(Path dir, String tag, long seed) throws IOException {
      this.tag = tag;
      SplittableRandom random = new SplittableRandom(seed);
      long[][] r = new long[RANGES][];
      labels = new String[RANGES];
      long step = (1L << 32) / RANGES;
      for (int i = 0; i < RANGES; i++) {
        long start = i * step + random.nextLong(step / 2);
        long end = start + random.nextLong(step / 2);
        r[i] = new long[] {start, end};
        labels[i] = tag + "-" + i;
        ranges.put(start, new long[] {end, i});
      }
      Path file = dir.resolve(tag + ".spx");
      TestIndexes.writeRanges(file, r, labels);
      bytes = Files.readAllBytes(file);
      headerCrc = Loader.readHeader(file).headerCrc32c();
    }

    String label(int address) {
      long a = Integer.toUnsignedLong(address);
      Map.Entry<Long, long[]> e = ranges.floorEntry(a);
      return e != null && e.getValue()[0] >= a ? labels[(int) e.getValue()[1]] : null;
    }
  }

  @BeforeEach
  void setUp() throws IOException {
    IndexHolder.clear();
    versions[0] = new Version(dir, "old", 29);
    versions[1] = new Version(dir, "new", 30);
    live = dir.resolve("live.spx");
    Files.write(live, versions[0].bytes);
  }

  @AfterEach
  void tearDown() {
    IndexHolder.clear();
  }

  /**
   * Handles loaded before the writes start, as a Java API user holds them: each keeps answering
   * from the version it loaded, whatever happens to the file.
   */
  @Test
  void aHandleInUseAnswersFromItsVersionWhileTheFileIsOverwrittenAndTruncated() throws Exception {
    List<IndexLoader> loaders =
        List.of(Loader.MAPPED, Loader.mappedUnchecked(), Loader.NIO, Loader.IO);
    List<IpRanges> handles = new ArrayList<>();
    for (IndexLoader l : loaders) {
      handles.add(l.load(live).asRanges());
    }
    Result r = readWhileOverwriting(handles, null);
    r.assertClean();
    assertEquals(0, r.loadErrors.get(), "no loads in this test");
  }

  /**
   * Readers that acquire the index again every few hundred lookups (as tasks of a long Spark
   * session do) through the per-JVM holder: an acquire that meets the file half written fails with
   * one line naming the file, or loads one complete version; no lookup answers from a mix.
   */
  @Test
  void readersThatAcquireAgainSeeOneCompleteVersionOrAClearError() throws Exception {
    for (IndexLoader l : List.of(Loader.MAPPED, Loader.mappedUnchecked(), Loader.NIO)) {
      IndexHolder.clear();
      Files.write(live, versions[0].bytes);
      Result r = readWhileOverwriting(List.of(), l);
      r.assertClean();
      assertTrue(r.checked.get() > 0, l.loaderName() + ": answers checked");
      // Once the writes are done, the next acquire loads the version the file holds.
      IpRanges now = IndexHolder.acquire(live, l).index().asRanges();
      assertEquals(versions[OVERWRITES % 2].headerCrc, now.header().headerCrc32c());
    }
  }

  private static final class Result {
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final AtomicLong checked = new AtomicLong();
    final AtomicLong loadErrors = new AtomicLong();

    void assertClean() {
      if (failure.get() != null) {
        throw new AssertionError("a reader failed", failure.get());
      }
    }
  }

  /**
   * Looks addresses up on {@link #READERS} threads, through {@code handles} (each thread all of
   * them) or, when {@code acquireWith} is given, through the holder, while this thread writes the
   * other version over the file in place {@link #OVERWRITES} times, in pieces, truncating it to
   * nothing first (and every third time leaving it empty for a moment).
   */
  private Result readWhileOverwriting(List<IpRanges> handles, IndexLoader acquireWith)
      throws Exception {
    Result result = new Result();
    AtomicBoolean done = new AtomicBoolean();
    List<Thread> readers = new ArrayList<>();
    for (int t = 0; t < READERS; t++) {
      long seed = 1000 + t;
      Thread reader =
          new Thread(
              () -> {
                try {
                  read(handles, acquireWith, seed, done, result);
                } catch (Throwable e) {
                  result.failure.compareAndSet(null, e);
                }
              },
              "reader-" + t);
      readers.add(reader);
      reader.start();
    }
    try {
      for (int k = 1; k <= OVERWRITES && result.failure.get() == null; k++) {
        overwriteInPlace(versions[k % 2].bytes, k % 3 == 0);
      }
    } finally {
      done.set(true);
      for (Thread reader : readers) {
        reader.join();
      }
    }
    return result;
  }

  /** {@code cp}'s way: the same inode opened with O_TRUNC, then written piece by piece. */
  private void overwriteInPlace(byte[] bytes, boolean pauseEmpty) throws Exception {
    Object inode = Files.readAttributes(live, "unix:ino").get("ino");
    try (FileChannel ch =
        FileChannel.open(live, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      if (pauseEmpty) {
        Thread.sleep(5);
      }
      int piece = bytes.length / 8 + 1;
      for (int at = 0; at < bytes.length; at += piece) {
        ch.write(ByteBuffer.wrap(bytes, at, Math.min(piece, bytes.length - at)));
        Thread.sleep(1);
      }
    }
    assertEquals(inode, Files.readAttributes(live, "unix:ino").get("ino"), "written in place");
  }

  private void read(
      List<IpRanges> handles,
      IndexLoader acquireWith,
      long seed,
      AtomicBoolean done,
      Result result) {
    SplittableRandom random = new SplittableRandom(seed);
    int[] batch = new int[64];
    int[] ids = new int[64];
    IpRanges acquired = null;
    int rounds = 0;
    while (!done.get() || rounds < 50) {
      rounds++;
      List<IpRanges> now = handles;
      if (acquireWith != null) {
        if (acquired == null || rounds % 4 == 0) {
          try {
            acquired = IndexHolder.acquire(live, acquireWith).index().asRanges();
          } catch (IOException e) {
            assertNamesTheFile(e);
            result.loadErrors.incrementAndGet();
          }
        }
        if (acquired == null) {
          continue;
        }
        now = List.of(acquired);
      }
      for (IpRanges r : now) {
        Version v = versionOf(r);
        for (int i = 0; i < batch.length; i++) {
          batch[i] = random.nextInt();
        }
        r.labelIds(batch, batch.length, ids);
        for (int i = 0; i < batch.length; i++) {
          String want = v.label(batch[i]);
          String single = r.label(batch[i]);
          String fromBatch = ids[i] == IpRanges.NONE ? null : r.labelText(ids[i]);
          if (want == null
              ? single != null || fromBatch != null
              : !want.equals(single) || !want.equals(fromBatch)) {
            throw new AssertionError(
                r.loader()
                    + " index of version '"
                    + v.tag
                    + "' answered "
                    + single
                    + " / "
                    + fromBatch
                    + " for "
                    + Integer.toUnsignedString(batch[i])
                    + ", expected "
                    + want);
          }
          result.checked.incrementAndGet();
        }
      }
    }
  }

  private Version versionOf(SpindexIndex index) {
    for (Version v : versions) {
      if (v.headerCrc == index.header().headerCrc32c()) {
        return v;
      }
    }
    throw new AssertionError(
        index.loader() + " loaded a header of neither version: " + index.header());
  }

  private void assertNamesTheFile(IOException e) {
    String m = e.getMessage();
    assertTrue(e instanceof CorruptIndexException, () -> "not a CorruptIndexException: " + e);
    assertTrue(m.startsWith(live.toAbsolutePath().normalize() + ": "), m);
    assertTrue(!m.contains("\n"), m);
  }
}
