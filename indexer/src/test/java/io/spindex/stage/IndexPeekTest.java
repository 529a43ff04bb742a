/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.build.Ipv4RangeBuilder;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.Loader;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link IndexPeek} reads two header fields without the index package: checked here against {@link
 * Loader#readHeader} (which goes through {@code Layout}), for both index kinds.
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
    new Ipv4RangeBuilder().createdMillis(0).build(List.of(text), ranges);
    for (Path p : new Path[] {set, ranges}) {
      IndexPeek peek = IndexPeek.of(StageSource.local(p));
      assertTrue(peek.isIndex(), p.toString());
      assertEquals(Loader.readHeader(p).headerCrc32c(), peek.headerCrc32c(), p.toString());
    }
  }

  @Test
  void otherBytesAreNotAnIndex() throws Exception {
    Path set = StageTest.buildSet(dir, "ips", 1000, 1);
    byte[] head = Arrays.copyOf(Files.readAllBytes(set), 128);
    assertTrue(IndexPeek.of(head).isIndex());
    assertFalse(IndexPeek.of(Arrays.copyOf(head, 127)).isIndex(), "short");
    assertFalse(IndexPeek.of(new byte[0]).isIndex(), "empty");
    for (int i = 0; i < 8; i++) {
      byte[] b = head.clone();
      b[i] ^= 0x20;
      assertFalse(IndexPeek.of(b).isIndex(), "magic byte " + i);
    }
  }
}
