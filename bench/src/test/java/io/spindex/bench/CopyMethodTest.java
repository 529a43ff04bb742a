/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.stage.StageOptions;
import io.spindex.stage.StageResult;
import io.spindex.stage.Stager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every copy method CopyBenchmark compares with stage's writes the same bytes through Stager. */
class CopyMethodTest {
  @TempDir Path dir;

  @Test
  void everyCopyMethodWritesTheSameBytes() throws Exception {
    Path src = dir.resolve("data.bin");
    byte[] data = new byte[(3 << 20) + 4321];
    new Random(9).nextBytes(data);
    Files.write(src, data);
    for (CopyMethod m : CopyMethod.values()) {
      Path dst = dir.resolve("dst/" + m.benchName() + ".bin");
      long[] progress = {0};
      StageResult r =
          Stager.stage(m.source(src), dst, StageOptions.defaults().progress(n -> progress[0] += n));
      assertTrue(r.copied(), m.name());
      assertArrayEquals(data, Files.readAllBytes(dst), m.name());
      assertEquals(data.length, progress[0], m.name() + " progress");
      assertEquals(m, CopyMethod.byBenchName(m.benchName()));
    }
  }

  @Test
  void theBenchmarkNamesEveryMethodAndStagesOwn() throws Exception {
    String[] params =
        CopyBenchmark.class
            .getField("method")
            .getAnnotation(org.openjdk.jmh.annotations.Param.class)
            .value();
    assertEquals(CopyMethod.values().length + 1, params.length);
    for (String p : params) {
      if (!p.equals(CopyBenchmark.STAGE)) {
        CopyMethod.byBenchName(p);
      }
    }
  }
}
