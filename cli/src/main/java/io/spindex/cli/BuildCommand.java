/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.builder.BuildReport;
import io.spindex.builder.IndexBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.index.LabelSchema;
import io.spindex.job.BuildIndexDefinition;
import io.spindex.job.DistinctPaths;
import io.spindex.job.JobArgs;
import io.spindex.text.Clip;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code spindex build ips|ranges|products}: text side data to an index file. */
@Command(
    name = "build",
    mixinStandardHelpOptions = true,
    description = "Build an index file from text side data (IP lists, IP ranges, EP feeds).",
    subcommands = {BuildCommand.Ips.class, BuildCommand.Ranges.class, BuildProductsCommand.class})
final class BuildCommand {

  /** Options every build has. */
  static final class Common {
    @Option(
        names = {"-o", "--output"},
        paramLabel = "OUT.spx",
        description = "Index file to write (atomically). Default: the first input's name + .spx")
    Path output;

    @Option(names = "--strict", description = "Fail on the first rejected line.")
    boolean strict;

    @Option(
        names = "--allow-empty",
        description =
            "Write the index even when no line was accepted (an empty input, every line"
                + " rejected); without it such a build fails (exit 1) and leaves OUT as it was.")
    boolean allowEmpty;

    @Parameters(
        paramLabel = "IN",
        arity = "1..*",
        description = "Source text files, plain or gzip (.gz), read in this order.")
    List<Path> inputs;

    /** The index to write; never one of the inputs (a usage error, before anything is read). */
    Path output() throws IOException {
      Path out = output;
      if (out == null) {
        String name = inputs.get(0).getFileName().toString();
        name = name.replaceFirst("\\.gz$", "").replaceFirst("\\.[A-Za-z0-9]{1,5}$", "");
        out = Paths.get(name + ".spx");
      }
      new DistinctPaths().inputs(inputs).output("-o", out).check();
      return out;
    }

    long totalBytes() throws IOException {
      long n = 0;
      for (Path p : inputs) {
        n += Files.isRegularFile(p) ? Files.size(p) : 0;
      }
      return n;
    }

    /**
     * These options and a kind's, as the build-index job reads them ({@link
     * BuildIndexDefinition#OPTIONS}): one option table and one meaning of each value for every
     * engine that builds.
     *
     * @param kindOptions name, value pairs; a null value stays at its default
     */
    JobArgs definition(String kind, String... kindOptions) {
      List<String> a = new ArrayList<>();
      Collections.addAll(a, "--kind", kind, "--input", inputs.get(0).toString(), "--output", "-");
      Collections.addAll(a, "--strict", String.valueOf(strict));
      Collections.addAll(a, "--allow-empty", String.valueOf(allowEmpty));
      for (int i = 0; i < kindOptions.length; i += 2) {
        if (kindOptions[i + 1] != null) {
          Collections.addAll(a, "--" + kindOptions[i], kindOptions[i + 1]);
        }
      }
      return JobArgs.parse(
          "build " + kind, BuildIndexDefinition.OPTIONS, a.toArray(new String[0]), null, "");
    }

    /** Runs a build, showing progress, and reports it. */
    int run(CommandSpec spec, IndexBuilder<?> b) throws IOException {
      Path written = output();
      BuildReport r;
      try (Progress p = new Progress("reading", totalBytes())) {
        r = b.progress(p.counter()).build(inputs, written);
      }
      PrintWriter out = spec.commandLine().getOut();
      for (String s : r.rejectSamples()) {
        spec.commandLine().getErr().println(Clip.message("rejected " + s));
      }
      out.println("wrote " + written);
      out.print(r.format());
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "ips",
      mixinStandardHelpOptions = true,
      description = {
        "Build an IP set from IP lists: one address per line, IPv4 or IPv6 (an IPv4-mapped"
            + " address is its IPv4 address); white space trimmed; blank lines and # comments"
            + " skipped; duplicates removed; other lines rejected by reason."
      })
  static final class Ips implements Callable<Integer> {
    @Mixin Common common;

    @Option(names = "--threads", description = "Parser threads (default: all processors).")
    Integer threads;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      IpSetBuilder b = BuildIndexDefinition.setBuilder(common.definition("ips"));
      return common.run(spec, b.threads(EpCommand.threads(threads)));
    }
  }

  @Command(
      name = "ranges",
      mixinStandardHelpOptions = true,
      description = {
        "Build an IP range index, IPv4 and IPv6, from text or from MaxMind DB files (.mmdb,"
            + " also gzip-compressed; recognised by content). Lines: start<d>end<d>label"
            + " (addresses or unsigned decimal integers, optionally double-quoted) or"
            + " addr/len<d>label. The label is the rest of the line, byte for byte. A first line"
            + " that is not a range is a header and is skipped. Databases: every network, the"
            + " --field values of its record as typed label fields; several databases are joined"
            + " by address."
      })
  static final class Ranges implements Callable<Integer> {
    @Mixin Common common;

    @Option(
        names = "--delimiter",
        paramLabel = "C",
        description = "Field delimiter (default: detect tab, '|' or ',' per file). 'tab' for tab.")
    String delimiter;

    @Option(
        names = "--on-overlap",
        paramLabel = "POLICY",
        defaultValue = "fail",
        description =
            "fail (default, names both lines), narrowest (smallest containing range wins),"
                + " first or last (by input order).")
    String onOverlap;

    @Option(
        names = "--label-fields",
        paramLabel = "NAME[:TYPE]",
        split = LabelSchema.LIST_SPLIT,
        splitSynopsisLabel = ",", // the synopsis shows the comma, not the regex that splits
        description =
            "The fields a label is made of, e.g. country,region,city,isp: stored in the index"
                + " for spindex_lookup (a STRUCT of them) and inspect.")
    java.util.List<String> labelFields;

    @Option(
        names = "--label-fields-from-header",
        description =
            "Take the label fields from the input's header line (start,end,country,city gives"
                + " country,city; the file's delimiter splits labels into them).")
    boolean labelFieldsFromHeader;

    @Option(
        names = "--field",
        paramLabel = "NAME=PATH",
        description =
            "MaxMind DB inputs: a label field and the path of its value in each record, dotted"
                + " map keys and array indices (country=country.iso_code, city=city.names.en,"
                + " sub=subdivisions.0.iso_code); NAME=FILE:PATH takes it from one of several"
                + " databases. Repeatable. Without it, every key of flat records.")
    java.util.List<String> fields;

    @Option(
        names = "--allow-missing",
        description = "Keep a --field that no record has (NULL everywhere) instead of failing.")
    boolean allowMissing;

    @Option(
        names = "--label-delimiter",
        paramLabel = "D",
        defaultValue = "|",
        description = "What separates the label fields (default '|').")
    String labelDelimiter;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      JobArgs o =
          common.definition(
              "ranges",
              "delimiter",
              delimiter,
              "on-overlap",
              onOverlap,
              "label-fields",
              labelFields == null ? null : String.join(",", labelFields),
              "label-fields-from-header",
              String.valueOf(labelFieldsFromHeader),
              "label-delimiter",
              labelDelimiter,
              "field",
              fields == null ? null : String.join(",", fields),
              "allow-missing",
              String.valueOf(allowMissing));
      return common.run(spec, BuildIndexDefinition.rangeBuilder(o));
    }
  }
}
