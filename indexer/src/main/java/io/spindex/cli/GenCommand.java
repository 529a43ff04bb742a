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

  @Command(
      name = "ips",
      mixinStandardHelpOptions = true,
      description = "Random IPv4 list text, one address per line (26,123,456 lines ~ 355 MB).")
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

    @Override
    public Integer call() throws IOException {
      out.write(new IpListGenerator(count, out.seed, malformed)::writeTo);
      return 0;
    }
  }

  @Command(
      name = "ranges",
      mixinStandardHelpOptions = true,
      description = "Sorted, non-overlapping labelled IPv4 ranges, like a region database.")
  static final class Ranges implements Callable<Integer> {
    @picocli.CommandLine.Mixin Out out;

    @Option(names = "--count", defaultValue = "700000", description = "Ranges (default 700000).")
    int count;

    @Option(
        names = "--format",
        defaultValue = "range",
        description = "range (start|end|label), csv (header + start,end,label) or cidr.")
    String format;

    @Override
    public Integer call() throws IOException {
      out.write(new RangeGenerator(count, out.seed, RangeGenerator.Format.parse(format))::writeTo);
      return 0;
    }
  }
}
