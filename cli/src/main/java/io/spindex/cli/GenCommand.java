/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.gen.IpListGenerator;
import io.spindex.gen.Queries;
import io.spindex.gen.RangeGenerator;
import io.spindex.index.AtomicFiles;
import io.spindex.index.IndexKind;
import io.spindex.index.IpRanges;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.Loader;
import io.spindex.job.DistinctPaths;
import io.spindex.text.InputException;
import io.spindex.text.Ipv4Text;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.PrimitiveIterator;
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
      new DistinctPaths().output("-o", output).check(); // a directory, a missing directory
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
      description = {
        "Random IP list text, one address per line (26,123,456 IPv4 lines ~ 355 MB): uniform"
            + " over the address space, or with --weighted-by, queries that all land in the"
            + " ranges of a range index."
      })
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

    @Option(
        names = "--weighted-by",
        paramLabel = "RANGES.spx",
        description =
            "Instead of uniform addresses: IPv4 addresses in the ranges of this range index, each"
                + " line picking a range (all equally likely) and then an address in it, so"
                + " every line is in a range, as lookups of real traffic mostly are. Not with"
                + " --malformed or --family 6|both.")
    Path weightedBy;

    @Override
    public Integer call() throws IOException {
      if (weightedBy == null) {
        out.write(new IpListGenerator(count, out.seed, malformed).family(family.code())::writeTo);
        return 0;
      }
      if (malformed != 0 || family.code() != 4) {
        throw new IllegalArgumentException(
            "--weighted-by makes IPv4 addresses in ranges: not with --malformed or --family "
                + family.family);
      }
      new DistinctPaths().input("--weighted-by", weightedBy).output("-o", out.output).check();
      SpindexIndex loaded = Loader.NIO.load(weightedBy);
      if (loaded.kind() != IndexKind.IPV4_RANGES || loaded.asRanges().size() == 0) {
        throw new InputException(
            weightedBy
                + ": not an index of IPv4 ranges (--weighted-by needs one, from build ranges)");
      }
      IpRanges ranges = loaded.asRanges();
      out.write(o -> writeAddresses(Queries.weighted(ranges, out.seed).iterator(), count, o));
      return 0;
    }

    private static void writeAddresses(PrimitiveIterator.OfInt addresses, long n, OutputStream o)
        throws IOException {
      byte[] buf = new byte[1 << 16];
      int at = 0;
      for (long i = 0; i < n; i++) {
        if (at > buf.length - 16) {
          o.write(buf, 0, at);
          at = 0;
        }
        at = Ipv4Text.format(addresses.nextInt(), buf, at);
        buf[at++] = '\n';
      }
      o.write(buf, 0, at);
      o.flush();
    }
  }

  @Command(
      name = "ranges",
      mixinStandardHelpOptions = true,
      description = {
        "Sorted, non-overlapping labelled IP ranges, like a region database. IPv4 ranges are"
            + " uniform over the address space (--shape uniform, the default) or shaped like the"
            + " published geo and ASN databases (--shape real: none in reserved space, dense in"
            + " a few /8s and sparse elsewhere, mostly /24 or smaller, labels of long-tailed"
            + " frequency; the same ranges in every format)."
      })
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

    @Option(
        names = "--shape",
        defaultValue = "uniform",
        paramLabel = "uniform|real",
        description =
            "Shape of the IPv4 ranges: uniform (default) or real. IPv6 ranges have one shape"
                + " (the routed space's): --shape real with --family 6 is a usage error, with"
                + " --family both it shapes the IPv4 lines.")
    String shape;

    @Override
    public Integer call() throws IOException {
      RangeGenerator.Shape s;
      try {
        s = RangeGenerator.Shape.parse(shape);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--shape: expected uniform or real, not '" + shape + "'");
      }
      if (s == RangeGenerator.Shape.REAL && family.code() == 6) {
        throw new IllegalArgumentException(
            "--shape real shapes IPv4 ranges: use it with --family 4 or both, not 6");
      }
      RangeGenerator g = new RangeGenerator(count, out.seed, RangeGenerator.Format.parse(format));
      out.write(g.family(family.code()).shape(s)::writeTo);
      return 0;
    }
  }
}
