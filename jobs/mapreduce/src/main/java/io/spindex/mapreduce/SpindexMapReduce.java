/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import java.util.Arrays;
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

  static Map<String, Supplier<Tool>> jobs() {
    Map<String, Supplier<Tool>> m = new LinkedHashMap<>();
    m.put(IpLookupDefinition.NAME, IpLookupTool::new);
    m.put(LoaderCompareTool.NAME, LoaderCompareTool::new);
    m.put(EpTransformDefinition.NAME, EpTransformTool::new);
    m.put(EpDiffDefinition.NAME, EpDiffTool::new);
    return m;
  }

  /** Runs {@code args[0]} with the rest of the arguments; returns the exit code. */
  public static int run(Configuration conf, String... args) throws Exception {
    Map<String, Supplier<Tool>> jobs = jobs();
    if (args.length == 0 || !jobs.containsKey(args[0])) {
      System.err.println(
          (args.length == 0 ? "" : "unknown job '" + args[0] + "'; ")
              + "usage: <job> [generic options] [options]; jobs: "
              + String.join(", ", jobs.keySet())
              + " ('<job> --help' lists the options)");
      return 2;
    }
    return ToolRunner.run(conf, jobs.get(args[0]).get(), Arrays.copyOfRange(args, 1, args.length));
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(new Configuration(), args));
  }
}
