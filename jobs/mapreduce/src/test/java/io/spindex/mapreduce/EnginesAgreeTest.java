/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spindex.cli.local.EnginesAgreeContract;
import io.spindex.job.LineJob;
import java.util.Map;
import org.apache.hadoop.util.ToolRunner;

/** The LocalJobRunner (small splits) against the core's reference run of every line job. */
class EnginesAgreeTest extends EnginesAgreeContract {
  @Override
  protected Map<String, Long> runOnEngine(LineJob<?> job, String[] args) throws Exception {
    LineJobTool<?> tool = (LineJobTool<?>) SpindexMapReduce.jobs().get(job.name()).get();
    assertEquals(0, ToolRunner.run(MrTests.local(), tool, args), job.name() + " on MapReduce");
    return MrTests.totals(tool.counters);
  }

  @Override
  protected Map<String, Long> runLoaderCompare(String[] args) throws Exception {
    LoaderCompareTool tool = new LoaderCompareTool();
    assertEquals(0, ToolRunner.run(MrTests.local(), tool, args), "loader-compare on MapReduce");
    return MrTests.totals(tool.counters);
  }
}
