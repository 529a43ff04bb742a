/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.job.BuildIndexDefinition;
import io.spindex.job.Dispatcher;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.job.UsageException;
import io.spindex.spark.line.SparkLine;
import java.io.IOException;
import java.io.PrintStream;
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

  /** The jobs, their usage text, and what a failure prints: the same as on MapReduce. */
  static final Dispatcher JOBS =
      new Dispatcher("spark-submit [spark options] spindex-spark-job.jar")
          .job(IpLookupDefinition.NAME, new IpLookupDefinition().description())
          .job(
              LoaderCompareJob.NAME,
              "load an index with every loader on every executor; timing table")
          .job(
              BuildIndexDefinition.NAME,
              "build an index of IP lists, ranges or products on the cluster (= spindex build)")
          .job(GenLogsJob.NAME, "write reproducible nginx-style access-log lines")
          .job(EpTransformDefinition.NAME, new EpTransformDefinition().description())
          .job(EpDiffDefinition.NAME, new EpDiffDefinition().description());

  /** Runs one job in the SparkSession that spark-submit configured. */
  public static void main(String[] args) {
    try {
      SparkLine.check(); // a jar of another Spark line: one line, before any job class links
    } catch (SparkLine.WrongLine e) {
      System.err.println(e.getMessage());
      System.exit(2);
    }
    boolean[] inClusterMode = {false};
    int code =
        JOBS.run(
            args,
            System.out,
            System.err,
            (job, rest) -> {
              String help = help(job, rest);
              if (help != null) {
                System.out.println(help); // before a SparkContext: it took 10 s and 50 log lines
                return 0;
              }
              SparkSession spark = SparkSession.builder().appName("spindex " + job).getOrCreate();
              inClusterMode[0] =
                  spark
                      .sparkContext()
                      .getConf()
                      .get("spark.submit.deployMode", "client")
                      .equals("cluster");
              try {
                return report(run(spark, job, rest), System.out);
              } finally {
                spark.stop();
              }
            });
    if (code == 0) {
      return; // not System.exit(0): in YARN cluster mode that fails the application
    }
    if (inClusterMode[0]) {
      // The driver runs inside the ApplicationMaster, which reports a failed application (with
      // this message) only if main ends by an exception; the one-line error is on its stderr.
      throw new IllegalStateException(
          "spindex " + args[0] + " failed with exit code " + code + " (see the driver's stderr)");
    }
    System.exit(code);
  }

  /**
   * Runs {@code args[0]} with the rest of {@code args} in {@code spark}, prints its summary to
   * {@code out} or one line to {@code err} ({@link Dispatcher}), and returns the exit code.
   */
  static int run(SparkSession spark, String[] args, PrintStream out, PrintStream err) {
    return JOBS.run(args, out, err, (job, rest) -> report(run(spark, job, rest), out));
  }

  private static int report(JobResult r, PrintStream out) {
    out.println(r.report.toText());
    return r.ok ? 0 : 1;
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
        return runLines(sc, lookup, a);
      case EpTransformDefinition.NAME:
        EpTransformDefinition transform = new EpTransformDefinition();
        return runLines(sc, transform, SparkLineJobs.parse(sc, transform, args));
      case EpDiffDefinition.NAME:
        return SparkEpDiff.run(sc, args);
      case LoaderCompareJob.NAME:
        return LoaderCompareJob.run(spark, args);
      case BuildIndexDefinition.NAME:
        return BuildIndexJob.run(spark, args);
      case GenLogsJob.NAME:
        return GenLogsJob.run(spark, args);
      default:
        throw new UsageException(
            "unknown job '" + job + "': expected one of " + String.join(", ", JOBS.names()));
    }
  }

  private static <P extends LineJob.Plan> JobResult runLines(
      JavaSparkContext sc, LineJob<P> job, JobArgs args) throws IOException {
    SparkLineJobs.Run<P> run = SparkLineJobs.plan(sc, job, args);
    SparkLineJobs.runSplits(job, run, null);
    return SparkLineJobs.finish(job, run);
  }

  static String usage() {
    return JOBS.usage();
  }

  /**
   * The options text {@code <job> --help} asks for, or null when {@code args} do not ask for it:
   * the option tables are the job definitions', so no SparkContext is needed to print it.
   */
  static String help(String job, String[] args) {
    if (!java.util.Arrays.asList(args).contains("--help")
        && !java.util.Arrays.asList(args).contains("-h")) {
      return null;
    }
    java.util.List<io.spindex.job.JobOption<?>> options;
    switch (job) {
      case IpLookupDefinition.NAME:
        options = new IpLookupDefinition().options();
        break;
      case EpTransformDefinition.NAME:
        options = new EpTransformDefinition().options();
        break;
      case EpDiffDefinition.NAME:
        options = new EpDiffDefinition().options();
        break;
      case LoaderCompareJob.NAME:
        options = io.spindex.job.LoaderCompareDefinition.OPTIONS;
        break;
      case BuildIndexDefinition.NAME:
        options = BuildIndexDefinition.OPTIONS;
        break;
      case GenLogsJob.NAME:
        options = GenLogsJob.OPTIONS;
        break;
      default:
        return null;
    }
    try {
      JobArgs.parse(job, options, args, k -> null, SparkLineJobs.HINT);
    } catch (UsageException e) {
      return e.isHelp() ? e.getMessage() : null; // another mistake: the job says it, as before
    }
    return null;
  }
}
