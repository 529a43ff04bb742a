/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.job.UsageException;
import java.io.IOException;
import java.io.PrintStream;
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
  public static void main(String[] args) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      System.out.println(usage());
      System.exit(args.length == 0 ? 2 : 0);
    }
    try {
      SparkLine.check(); // a jar of another Spark line: one line, before any job class links
    } catch (SparkLine.WrongLine e) {
      System.err.println(e.getMessage());
      System.exit(2);
    }
    int code;
    SparkSession spark = SparkSession.builder().appName("spindex " + args[0]).getOrCreate();
    boolean inClusterMode =
        spark.sparkContext().getConf().get("spark.submit.deployMode", "client").equals("cluster");
    try {
      code = run(spark, args, System.out, System.err);
    } finally {
      spark.stop();
    }
    if (code == 0) {
      return; // not System.exit(0): in YARN cluster mode that fails the application
    }
    if (inClusterMode) {
      // The driver runs inside the ApplicationMaster, which reports a failed application (with
      // this message) only if main ends by an exception; the one-line error is on its stderr.
      throw new IllegalStateException(
          "spindex " + args[0] + " failed with exit code " + code + " (see the driver's stderr)");
    }
    System.exit(code);
  }

  /**
   * Runs {@code args[0]} with the rest of {@code args}, prints its summary to {@code out} or one
   * line to {@code err}, and returns the exit code.
   */
  static int run(SparkSession spark, String[] args, PrintStream out, PrintStream err) {
    String job = args[0];
    try {
      JobResult r = run(spark, job, Arrays.copyOfRange(args, 1, args.length));
      out.println(r.report.toText());
      return r.ok ? 0 : 1;
    } catch (UsageException e) {
      (e.isHelp() ? out : err).println(e.getMessage());
      return e.exitCode();
    } catch (IOException e) {
      err.println("spindex " + job + ": " + e.getMessage());
      return 1;
    } catch (Exception e) {
      // A task that failed on bad input fails the Spark job; say why in one line, not 200 frames.
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      err.println("spindex " + job + ": failed: " + root);
      return 1;
    }
  }

  /** Runs {@code job} with {@code args} (everything after the job name). */
  static JobResult run(SparkSession spark, String job, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    switch (job) {
      case IpLookupDefinition.NAME:
        IpLookupDefinition lookup = new IpLookupDefinition();
        JobArgs a = SparkLineJobs.parse(sc, lookup, args);
        if (!a.get(IpLookupDefinition.FORMAT).equals("text")) {
          return TableLookup.run(spark, a);
        }
        return runLines(sc, lookup, args);
      case EpTransformDefinition.NAME:
        return runLines(sc, new EpTransformDefinition(), args);
      case EpDiffDefinition.NAME:
        return SparkEpDiff.run(sc, args);
      case LoaderCompareJob.NAME:
        return LoaderCompareJob.run(spark, args);
      case BuildIndexJob.NAME:
        return BuildIndexJob.run(spark, args);
      case GenLogsJob.NAME:
        return GenLogsJob.run(spark, args);
      case IdentityJob.NAME:
        return IdentityJob.run(spark, args);
      case ReadinessJob.NAME:
        return ReadinessJob.run(spark, args);
      default:
        throw new UsageException(
            "unknown job '"
                + job
                + "': expected ip-lookup, ep-transform, ep-diff, loader-compare, build-index,"
                + " gen-logs, identity or readiness (--help lists them)");
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
        + "  ip-lookup       annotate, filter or count lines (or table rows) by IP address\n"
        + "  loader-compare  load an index with every loader on every executor; timing table\n"
        + "  build-index     build an IP set index from IP lists on the cluster (= spindex build)\n"
        + "  gen-logs        write reproducible nginx-style access-log lines\n"
        + "  ep-transform    clean EP product feeds with a transform spec (docs/EP.md)\n"
        + "  ep-diff         summary EP: today's full EP against yesterday's product index\n"
        + "benchmark tools (scripts/bench-spark):\n"
        + "  identity        copy lines unchanged (Spark's own pass, strings or bytes)\n"
        + "  readiness       time to first lookup per executor: holder per loader vs broadcast\n"
        + "'<job> --help' lists the job's options.";
  }
}
