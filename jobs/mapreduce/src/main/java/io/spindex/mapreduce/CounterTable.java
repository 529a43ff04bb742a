/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.lookup.LookupCounts;
import io.spindex.lookup.LookupMode;
import io.spindex.lookup.RejectReason;
import io.spindex.lookup.Report;
import org.apache.hadoop.mapreduce.Counters;

/** Puts the Spindex counters of a finished job into its report, with the balance line. */
final class CounterTable {
  private CounterTable() {}

  static void lookup(Report r, Counters counters, LookupCounts c, LookupMode mode, String loader) {
    long maps = IpLookupTool.launchedMaps(counters);
    long tasks = IpLookupTool.value(counters, SpindexCounter.TASKS);
    long loads = IpLookupTool.value(counters, SpindexCounter.INDEX_LOADS);
    r.put("lines in", c.linesIn()).put("lines out", c.linesOut());
    if (mode == LookupMode.FILTER) {
      r.put("lines filtered out", c.filtered());
    }
    if (mode == LookupMode.COUNT) {
      r.put("lines counted", c.counted());
    }
    r.put("lines rejected", c.rejected());
    r.put("balanced", c.balanced()).put("balance", c.balanceText(mode));
    r.put("lookups", c.lookups()).put("hits", c.hits()).put("misses", c.misses());
    for (RejectReason reason : RejectReason.values()) {
      r.put("rejects " + reason.label(), c.rejects(reason));
    }
    // TOTAL_LAUNCHED_MAPS counts failed and speculative attempts too; the LocalJobRunner keeps
    // no job counters at all.
    if (maps > 0) {
      r.put("map attempts launched", maps);
    }
    r.put("map tasks", tasks);
    r.put("index loads", loads);
    long micros = IpLookupTool.value(counters, SpindexCounter.loadMicros(loader));
    r.put("index load ms (" + loader + ", sum)", micros / 1e3);
    r.put("index bytes loaded", IpLookupTool.value(counters, SpindexCounter.INDEX_BYTES));
  }
}
