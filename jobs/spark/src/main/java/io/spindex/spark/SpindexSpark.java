/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.LineJob;
import io.spindex.job.UsageException;
import java.io.IOException;
import java.util.Arrays;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The job jar's entry point: {@code spark-submit spindex-spark-job.jar <job> [options]}. Prints the
 * job's summary table (also written as {@code OUT/_summary.json}) and exits 0 when the job ran and
 * its counts reconcile; 1 for bad input, a damaged index, an I/O error or counts that do not
 * reconcile; 2 for a usage mistake (0 for {@code --help}). A user's mistake is one line on standard
 * error, never a stack trace.
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
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    int code;
    SparkSession spark = SparkSession.builder().appName("spindex " + job).getOrCreate();
    try {
      JobResult r = run(spark, job, rest);
      System.out.println(r.report.toText());
      code = r.ok ? 0 : 1;
    } catch (UsageException e) {
      (e.isHelp() ? System.out : System.err).println(e.getMessage());
      code = e.exitCode();
    } catch (IOException e) {
      System.err.println("spindex " + job + ": " + e.getMessage());
      code = 1;
    } finally {
      spark.stop();
    }
    System.exit(code);
  }

  /** Runs {@code job} with {@code args} (everything after the job name). */
  static JobResult run(SparkSession spark, String job, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    switch (job) {
      case IpLookupDefinition.NAME:
        return runLines(sc, new IpLookupDefinition(), args);
      case EpTransformDefinition.NAME:
        return runLines(sc, new EpTransformDefinition(), args);
      case EpDiffDefinition.NAME:
        return SparkEpDiff.run(sc, args);
      case LoaderCompareJob.NAME:
        return LoaderCompareJob.run(spark, args);
      case GenLogsJob.NAME:
        return GenLogsJob.run(spark, args);
      case IdentityJob.NAME:
        return IdentityJob.run(spark, args);
      case ReadinessJob.NAME:
        return ReadinessJob.run(spark, args);
      default:
        throw new UsageException("unknown job '" + job + "'\n" + usage());
    }
  }

  private static <P extends LineJob.Plan> JobResult runLines(
      JavaSparkContext sc, LineJob<P> job, String[] args) throws IOException {
    SparkLineJobs.Run<P> run = SparkLineJobs.plan(sc, job, args);
    SparkLineJobs.runSplits(job, run, null);
    return SparkLineJobs.finish(job, run);
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
