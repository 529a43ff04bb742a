/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import io.spindex.index.search.Encoding;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index over 2 GiB: an IPv4 set of every 7th address (613,566,757 keys, a 2.29 GiB keys
 * section), generated straight into the writer rather than through gigabytes of text. Every loader
 * opens it — {@code mapped} as views over 1 GiB mappings, the heap loaders into one 2.29 GiB {@code
 * int[]} — and answers at both ends of the address space, on both sides of every mapping boundary
 * and for random addresses exactly as arithmetic says ({@code a % 7 == 0}); {@code verify} passes.
 * A section of more elements than a Java array holds is refused at open, by every loader, naming
 * the section. Run in its own JVM with a 4 GiB heap (the {@code large} surefire execution);
 * skipped, and said so, where the temporary directory has under 6 GiB free.
 */
@Tag("large")
class LargeIndexTest {
  private static final long STEP = 7;
  private static final int KEYS = (int) ((1L << 32) / STEP + 1); // 0, 7, ..., 4294967292

  @TempDir Path dir;

  private static boolean inSet(long address) {
    return address % STEP == 0;
  }

  @Test
  void aSetIndexOverTwoGibLoadsWithEveryLoaderAndAnswersLikeArithmetic() throws IOException {
    assumeTrue(
        Files.getFileStore(dir).getUsableSpace() > (6L << 30),
        "needs 6 GiB free in " + dir + " for a 2.3 GiB index");
    Path file = dir.resolve("every-7th.spx");
    int[] prefix = new int[Encoding.PREFIX16_ENTRIES];
    for (int p = 0; p < prefix.length; p++) {
      prefix[p] = (int) Math.min(KEYS, ((long) p * 65536 + STEP - 1) / STEP);
    }
    IndexHeader h =
        new IndexWriter(IndexKind.IPV4_SET, KEYS, new byte[Layout.DIGEST_BYTES])
            .ints(
                Section.KEYS,
                (first, into, n) -> {
                  for (int i = 0; i < n; i++) {
                    into[i] = Encoding.flip((int) ((first + i) * STEP));
                  }
                },
                KEYS)
            .ints(Section.PREFIX16, prefix, prefix.length)
            .writeTo(file);
    assertTrue(h.fileLength() > (2L << 30), "file of " + h.fileLength() + " bytes");
    assertEquals(KEYS, IndexVerifier.verify(file).rowCount());

    long[] probes = probes();
    for (Loader loader : Loader.values()) {
      IpSet set = loader.load(file).asSet();
      assertEquals(KEYS, set.size(), loader.name());
      for (long a : probes) {
        assertEquals(inSet(a), set.contains((int) a), loader + " " + a);
      }
      for (int row : new int[] {0, (1 << 28) - 1, 1 << 28, (1 << 29) + 1, KEYS - 1}) {
        assertEquals((long) row * STEP, Integer.toUnsignedLong(set.address(row)), loader + " row");
      }
      int[] batch = new int[probes.length];
      for (int i = 0; i < probes.length; i++) {
        batch[i] = (int) probes[i];
      }
      boolean[] out = new boolean[batch.length];
      int hits = set.containsAll(batch, batch.length, out);
      int expected = 0;
      for (int i = 0; i < batch.length; i++) {
        assertEquals(inSet(probes[i]), out[i], loader + " batch " + probes[i]);
        expected += inSet(probes[i]) ? 1 : 0;
      }
      assertEquals(expected, hits, loader + " batch hits");
    }
  }

  /** Both ends, both sides of each 1 GiB mapping (keys 2^28 k), and random addresses. */
  private static long[] probes() {
    List<Long> p = new ArrayList<>();
    for (long a :
        new long[] {0, 1, 6, 7, 8, 0xFFFF_FFF0L, 0xFFFF_FFFCL, 0xFFFF_FFFDL, 0xFFFF_FFFFL}) {
      p.add(a);
    }
    for (long k = 1; k * (1L << 28) < KEYS; k++) {
      long boundary = k * (1L << 28) * STEP;
      for (long d = -2 * STEP; d <= 2 * STEP; d++) {
        p.add(boundary + d);
      }
    }
    SplittableRandom r = new SplittableRandom(18);
    for (int i = 0; i < 200_000; i++) {
      long a = r.nextLong(1L << 32);
      p.add(i % 2 == 0 ? a - a % STEP : a); // half of them in the set
    }
    return p.stream().mapToLong(Long::longValue).toArray();
  }

  @Test
  void aSectionOfMoreElementsThanAJavaArrayHoldsIsRefusedByEveryLoader() throws IOException {
    // A sparse file: the directory says 2^31 keys (8 GiB); nothing past the header is written.
    // (The header's row count has the same limit, checked first; here it is left small.)
    long keys = 1L << 31;
    long offset = Layout.firstSectionOffset(1);
    List<SectionEntry> entries = List.of(new SectionEntry(Section.KEYS, offset, keys * 4, 0));
    ByteBuffer header =
        Layout.encode(
            IndexKind.IPV4_SET, 1000, 0, offset + keys * 4, new byte[Layout.DIGEST_BYTES], entries);
    Path file = dir.resolve("too-many.spx");
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(offset + keys * 4);
      f.getChannel().write(header, 0);
    }
    for (Loader loader : Loader.values()) {
      CorruptIndexException e =
          assertThrows(CorruptIndexException.class, () -> loader.load(file), loader.name());
      assertTrue(
          e.getMessage().contains(file.toString())
              && e.getMessage().contains("section 'keys' of at most " + Layout.MAX_ELEMENTS)
              && e.getMessage().contains(keys + " elements"),
          e.getMessage());
    }
  }
}
