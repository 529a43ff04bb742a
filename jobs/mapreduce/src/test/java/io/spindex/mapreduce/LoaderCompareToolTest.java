/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.lookup.IpLookupFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** loader-compare on the LocalJobRunner: every task loads with every loader, same answers. */
class LoaderCompareToolTest {
  @TempDir Path dir;

  @Test
  void everyTaskLoadsWithEveryLoaderAndTheCountersAddUp() throws Exception {
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
              "--loaders", "io,nio,mmap,mapped",
              "--rounds", "2",
              "--tasks", "3"
            });
    assertEquals(0, exit);
    Counters c = tool.counters;
    assertEquals(3, c.findCounter(SpindexCounter.TASKS).getValue());
    assertEquals(0, c.findCounter(SpindexCounter.ANSWER_MISMATCHES).getValue());
    for (String l : new String[] {"io", "nio", "mmap", "mapped"}) {
      assertEquals(6, c.findCounter(SpindexCounter.loads(l)).getValue(), l);
    }
    long bytes = Files.size(fx.ranges);
    assertEquals(24 * bytes, c.findCounter(SpindexCounter.INDEX_BYTES).getValue());

    List<String> loads = MrTests.readParts(out);
    assertEquals(24, loads.size());
    Map<String, Integer> perLoader = new HashMap<>();
    double ioMs = 0;
    for (String line : loads) {
      String[] f = line.split("\t");
      assertEquals(7, f.length, line);
      assertEquals(bytes, Long.parseLong(f[6]));
      perLoader.merge(f[3], 1, Integer::sum);
      if (f[3].equals("io")) {
        ioMs += Double.parseDouble(f[5]);
      }
    }
    assertEquals(Map.of("io", 6, "nio", 6, "mmap", 6, "mapped", 6), perLoader);
    // The table's io row agrees with the per-load lines (microsecond counters vs ms text).
    List<Object> io = tool.table.get(0);
    assertEquals("io", io.get(0));
    assertEquals(6L, io.get(1));
    assertEquals(ioMs, (Double) io.get(2), 0.01 * 6 + 1e-9);
    assertTrue(tool.report.toText().contains("speedup vs io"));
  }
}
