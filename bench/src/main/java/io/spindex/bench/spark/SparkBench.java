/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench.spark;

import io.spindex.job.Dispatcher;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.UsageException;
import io.spindex.lookup.Report;
import java.io.PrintStream;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The Spark jobs that only measure, behind {@code scripts/bench-spark}: {@code identity} (Spark's
 * own pass over the lines, the baseline of ip-lookup's throughput) and {@code readiness} (time to
 * the first lookup per executor, holder against broadcast). Not in the job jar: this class and the
 * jobs are submitted as their own small jar (the bench module's {@code -spark} jar) with the job
 * jar of the Spark line on {@code --jars}, which gives them Spindex. They use the Java API of Spark
 * only ({@link JavaSparkContext}), so one build runs on every Spark line.
 *
 * <p>Prints the job's summary like the job jar does (a {@code seconds} line for the scripts to
 * read); exit 0, 1 when a job fails, 2 for a usage mistake.
 */
public final class SparkBench {
  static final Dispatcher JOBS =
      new Dispatcher("spark-submit --class " + SparkBench.class.getName())
          .job(IdentityJob.NAME, "copy lines unchanged (Spark's own pass, strings or bytes)")
          .job(
              ReadinessJob.NAME,
              "time to first lookup per executor: holder per loader vs broadcast");

  private SparkBench() {}

  public static void main(String[] args) {
    int code =
        JOBS.run(
            args,
            System.out,
            System.err,
            (job, rest) -> {
              JavaSparkContext sc =
                  new JavaSparkContext(new SparkConf().setAppName("spindex bench " + job));
              try {
                return run(sc, job, rest, System.out);
              } finally {
                sc.stop();
              }
            });
    if (code != 0) {
      System.exit(code);
    }
  }

  /** Runs {@code job} with {@code args} in {@code sc} and prints its summary to {@code out}. */
  static int run(JavaSparkContext sc, String job, String[] args, PrintStream out) throws Exception {
    out.println(report(sc, job, args).toText());
    return 0;
  }

  /** Runs {@code job} with {@code args} in {@code sc}; returns its summary. */
  static Report report(JavaSparkContext sc, String job, String[] args) throws Exception {
    switch (job) {
      case IdentityJob.NAME:
        return IdentityJob.run(sc, args);
      case ReadinessJob.NAME:
        return ReadinessJob.run(sc, args);
      default:
        throw new UsageException(
            "unknown job '" + job + "': expected one of " + String.join(", ", JOBS.names()));
    }
  }

  /** Parses {@code args} against {@code options} (no defaults from the Spark configuration). */
  static JobArgs parse(String job, List<JobOption<?>> options, String[] args) {
    return JobArgs.parse(job, options, args, null, "(scripts/bench-spark passes every option.)");
  }
}
