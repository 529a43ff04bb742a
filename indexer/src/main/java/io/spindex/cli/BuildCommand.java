/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.builder.BuildReport;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.builder.OverlapPolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
        names = "--no-prefix-table",
        negatable = false,
        description = "Leave out the /16 prefix table (smaller by 256 KiB, slower lookups).")
    boolean noPrefixTable;

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

    Long createdMillis() {
      String epoch = System.getenv("SOURCE_DATE_EPOCH");
      return epoch == null || epoch.isEmpty() ? null : Long.parseLong(epoch.trim()) * 1000;
    }

    int report(PrintWriter out, PrintWriter err, BuildReport r, Path written) {
      for (String s : r.rejectSamples()) {
        err.println("rejected " + s);
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
        "Build an IPv4 set from IP lists: one dotted quad per line; white space trimmed; blank"
            + " lines and # comments skipped; duplicates removed; other lines rejected by reason."
      })
  static final class Ips implements Callable<Integer> {
    @Mixin Common common;

    @Option(names = "--threads", description = "Parser threads (default: all processors).")
    Integer threads;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      IpSetBuilder b = new IpSetBuilder().strict(common.strict).prefixTable(!common.noPrefixTable);
      b.threads(EpCommand.threads(threads));
      if (common.createdMillis() != null) {
        b.createdMillis(common.createdMillis());
      }
      Path out = common.output();
      BuildReport r;
      try (Progress p = new Progress("reading", common.totalBytes())) {
        r = b.progress(p.counter()).build(common.inputs, out);
      }
      return common.report(spec.commandLine().getOut(), spec.commandLine().getErr(), r, out);
    }
  }

  @Command(
      name = "ranges",
      mixinStandardHelpOptions = true,
      description = {
        "Build an IPv4 range index. Lines: start<d>end<d>label (dotted quads or unsigned decimal"
            + " integers, optionally double-quoted) or a.b.c.d/len<d>label. The label is the rest"
            + " of the line, byte for byte. A first line that is not a range is a header and is"
            + " skipped."
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
        paramLabel = "NAME,...",
        split = ",",
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
        names = "--label-delimiter",
        paramLabel = "D",
        defaultValue = "|",
        description = "What separates the label fields (default '|').")
    String labelDelimiter;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      IpRangeBuilder b =
          new IpRangeBuilder()
              .strict(common.strict)
              .prefixTable(!common.noPrefixTable)
              .onOverlap(OverlapPolicy.parse(onOverlap));
      if (labelFields != null && labelFieldsFromHeader) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(), "--label-fields and --label-fields-from-header exclude each other");
      }
      if (labelFields != null) {
        b.labelFields(labelFields, labelDelimiter);
      }
      if (labelFieldsFromHeader) {
        b.labelFieldsFromHeader();
      }
      if (delimiter != null) {
        b.delimiter(parseDelimiter(delimiter));
      }
      if (common.createdMillis() != null) {
        b.createdMillis(common.createdMillis());
      }
      Path out = common.output();
      BuildReport r;
      try (Progress p = new Progress("reading", common.totalBytes())) {
        r = b.progress(p.counter()).build(common.inputs, out);
      }
      return common.report(spec.commandLine().getOut(), spec.commandLine().getErr(), r, out);
    }

    static char parseDelimiter(String s) {
      if (s.equals("tab") || s.equals("\\t")) {
        return '\t';
      }
      if (s.length() != 1) {
        throw new IllegalArgumentException(
            "--delimiter takes one character or 'tab', not '" + s + "'");
      }
      return s.charAt(0);
    }
  }
}
