/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.load.Loader;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link IndexPeek} reads a source's header from its stream: the same checksum as {@link
 * Loader#readHeader} for both index kinds; other files are not indexes; a damaged header fails.
 */
class IndexPeekTest {
  @TempDir Path dir;

  @Test
  void agreesWithTheLoaderOnBothKinds() throws Exception {
    Path set = StageTest.buildSet(dir, "ips", 1000, 1);
    Path text = dir.resolve("r.txt");
    try (OutputStream out = Files.newOutputStream(text)) {
      new RangeGenerator(1000, 2, RangeGenerator.Format.parse("range")).writeTo(out);
    }
    Path ranges = dir.resolve("r.spx");
    new IpRangeBuilder().createdMillis(0).build(List.of(text), ranges);
    for (Path p : new Path[] {set, ranges}) {
      IndexPeek peek = IndexPeek.of(StageSource.local(p));
      assertTrue(peek.isIndex(), p.toString());
      assertEquals(Loader.readHeader(p).headerCrc32c(), peek.headerCrc32c(), p.toString());
    }
  }

  @Test
  void otherBytesAreNotAnIndexAndADamagedHeaderFails() throws Exception {
    Path set = StageTest.buildSet(dir, "ips", 1000, 1);
    byte[] good = Files.readAllBytes(set);
    Path f = dir.resolve("f");
    Files.write(f, new byte[0]);
    assertFalse(IndexPeek.of(StageSource.local(f)).isIndex(), "empty");
    Files.write(f, "10.0.0.1\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertFalse(IndexPeek.of(StageSource.local(f)).isIndex(), "text");
    for (int i = 0; i < 8; i++) {
      byte[] b = good.clone();
      b[i] ^= 0x20;
      Files.write(f, b);
      assertFalse(IndexPeek.of(StageSource.local(f)).isIndex(), "magic byte " + i);
    }
    Files.write(f, Arrays.copyOf(good, 127));
    assertThrows(CorruptIndexException.class, () -> IndexPeek.of(StageSource.local(f)));
    byte[] damaged = good.clone();
    damaged[20] ^= 1;
    Files.write(f, damaged);
    assertThrows(CorruptIndexException.class, () -> IndexPeek.of(StageSource.local(f)));
  }
}
