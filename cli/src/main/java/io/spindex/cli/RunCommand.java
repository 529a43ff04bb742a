/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.cli.local.LocalJobs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code spindex run <job> [options]}: a job of the job jars (ip-lookup, ep-transform, ep-diff)
 * with the same options, run on this machine into the same output layout ({@link LocalJobs}).
 */
@Command(
    name = "run",
    description = {
      "Run a job of the Spark and MapReduce job jars on this machine, with the same options and"
          + " the same outputs (OUT/part-00000, OUT/_rejects/, OUT/_summary.json): ip-lookup,"
          + " ep-transform, ep-diff. 'spindex run --help' lists them, 'spindex run <job> --help'"
          + " lists a job's options."
    })
final class RunCommand implements Callable<Integer> {
  @Unmatched List<String> args = new ArrayList<>();

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    // The job's few lines (its summary, or one line of what went wrong) through picocli's writers.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        LocalJobs.main(
            args.toArray(new String[0]),
            Runtime.getRuntime().availableProcessors(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    spec.commandLine().getOut().print(out.toString(StandardCharsets.UTF_8));
    spec.commandLine().getOut().flush();
    // A job's messages quote values whole: each line clipped as the command's own messages are.
    for (String line : err.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!line.isEmpty()) {
        spec.commandLine().getErr().println(io.spindex.text.Clip.message(line));
      }
    }
    spec.commandLine().getErr().flush();
    return exit;
  }
}
