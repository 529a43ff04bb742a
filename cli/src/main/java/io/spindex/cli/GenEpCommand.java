/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.gen.EpGenerator;
import io.spindex.job.DistinctPaths;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code spindex gen ep}: a synthetic Korean EP feed, and optionally the next day's. */
@Command(
    name = "ep",
    mixinStandardHelpOptions = true,
    description = {
      "A deterministic EP feed: Korean product rows of 600-750 bytes (header + 26 fields, one of"
          + " them unknown to EP), a fraction of them with one defect each (every kind in turn).",
      "With --next-day, also the next day's full feed (no defects) with known inserts, updates"
          + " and deletes, printed as counts."
    })
final class GenEpCommand implements Callable<Integer> {
  @CommandLine.Mixin GenCommand.Out out;

  @Option(names = "--rows", defaultValue = "100000", description = "Products (default 100000).")
  long rows;

  @Option(
      names = "--defects",
      defaultValue = "0",
      paramLabel = "FRACTION",
      description = "Fraction of rows with a defect, of every kind in turn (default 0).")
  double defects;

  @Option(
      names = "--next-day",
      paramLabel = "FILE",
      description = "Also write the next day's feed here.")
  Path nextDay;

  @Option(
      names = "--inserts",
      defaultValue = "0.03",
      description = "Next day: new products per product (default 0.03).")
  double inserts;

  @Option(
      names = "--updates",
      defaultValue = "0.05",
      description = "Next day: fraction of products changed (default 0.05).")
  double updates;

  @Option(
      names = "--deletes",
      defaultValue = "0.02",
      description = "Next day: fraction of products gone (default 0.02).")
  double deletes;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    new DistinctPaths().output("-o", out.output).output("--next-day", nextDay).check();
    EpGenerator g = new EpGenerator(rows, out.seed, defects);
    EpGenerator.Stats[] day1 = new EpGenerator.Stats[1];
    out.write(o -> day1[0] = g.writeTo(o));
    PrintWriter err = spec.commandLine().getErr();
    err.println("day 1: " + day1[0].format());
    if (nextDay != null) {
      GenCommand.Out next = new GenCommand.Out();
      next.output = nextDay;
      next.seed = out.seed;
      EpGenerator.Stats[] day2 = new EpGenerator.Stats[1];
      next.write(o -> day2[0] = g.writeNextDay(o, inserts, updates, deletes));
      err.println("day 2: " + day2[0].format());
    }
    err.flush();
    return 0;
  }
}
