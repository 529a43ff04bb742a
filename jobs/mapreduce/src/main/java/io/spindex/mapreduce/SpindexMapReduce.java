/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.job.Dispatcher;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Main class of the job jar: {@code hadoop jar spindex-mapreduce-job.jar <job> [generic options]
 * [job options]}. Each job is a {@link Tool} run by {@link ToolRunner}, so {@code -D}, {@code
 * -conf}, {@code -files}, {@code -libjars} work; the exit code is the tool's (0 ok, 1 job failed or
 * counts do not reconcile, 2 usage).
 */
public final class SpindexMapReduce {
  private SpindexMapReduce() {}

  /** The jobs, their usage text, and what a failure prints: the same as on Spark. */
  static final Dispatcher JOBS =
      new Dispatcher("hadoop jar spindex-mapreduce-job.jar")
          .job(IpLookupDefinition.NAME, new IpLookupDefinition().description())
          .job(
              LoaderCompareTool.NAME,
              "load an index with every loader in every map task; timing table")
          .job(EpTransformDefinition.NAME, new EpTransformDefinition().description())
          .job(EpDiffDefinition.NAME, new EpDiffDefinition().description());

  static Map<String, Supplier<Tool>> jobs() {
    Map<String, Supplier<Tool>> m = new LinkedHashMap<>();
    m.put(IpLookupDefinition.NAME, IpLookupTool::new);
    m.put(LoaderCompareTool.NAME, LoaderCompareTool::new);
    m.put(EpTransformDefinition.NAME, EpTransformTool::new);
    m.put(EpDiffDefinition.NAME, EpDiffTool::new);
    return m;
  }

  /**
   * Runs {@code args[0]} with the rest of the arguments (generic options first) and returns the
   * exit code; a failure is one line on standard error ({@link Dispatcher}).
   */
  public static int run(Configuration conf, String... args) {
    Map<String, Supplier<Tool>> jobs = jobs();
    return JOBS.run(
        args,
        System.out,
        System.err,
        (job, rest) -> ToolRunner.run(conf, jobs.get(job).get(), rest));
  }

  public static void main(String[] args) {
    System.exit(run(new Configuration(), args));
  }
}
