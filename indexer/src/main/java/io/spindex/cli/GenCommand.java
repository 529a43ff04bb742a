/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.gen.IpListGenerator;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.AtomicFiles;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.zip.GZIPOutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code spindex gen ips|ranges}: deterministic synthetic side data for tests and benchmarks. */
@Command(
    name = "gen",
    mixinStandardHelpOptions = true,
    description = "Generate deterministic synthetic side data (same seed, same bytes).",
    subcommands = {GenCommand.Ips.class, GenCommand.Ranges.class, GenEpCommand.class})
final class GenCommand {

  /** Output and seed options of every generator. */
  static final class Out {
    @Option(
        names = {"-o", "--output"},
        paramLabel = "FILE",
        description = "File to write (.gz: gzip-compressed). Default: standard output.")
    Path output;

    @Option(names = "--seed", defaultValue = "42", description = "Random seed (default 42).")
    long seed;

    interface Body {
      void writeTo(OutputStream out) throws IOException;
    }

    /** Writes to a temporary file and renames it, like index builds, or to stdout. */
    void write(Body body) throws IOException {
      if (output == null) {
        OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
        body.writeTo(out);
        out.flush();
        return;
      }
      Path abs = output.toAbsolutePath();
      Path tmp = AtomicFiles.createTemp(abs);
      try {
        try (OutputStream raw = Files.newOutputStream(tmp);
            OutputStream out =
                abs.toString().endsWith(".gz")
                    ? new GZIPOutputStream(raw, 1 << 16)
                    : new BufferedOutputStream(raw, 1 << 16)) {
          body.writeTo(out);
        }
        AtomicFiles.commit(tmp, abs);
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
  }

  /** {@code --family 4|6|both}. */
  static final class Family {
    @Option(
        names = "--family",
        defaultValue = "4",
        paramLabel = "4|6|both",
        description =
            "Address family: 4 (default), 6 (realistic IPv6: blocks in the registries'"
                + " 2000::/3 regions) or both.")
    String family;

    int code() {
      switch (family) {
        case "4":
          return 4;
        case "6":
          return 6;
        case "both":
          return 46;
        default:
          throw new IllegalArgumentException(
              "--family: expected 4, 6 or both, not '" + family + "'");
      }
    }
  }

  @Command(
      name = "ips",
      mixinStandardHelpOptions = true,
      description = "Random IP list text, one address per line (26,123,456 IPv4 lines ~ 355 MB).")
  static final class Ips implements Callable<Integer> {
    @picocli.CommandLine.Mixin Out out;

    @Option(names = "--count", defaultValue = "1000000", description = "Lines (default 1000000).")
    long count;

    @Option(
        names = "--malformed",
        defaultValue = "0",
        paramLabel = "FRACTION",
        description = "Fraction of malformed lines, of every rejected kind (default 0).")
    double malformed;

    @picocli.CommandLine.Mixin Family family;

    @Override
    public Integer call() throws IOException {
      out.write(new IpListGenerator(count, out.seed, malformed).family(family.code())::writeTo);
      return 0;
    }
  }

  @Command(
      name = "ranges",
      mixinStandardHelpOptions = true,
      description = "Sorted, non-overlapping labelled IP ranges, like a region database.")
  static final class Ranges implements Callable<Integer> {
    @picocli.CommandLine.Mixin Out out;

    @Option(names = "--count", defaultValue = "700000", description = "Ranges (default 700000).")
    int count;

    @Option(
        names = "--format",
        defaultValue = "range",
        description = "range (start|end|label), csv (header + start,end,label) or cidr.")
    String format;

    @picocli.CommandLine.Mixin Family family;

    @Override
    public Integer call() throws IOException {
      RangeGenerator g = new RangeGenerator(count, out.seed, RangeGenerator.Format.parse(format));
      out.write(g.family(family.code())::writeTo);
      return 0;
    }
  }
}
