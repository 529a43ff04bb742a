/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The job jar's entry point: {@code spark-submit spindex-spark-job.jar <job> [options]} with job
 * {@code ip-lookup}, {@code loader-compare}, {@code gen-logs}, {@code ep-transform} or {@code
 * ep-diff}. Prints the job's summary table (also written as JSON next to the output) and exits
 * non-zero when the job failed or its counts do not reconcile.
 */
public final class SpindexSpark {
  private SpindexSpark() {}

  /** Runs one job in the SparkSession that spark-submit configured. */
  public static void main(String[] args) throws Exception {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      System.out.println(usage());
      System.exit(args.length == 0 ? 2 : 0);
    }
    String job = args[0];
    String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
    int code;
    SparkSession spark = SparkSession.builder().appName("spindex " + job).getOrCreate();
    try {
      JobResult r = run(spark, job, rest);
      System.out.println(r.report.toText());
      code = r.ok ? 0 : 1;
    } catch (io.spindex.options.UsageException e) {
      System.err.println(e.getMessage());
      code = 2;
    } finally {
      spark.stop();
    }
    System.exit(code);
  }

  /** Runs {@code job} with {@code args} (everything after the job name). */
  static JobResult run(SparkSession spark, String job, String[] args) throws Exception {
    switch (job) {
      case IpLookupJob.NAME:
        return IpLookupJob.run(spark, args);
      case LoaderCompareJob.NAME:
        return LoaderCompareJob.run(spark, args);
      case GenLogsJob.NAME:
        return GenLogsJob.run(spark, args);
      case EpTransformSparkJob.NAME:
        return EpTransformSparkJob.run(spark, args);
      case EpDiffSparkJob.NAME:
        return EpDiffSparkJob.run(spark, args);
      case IdentityJob.NAME:
        return IdentityJob.run(spark, args);
      case ReadinessJob.NAME:
        return ReadinessJob.run(spark, args);
      default:
        throw new JobOptions.UsageException("unknown job '" + job + "'\n" + usage());
    }
  }

  static String usage() {
    return "usage: spark-submit [spark options] spindex-spark-job.jar <job> [options]\n"
        + "jobs:\n"
        + "  ip-lookup       annotate, filter or count lines by the IPv4 address in them\n"
        + "  loader-compare  load an index with every loader on every executor; timing table\n"
        + "  gen-logs        write reproducible nginx-style access-log lines\n"
        + "  ep-transform    clean EP product feeds with a transform spec (docs/EP.md)\n"
        + "  ep-diff         summary EP: today's full EP against yesterday's product index\n"
        + "benchmark tools (scripts/bench-spark):\n"
        + "  identity        copy lines unchanged (Spark's own pass, strings or bytes)\n"
        + "  readiness       time to first lookup per executor: holder per loader vs broadcast\n"
        + "'<job> --help' lists the job's options.";
  }
}
