/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.spindex.lookup.RejectReason;
import java.util.HashSet;
import java.util.ResourceBundle;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class SpindexCounterTest {
  @Test
  void everyRejectReasonAndLoaderHasItsOwnCounterAndEveryCounterADisplayName() {
    Set<SpindexCounter> seen = new HashSet<>();
    for (RejectReason r : RejectReason.values()) {
      SpindexCounter c = SpindexCounter.rejects(r);
      assertEquals("REJECTS_" + r.name(), c.name());
      seen.add(c);
    }
    assertEquals(RejectReason.values().length, seen.size());
    for (String l : new String[] {"text", "io", "nio", "mmap", "mapped"}) {
      assertNotNull(SpindexCounter.loads(l));
      assertNotNull(SpindexCounter.loadMicros(l));
    }
    assertEquals(SpindexCounter.LOADS_MAPPED, SpindexCounter.loads("mapped-unchecked"));
    ResourceBundle names = ResourceBundle.getBundle(SpindexCounter.class.getName());
    assertEquals("Spindex", names.getString("CounterGroupName"));
    for (SpindexCounter c : SpindexCounter.values()) {
      assertNotNull(names.getString(c.name() + ".name"), c.name());
    }
  }

  @Test
  void theDispatcherRejectsUnknownJobsWithExitCode2() throws Exception {
    assertEquals(2, SpindexMapReduce.run(new Configuration()));
    assertEquals(2, SpindexMapReduce.run(new Configuration(), "ep-diff"));
    assertEquals(2, SpindexMapReduce.run(new Configuration(), "ip-lookup", "--help"));
  }
}
