/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.fetch.FetchOptions;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.UsageException;
import io.spindex.update.UpdateConf;
import io.spindex.update.UpdateResult;
import io.spindex.update.Updater;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code spindex update}: keeps databases current. {@code update ranges|ips|products SOURCE... -o
 * OUT.spx [build options]} for one database, {@code update --conf FILE [NAME...]} for those a
 * configuration file declares, {@code update --rollback OUT.spx} to go back one version. Exit 0
 * when every database is current (updated or unchanged), 1 when an update failed (its previous
 * version still serves), 2 for a usage mistake.
 */
@Command(
    name = "update",
    mixinStandardHelpOptions = true,
    description = {
      "Keep databases current: download their sources only when they changed (ETag and"
          + " Last-Modified, the .sha256 beside a file, MaxMind's download form for"
          + " maxmind:EDITION), build, verify, and publish the new version at OUT.spx by rename,"
          + " keeping the last versions in OUT.spx.versions/ (jobs, queries and streams that still"
          + " read one keep answering from it). One updater at a time per database.",
      "MaxMind credentials: MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY, or a GeoIP.conf"
          + " (--geoip-conf; /etc/GeoIP.conf when it exists). SPINDEX_MAXMIND_URL replaces"
          + " https://download.maxmind.com."
    },
    subcommands = {
      UpdateCommand.Ips.class,
      UpdateCommand.Ranges.class,
      UpdateCommand.Products.class
    })
final class UpdateCommand implements Callable<Integer> {
  @Option(
      names = "--conf",
      paramLabel = "FILE",
      description = "Update the databases this file declares (conf/spindex-update.example.conf).")
  Path conf;

  @Option(
      names = "--rollback",
      paramLabel = "OUT.spx",
      description = "Publish the version kept before the current one, and hold the current back.")
  String rollback;

  @Parameters(
      paramLabel = "NAME",
      arity = "0..*",
      description = "With --conf: the databases to update (default: every one).")
  List<String> names = new ArrayList<>();

  @Mixin Run run;

  @Spec CommandLine.Model.CommandSpec spec;

  /** Options of every update. */
  static final class Run {
    @Option(names = "--json", description = "One JSON object a database, on one line.")
    boolean json;

    @Option(names = "--dry-run", description = "Say what would be done; change nothing.")
    boolean dryRun;

    @Option(
        names = "--lock-wait",
        paramLabel = "SECONDS",
        description = "How long to wait for another updater of the same database (default 300).")
    Long lockWaitSeconds;

    @Option(
        names = "--geoip-conf",
        paramLabel = "FILE",
        description = "A GeoIP.conf with AccountID and LicenseKey, for maxmind: sources.")
    Path geoipConf;

    @Option(
        names = "--retries",
        paramLabel = "N",
        defaultValue = "5",
        description = "Retries per request after errors without progress (default 5).")
    int retries;

    Updater updater(Duration defaultWait, Path defaultGeoipConf, PrintWriter notices) {
      return new Updater(
          System.getenv(),
          FetchOptions.builder().retries(retries).build(),
          geoipConf != null ? geoipConf : defaultGeoipConf,
          lockWaitSeconds != null ? Duration.ofSeconds(lockWaitSeconds) : defaultWait,
          dryRun,
          notices);
    }

    /** Prints each result and returns the exit status: 1 when any failed. */
    int report(CommandLine cl, List<UpdateResult> results) {
      PrintWriter out = cl.getOut();
      int status = 0;
      for (UpdateResult r : results) {
        if (json) {
          out.println(r.json());
        } else {
          out.print(r.text());
        }
        status = Math.max(status, r.exitCode());
      }
      out.flush();
      return status;
    }
  }

  @Override
  public Integer call() throws IOException {
    CommandLine cl = spec.commandLine();
    if (rollback != null && conf != null) {
      throw new UsageException("update: --rollback and --conf exclude each other");
    }
    if (rollback != null) {
      if (!names.isEmpty()) {
        throw new UsageException("update --rollback: unexpected argument '" + names.get(0) + "'");
      }
      Updater u = run.updater(UpdateConf.DEFAULT_LOCK_WAIT, null, cl.getErr());
      return run.report(cl, List.of(u.rollback(rollback)));
    }
    if (conf == null) {
      throw new UsageException(
          "update: expected a kind (ranges, ips, products) with sources and -o, --conf FILE or"
              + " --rollback OUT.spx");
    }
    UpdateConf c = UpdateConf.read(conf);
    for (String n : names) {
      if (!c.databases.containsKey(n)) {
        throw new UsageException(
            "update: no database '"
                + n
                + "' in "
                + conf
                + " (it declares "
                + String.join(", ", c.databases.keySet())
                + ")");
      }
    }
    Updater u = run.updater(c.lockWait, c.geoipConf, cl.getErr());
    List<UpdateResult> results = new ArrayList<>();
    c.databases.forEach(
        (name, db) -> {
          if (names.isEmpty() || names.contains(name)) {
            results.add(u.update(db));
          }
        });
    return run.report(cl, results);
  }

