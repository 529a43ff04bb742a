/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spindex.gen.AccessLogGenerator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenLogsJobTest {
  @TempDir Path dir;

  @Test
  void writesTheGeneratorsLinesInOrderAcrossFiles() throws Exception {
    Path out = dir.resolve("logs");
    SpindexSpark.run(
        SparkTests.session(),
        GenLogsJob.NAME,
        new String[] {
          "--output", out.toString(), "--lines", "1001", "--files", "3", "--seed", "9"
        });
    List<String> want = new ArrayList<>();
    AccessLogGenerator gen = new AccessLogGenerator(9, 10);
    for (int i = 0; i < 1001; i++) {
      want.add(gen.text(i));
    }
    assertEquals(want, SparkTests.readParts(out));
  }
}
