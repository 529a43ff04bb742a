/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.cli.SpindexProcess;
import io.spindex.cli.SpindexProcess.Run;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.load.Loader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code spindex stage} as a process: exit codes, messages, concurrent processes. */
class StageCliProcessTest {
  @TempDir Path dir;

  @Test
  void stagesOnceThenFindsItCurrent() throws Exception {
    Path src = StageTest.buildSet(dir, "ips", 100_000, 1);
    Run r = SpindexProcess.run(dir, "stage", "ips.spx", "dst/ips.spx");
    assertEquals(0, r.exit, r.toString());
    assertEquals("staged " + src.toRealPath() + " -> dst/ips.spx", r.out.split("\n")[0]);
    assertTrue(r.out.contains(String.format("%-22s %15s%n", "copied", "yes")), r.out);
    assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dir.resolve("dst/ips.spx")));
    Run again = SpindexProcess.run(dir, "stage", "ips.spx", "dst");
    assertEquals(0, again.exit, again.toString());
    assertEquals(
        "already staged " + src.toRealPath() + " -> dst/ips.spx", again.out.split("\n")[0]);
    assertTrue(again.out.contains("no (already current)"), again.out);
  }

  @Test
  void corruptSourceExitsOneNamingSectionAndOffset() throws Exception {
    Path good = StageTest.buildSet(dir, "ips", 10_000, 1);
    byte[] b = Files.readAllBytes(good);
    b[(int) Loader.readHeader(good).sections().get(0).offset() + 8] ^= 1;
    Path src = dir.resolve("bad.spx");
    Files.write(src, b);
    CorruptIndexException ref =
        Assertions.assertThrows(CorruptIndexException.class, () -> Loader.MAPPED.load(src));
    Run r = SpindexProcess.run(dir, "stage", "bad.spx", "dst/bad.spx");
    assertEquals(1, r.exit, r.toString());
    Path real = dir.toRealPath();
    assertEquals(
        "spindex: "
            + real.resolve("bad.spx")
            + ": corrupt, not staged to "
            + real.resolve("dst/bad.spx")
            + ": "
            + ref.getMessage().substring((src + ": ").length())
            + "\n",
        r.err);
    assertFalse(Files.exists(dir.resolve("dst/bad.spx")));
  }

  @Test
  void errors() throws Exception {
    Run missing = SpindexProcess.run(dir, "stage", "nope.spx", "dst/");
    assertEquals(1, missing.exit, missing.toString());
    assertEquals("spindex: nope.spx: no such file\n", missing.err);
    Files.write(dir.resolve("a.bin"), new byte[10]);
    Run check = SpindexProcess.run(dir, "stage", "a.bin", "b.bin", "--check", "crc");
    assertEquals(2, check.exit, check.toString());
    assertEquals("spindex: --check: unknown 'crc': expected checksums, deep or size\n", check.err);
  }

  /** Four processes started together: exactly one copies, the others find the copy current. */
  @Test
  void concurrentProcessesCopyOnce() throws Exception {
    Path src = StageTest.buildSet(dir, "ips", 2_000_000, 3);
    List<SpindexProcess> ps = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      ps.add(SpindexProcess.start(dir, List.of(), "stage", "ips.spx", "dst/ips.spx"));
    }
    int staged = 0;
    int current = 0;
    for (SpindexProcess p : ps) {
      Run r = p.await();
      assertEquals(0, r.exit, r.toString());
      staged += r.out.startsWith("staged ") ? 1 : 0;
      current += r.out.startsWith("already staged ") ? 1 : 0;
    }
    assertEquals(1, staged);
    assertEquals(3, current);
    assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dir.resolve("dst/ips.spx")));
  }
}
