/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.cli.local.EnginesAgreeContract;
import io.spindex.job.LineJob;
import java.util.Map;

/** Spark local[2] (small splits) against the core's reference run of every line job. */
class EnginesAgreeTest extends EnginesAgreeContract {
  @Override
  protected Map<String, Long> runOnEngine(LineJob<?> job, String[] args) throws Exception {
    JobResult r = SpindexSpark.run(SparkTests.session(), job.name(), args);
    System.out.println(r.report.toText());
    assertTrue(r.ok, job.name() + " on Spark reconciles");
    return r.totals;
  }

  @Override
  protected Map<String, Long> runLoaderCompare(String[] args) throws Exception {
    JobResult r = SpindexSpark.run(SparkTests.session(), LoaderCompareJob.NAME, args);
    System.out.println(r.report.toText());
    assertTrue(r.ok, "loader-compare on Spark passes");
    return r.totals;
  }
}
