/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.builder.ProductIndexBuilder;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.SectionEntry;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * For a small index of each kind: every truncation, a single-bit flip of every bit of the header
 * and directory, and flips at sampled positions of every section and of the padding. Each damaged
 * file must be rejected by {@code open} (checking loaders), by the checksum check {@code stage}
 * runs on a copy, and by {@code verify}; the unchecked mapped loader may open a file with damaged
 * section bytes, but {@code verify} must not pass it.
 */
class CorruptFileMatrixTest {
  @TempDir Path dir;

  private Path build(String kind) throws IOException {
    Path src = dir.resolve(kind + ".txt");
    Path idx = dir.resolve(kind + ".spx");
    if (kind.equals("set")) {
      Files.write(
          src,
          "10.0.0.1\n10.0.0.2\n10.0.1.7\n172.16.5.4\n8.8.8.8\n255.255.255.255\n0.0.0.0\n"
              .getBytes(StandardCharsets.UTF_8));
      new IpSetBuilder().build(List.of(src), idx);
    } else if (kind.equals("products")) {
      Files.write(
          src,
          "id\tprice_pc\tshipping\ttitle\nP1\t100\t0\t사과\nP2\t200\t-1\t배\nP3\t\t0\t감\n"
              .getBytes(StandardCharsets.UTF_8));
      new ProductIndexBuilder().extraIntFields(List.of()).build(List.of(src), idx);
    } else {
      Files.write(
          src,
          "0.0.0.0|0.255.255.255|zero\n1.0.0.0|1.0.0.255|AU\n1.0.1.0|1.0.3.255|CN\n8.8.8.8|8.8.8.8|G\n"
              .getBytes(StandardCharsets.UTF_8));
      new IpRangeBuilder().build(List.of(src), idx);
    }
    return idx;
  }

  /** Counts of how damaged files fared. */
  private static final class Tally {
    int files;
    int rejectedAtOpen;
    int rejectedByVerify;
    int accepted;
  }

  private void check(Path damaged, boolean sectionDamage, Tally t, String what) throws IOException {
    t.files++;
    boolean openFailed = false;
    for (Loader l : Loader.values()) {
      try {
        l.load(damaged);
      } catch (CorruptIndexException e) {
        openFailed = true;
        assertTrue(e.getMessage().startsWith(damaged.toString() + ": "), e.getMessage());
        continue;
      }
      assertTrue(false, what + ": loader " + l.loaderName() + " opened a damaged file");
    }
    try {
      IndexVerifier.checksums(damaged);
      assertTrue(false, what + ": the checksum check (stage's default) passed a damaged file");
    } catch (CorruptIndexException e) {
      assertTrue(e.getMessage().startsWith(damaged.toString() + ": "), e.getMessage());
    }
    if (!sectionDamage) {
      try {
        Loader.mappedUnchecked().load(damaged);
        assertTrue(false, what + ": unchecked mapped loader opened a damaged header");
      } catch (CorruptIndexException expected) {
        // the header is always checked
      }
    }
    try {
      IndexVerifier.verify(damaged);
      t.accepted++;
    } catch (CorruptIndexException e) {
      t.rejectedByVerify++;
    }
    t.rejectedAtOpen += openFailed ? 1 : 0;
  }

  @Test
  void noDamagedFileIsAccepted() throws IOException {
    long seed = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    Tally t = new Tally();
    for (String kind : new String[] {"set", "ranges", "products"}) {
      Path idx = build(kind);
      byte[] good = Files.readAllBytes(idx);
      IndexHeader h = Loader.readHeader(idx);
      Path damaged = dir.resolve("damaged.spx");
      for (int len = 0; len < good.length; len += len < 2048 ? 1 : 509) {
        Files.write(damaged, java.util.Arrays.copyOf(good, len));
        check(damaged, false, t, kind + " truncated to " + len);
      }
      int headerAndDir = 128 + 32 * h.sections().size();
      for (int at = 0; at < headerAndDir; at++) {
        for (int bit = 0; bit < 8; bit++) {
          Files.write(damaged, flip(good, at, bit));
          check(damaged, false, t, kind + " bit " + bit + " of byte " + at);
        }
      }
      for (SectionEntry e : h.sections()) {
        for (int k = 0; k < 64; k++) {
          int at = (int) (e.offset() + rnd.nextLong(e.length()));
          Files.write(damaged, flip(good, at, rnd.nextInt(8)));
          check(damaged, true, t, kind + " " + e.section().displayName() + " byte " + at);
        }
      }
      // Padding: bytes in no section are zero, and verify says so.
      for (int at = headerAndDir; at < good.length; at++) {
        if (inSection(h, at)) {
          continue;
        }
        Files.write(damaged, flip(good, at, 0));
        t.files++;
        try {
          IndexVerifier.verify(damaged);
          t.accepted++;
        } catch (CorruptIndexException e) {
          t.rejectedByVerify++;
        }
      }
    }
    System.out.printf(
        "corrupt-file matrix (seed %d): %d damaged files, %d rejected at open, %d by verify,"
            + " %d accepted%n",
        seed, t.files, t.rejectedAtOpen, t.rejectedByVerify, t.accepted);
    assertEquals(0, t.accepted, "seed " + seed);
    assertEquals(t.files, t.rejectedByVerify, "verify rejects every damaged file");
  }

  private static boolean inSection(IndexHeader h, long at) {
    for (SectionEntry e : h.sections()) {
      if (at >= e.offset() && at < e.offset() + e.length()) {
        return true;
      }
    }
    return false;
  }

  private static byte[] flip(byte[] b, int at, int bit) {
    byte[] c = b.clone();
    c[at] ^= (byte) (1 << bit);
    return c;
  }
}