  /**
   * {@code update ips|ranges|products SOURCE... -o OUT.spx}: one database from the command line.
   */
  abstract static class Kind implements Callable<Integer> {
    @Parameters(
        paramLabel = "SOURCE",
        arity = "1..*",
        description = "Local files, http(s) URLs and maxmind:EDITION ids, in build order.")
    List<String> sources;

    @Option(
        names = {"-o", "--output"},
        paramLabel = "OUT.spx",
        required = true,
        description = "Where the current version is published (replaced by rename).")
    String output;

    @Option(
        names = "--keep",
        paramLabel = "N",
        defaultValue = "" + UpdateConf.DEFAULT_KEEP,
        description = "Versions kept in OUT.spx.versions/, the current one included (default 3).")
    int keep;

    @Option(
        names = "--allow-empty",
        description = "Publish a version with no rows (else an update that gives none fails).")
    boolean allowEmpty;

    @Mixin Run run;

    @Spec CommandLine.Model.CommandSpec spec;

    abstract String kind();

    @Override
    public Integer call() {
      CommandLine cl = spec.commandLine();
      String job = "update " + kind();
      Map<String, String> values = buildValues(spec);
      JobArgs args = UpdateConf.args(job, kind(), values::get);
      Updater.Database db =
          new Updater.Database(sources, output, keep, allowEmpty, UpdateConf.build(args));
      Updater u = run.updater(UpdateConf.DEFAULT_LOCK_WAIT, null, cl.getErr());
      return run.report(cl, List.of(u.update(db)));
    }
  }

  /**
   * Declares the build options of each kind of update on its command: the build's own option table
   * ({@link UpdateConf#buildOptions}), so that {@code spindex update ranges} takes them as {@code
   * spindex build ranges} does (a flag alone, a list option repeated) and lists them in its help.
   */
  static void declareBuildOptions(CommandLine update) {
    for (CommandLine kind : update.getSubcommands().values()) {
      CommandLine.Model.CommandSpec spec = kind.getCommandSpec();
      for (JobOption<?> o : UpdateConf.buildOptions(kind.getCommandName())) {
        CommandLine.Model.OptionSpec.Builder b =
            CommandLine.Model.OptionSpec.builder("--" + o.name())
                .description("Build option: " + o.description() + ".");
        if (o.isFlag()) {
          b.arity("0..1").fallbackValue("true").type(String.class).paramLabel("true|false");
        } else if ("none".equals(o.defaultValue())) {
          b.arity("1").type(List.class).auxiliaryTypes(String.class).paramLabel("VALUE");
        } else {
          b.arity("1").type(String.class).paramLabel("VALUE");
        }
        spec.addOption(b.build());
      }
    }
  }

  /**
   * The build options given to a kind's command, by name (a repeated one joined by commas): those
   * of the build's option table that {@link #declareBuildOptions} declared and the user gave.
   */
  static Map<String, String> buildValues(CommandLine.Model.CommandSpec spec) {
    Map<String, String> values = new HashMap<>();
    for (JobOption<?> o : UpdateConf.buildOptions(spec.name())) {
      Object v = spec.findOption("--" + o.name()).getValue();
      if (v instanceof List) {
        List<?> l = (List<?>) v;
        if (!l.isEmpty()) {
          values.put(
              o.name(), String.join(",", l.stream().map(String::valueOf).toArray(String[]::new)));
        }
      } else if (v != null) {
        values.put(o.name(), String.valueOf(v));
      }
    }
    return values;
  }

  @Command(name = "ips", mixinStandardHelpOptions = true, description = "Keep an IP set current.")
  static final class Ips extends Kind {
    @Override
    String kind() {
      return "ips";
    }
  }

  @Command(
      name = "ranges",
      mixinStandardHelpOptions = true,
      description = "Keep an IP range index current (text, .mmdb or maxmind:EDITION sources).")
  static final class Ranges extends Kind {
    @Override
    String kind() {
      return "ranges";
    }
  }

  @Command(
      name = "products",
      mixinStandardHelpOptions = true,
      description = "Keep a product index current (full EP feeds).")
  static final class Products extends Kind {
    @Override
    String kind() {
      return "products";
    }
  }
}
