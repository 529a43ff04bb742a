/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.cli.local.LocalDriver;
import io.spindex.cli.local.LocalEpJobs;
import io.spindex.ep.EpCounts;
import io.spindex.job.DistinctPaths;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code spindex ep transform|diff}: EP product feeds on one machine. */
@Command(
    name = "ep",
    mixinStandardHelpOptions = true,
    description = "EP product feeds: transform with a spec, diff against yesterday's index.",
    subcommands = {EpCommand.Transform.class, EpDiffCommand.class})
final class EpCommand {

  /** The options of every EP command that writes a feed, beside its {@code -o}. */
  static final class Run {
    @Option(
        names = "--rejects",
        paramLabel = "FILE",
        description = "Rejects file (default: OUT.rejects.tsv).")
    Path rejects;

    @Option(names = "--threads", description = "Worker threads (default: all processors).")
    Integer threads;

    /** Where rejects go: the option, or beside the output. */
    Path rejectsFor(Path out) {
      return rejects != null ? rejects : Paths.get(out.toString() + ".rejects.tsv");
    }

    int threads() {
      return EpCommand.threads(threads);
    }
  }

  /** The thread count an option gives: all processors when not given, at least 1 when given. */
  static int threads(Integer given) {
    if (given == null) {
      return Runtime.getRuntime().availableProcessors();
    }
    if (given < 1) {
      throw new IllegalArgumentException("--threads must be at least 1, not " + given);
    }
    return given;
  }

  /** The last lines of an EP command's summary: elapsed time and rates, and a failed reconcile. */
  static void printElapsed(PrintWriter o, Path in, long rows, double secs, boolean reconciles)
      throws IOException {
    long bytes = java.nio.file.Files.size(in);
    o.printf(
        Locale.ROOT,
        "%-44s %14.3f  (%,.0f MB/s, %,.0f rows/s)%n",
        "elapsed s",
        secs,
        bytes / 1e6 / secs,
        rows / secs);
    if (!reconciles) {
      o.println("WARNING: counts do not reconcile (in != out + rejected): please report");
    }
    o.flush();
  }

  @Command(
      name = "transform",
      mixinStandardHelpOptions = true,
      description = {
        "Apply a transform spec (HOCON, see conf/ep-transform.example.conf) to an EP file: one EP"
            + " file out (one header line, LF line ends), rejected rows to a rejects file"
            + " (source, byte offset, reason, detail, line: docs/BAD-INPUT.md). Counts per step and per reason; in = out + rejected."
      })
  static final class Transform implements Callable<Integer> {
    @Parameters(paramLabel = "IN", description = "EP file (UTF-8 TSV with header; .gz allowed).")
    Path in;

    @Option(
        names = {"-o", "--output"},
        required = true,
        paramLabel = "OUT",
        description = "EP file to write (atomically).")
    Path out;

    @Option(names = "--spec", required = true, paramLabel = "FILE", description = "Spec file.")
    Path specFile;

    @Option(
        names = "--allow-empty",
        description =
            "Write OUT even when no row is accepted (an empty feed, every row rejected); without"
                + " it such a run fails (exit 1), writes the rejects and leaves OUT as it was.")
    boolean allowEmpty;

    @CommandLine.Mixin Run run;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      Path rej = run.rejectsFor(out);
      new DistinctPaths()
          .input("input", in)
          .input("--spec", specFile)
          .output("-o", out)
          .output("--rejects", rej)
          .check();
      long t0 = System.nanoTime();
      LocalEpJobs.Result<EpCounts> r =
          LocalEpJobs.transform(
              in, out, rej, specFile, run.threads(), LocalDriver.CHUNK_BYTES, allowEmpty);
      double secs = (System.nanoTime() - t0) / 1e9;
      PrintWriter o = spec.commandLine().getOut();
      o.println("wrote " + out + " (" + r.outputHeader.size() + " columns), rejects " + rej);
      o.print(r.counts.format());
      printElapsed(o, in, r.counts.in(), secs, r.counts.reconciles());
      return 0;
    }
  }
}
