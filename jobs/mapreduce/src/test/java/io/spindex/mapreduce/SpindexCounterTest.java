/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.HashSet;
import java.util.ResourceBundle;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The {@link SpindexCounter} enum, which only loader-compare still uses (the line jobs count by
 * name in the {@value LineJobTool#GROUP} group): a load and a load-time counter per loader, and a
 * display name for every constant.
 */
class SpindexCounterTest {
  @Test
  void everyLoaderHasItsOwnCountersAndEveryCounterADisplayName() {
    Set<SpindexCounter> seen = new HashSet<>();
    for (String l : new String[] {"text", "io", "nio", "mmap", "mapped"}) {
      assertNotNull(SpindexCounter.loads(l));
      assertNotNull(SpindexCounter.loadMicros(l));
      seen.add(SpindexCounter.loads(l));
      seen.add(SpindexCounter.loadMicros(l));
    }
    assertEquals(10, seen.size(), "no two loaders share a counter");
    assertEquals(SpindexCounter.LOADS_MAPPED, SpindexCounter.loads("mapped-unchecked"));
    assertEquals(SpindexCounter.LOAD_US_MAPPED, SpindexCounter.loadMicros("mapped-unchecked"));
    ResourceBundle names = ResourceBundle.getBundle(SpindexCounter.class.getName());
    assertEquals("Spindex loader-compare", names.getString("CounterGroupName"));
    for (SpindexCounter c : SpindexCounter.values()) {
      assertNotNull(names.getString(c.name() + ".name"), c.name());
    }
  }

  @Test
  void theDispatcherRejectsUnknownJobsWithExitCode2() throws Exception {
    assertEquals(2, SpindexMapReduce.run(new Configuration()));
    assertEquals(2, SpindexMapReduce.run(new Configuration(), "ep-dif"));
    // ep-diff is a MapReduce job now: without its options, a usage error of the job.
    assertEquals(2, SpindexMapReduce.run(new Configuration(), "ep-diff"));
    assertEquals(0, SpindexMapReduce.run(new Configuration(), "ip-lookup", "--help"));
  }
}
