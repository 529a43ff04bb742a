/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.cli.local.LocalEpJobs;
import io.spindex.ep.DiffCounts;
import io.spindex.ep.EpDiff;
import io.spindex.index.IndexKind;
import io.spindex.index.ProductIndex;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import io.spindex.job.DistinctPaths;
import io.spindex.text.InputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code spindex ep diff}: the summary EP of today's full EP against yesterday's index. */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
      "Summary EP: today's full EP against yesterday's product index (spindex build products)."
          + " Rows of new ids get class I, rows whose price_pc, shipping or content hash changed"
          + " get U, ids gone get D (id only); all get update_time. Columns: today's, then class"
          + " and update_time."
    })
final class EpDiffCommand implements Callable<Integer> {
  @Parameters(paramLabel = "TODAY", description = "Today's full EP file (.gz allowed).")
  Path today;

  @Option(
      names = "--yesterday",
      required = true,
      paramLabel = "INDEX",
      description = "Yesterday's product index.")
  Path yesterday;

  @Option(
      names = {"-o", "--output"},
      required = true,
      paramLabel = "OUT",
      description = "Summary EP to write (atomically).")
  Path out;

  @CommandLine.Mixin EpCommand.Run run;

  @Option(
      names = "--update-time",
      paramLabel = "TIME",
      description = "update_time of every row, yyyy-MM-dd HH:mm:ss (default: now, local time).")
  String updateTime;

  @Option(
      names = "--loader",
      defaultValue = "nio",
      description = "How to load the index: io, nio (default) or mapped.")
  String loader;

  @Option(
      names = "--max-line-bytes",
      defaultValue = "65536",
      description = "Longest accepted line in bytes (default 65536).")
  int maxLineBytes;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    String time = updateTime != null ? updateTime : LocalDateTime.now().format(EpDiff.UPDATE_TIME);
    new DistinctPaths()
        .input("input", today)
        .input("--yesterday", yesterday)
        .output("-o", out)
        .output("--rejects", run.rejectsFor(out))
        .check();
    long t0 = System.nanoTime();
    IndexHolder.Acquired a = IndexHolder.acquire(yesterday, Loader.byName(loader));
    if (a.index().kind() != IndexKind.PRODUCTS) {
      throw new InputException(
          yesterday
              + ": "
              + a.index().kind().description()
              + ", not a product index (build one with spindex build products)");
    }
    ProductIndex index = a.index().asProducts();
    Path rej = run.rejectsFor(out);
    LocalEpJobs.Result<DiffCounts> r =
        LocalEpJobs.diff(today, yesterday, loader, out, rej, time, maxLineBytes, run.threads());
    double secs = (System.nanoTime() - t0) / 1e9;
    PrintWriter o = spec.commandLine().getOut();
    o.println("wrote " + out + ", rejects " + rej);
    o.printf(
        Locale.ROOT,
        "%-44s %,14d  (loaded in %.3f s)%n",
        "yesterday's products",
        index.size(),
        a.loadNanos() / 1e9);
    o.print(r.counts.format());
    EpCommand.printElapsed(o, today, r.counts.in(), secs, r.counts.reconciles());
    return 0;
  }
}
