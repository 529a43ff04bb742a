/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.job.LoaderCompareDefinition;
import io.spindex.lookup.IpLookupFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * loader-compare on the LocalJobRunner: the task JVM loads with every loader, same answers; the
 * counters by name add up to loads.csv and the table.
 */
class LoaderCompareToolTest {
  @TempDir Path dir;

  @Test
  void theJvmLoadsWithEveryLoaderAndTheCountersAddUp() throws Exception {
    IpLookupFixture fx = new IpLookupFixture(dir, 10);
    Path out = dir.resolve("out");
    LoaderCompareTool tool = new LoaderCompareTool();
    int exit =
        ToolRunner.run(
            MrTests.local(),
            tool,
            new String[] {
              "--index", fx.ranges.toString(),
              "--output", out.toString(),
              "--loaders", "io,nio,mapped",
              "--rounds", "2",
              "--tasks", "3"
            });
    assertEquals(0, exit);
    Map<String, Long> c = MrTests.totals(tool.counters);
    assertEquals(3L, c.get("tasks"));
    assertEquals(1L, c.get(LoaderCompareDefinition.JVMS), "the LocalJobRunner: one JVM");
    for (String l : new String[] {"io", "nio", "mapped"}) {
      assertEquals(2L, c.get(LoaderCompareDefinition.loads(l)), l);
    }
    long bytes = Files.size(fx.ranges);
    List<String> loads = Files.readAllLines(out.resolve(LoaderCompareDefinition.LOADS_FILE));
    assertEquals(1 + 3 * 2, loads.size());
    Map<String, Integer> perLoader = new HashMap<>();
    double ioMs = 0;
    for (String line : loads.subList(1, loads.size())) {
      String[] f = line.split(",");
      assertEquals(7, f.length, line);
      assertEquals(bytes, Long.parseLong(f[6]));
      perLoader.merge(f[3], 1, Integer::sum);
      if (f[3].equals("io")) {
        ioMs += Double.parseDouble(f[5]);
      }
    }
    assertEquals(Map.of("io", 2, "nio", 2, "mapped", 2), perLoader);
    // The io counter (microseconds) agrees with the per-load lines (ms, 3 decimals).
    assertEquals(ioMs, c.get(LoaderCompareDefinition.loadMicros("io")) / 1e3, 0.01 * 2);
    assertEquals("io", tool.table.get(0).get(0));
    assertEquals(2, tool.table.get(0).get(2));
    assertTrue(tool.report.toText().contains("speedup vs io"));
    assertFalse(Files.exists(out.resolve(LoaderCompareTool.LOADS_DIR)), "the samples are merged");
  }
}
