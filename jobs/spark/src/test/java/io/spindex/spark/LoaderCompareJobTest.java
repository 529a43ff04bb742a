/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.lookup.TestIndexes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoaderCompareJobTest {
  @TempDir Path dir;

  @Test
  void everyLoaderIsTimedAndGivesTheSameAnswers() throws Exception {
    int[] addresses = new int[200_000];
    java.util.Random rnd = new java.util.Random(5);
    for (int i = 0; i < addresses.length; i++) {
      addresses[i] = rnd.nextInt();
    }
    Path index = dir.resolve("ips.spx");
    TestIndexes.writeSet(index, addresses);
    StringBuilder text = new StringBuilder("# the same addresses as text, for the text loader\n");
    for (int a : addresses) {
      text.append(io.spindex.text.Ipv4Text.format(a)).append('\n');
    }
    Path source = Files.write(dir.resolve("ips.txt"), text.toString().getBytes("US-ASCII"));
    Path out = dir.resolve("cmp");
    JobResult r =
        SpindexSpark.run(
            SparkTests.session(),
            LoaderCompareJob.NAME,
            new String[] {
              "--index",
              index.toString(),
              "--source",
              source.toString(),
              "--output",
              out.toString(),
              "--rounds",
              "3",
              "--tasks",
              "6"
            });
    System.out.println(r.report.toText());
    assertTrue(r.ok);
    List<String> csv = Files.readAllLines(out.resolve("loader-compare.csv"));
    assertEquals("loader,jvms,loads,min ms,median ms,max ms,MB/s,speedup vs io", csv.get(0));
    assertEquals(1 + 4, csv.size());
    for (int i = 1; i < csv.size(); i++) {
      String[] f = csv.get(i).split(",");
      assertEquals(Arrays.asList("text", "io", "nio", "mapped").get(i - 1), f[0]);
      assertEquals("1", f[1]);
      assertEquals("3", f[2]);
      assertTrue(Double.parseDouble(f[3]) <= Double.parseDouble(f[4]));
      assertTrue(Double.parseDouble(f[4]) <= Double.parseDouble(f[5]));
    }
    assertEquals(1 + 4 * 3, Files.readAllLines(out.resolve("loads.csv")).size());
    String json = new String(Files.readAllBytes(out.resolve("_summary.json")));
    assertTrue(json.contains("\"identical answers\": true"), json);
    assertEquals(3L, r.totals.get("loads (text)"), "the accumulators count the loads");
    assertEquals(1L, (long) r.totals.get("JVMs measured"));
  }
}
