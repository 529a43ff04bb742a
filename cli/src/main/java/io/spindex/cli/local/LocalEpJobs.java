/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli.local;

import io.spindex.annotations.Internal;
import io.spindex.ep.DiffCounts;
import io.spindex.ep.EpCounts;
import io.spindex.ep.EpDiff;
import io.spindex.ep.TransformSpec;
import io.spindex.ep.feed.EpHeader;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.text.Clip;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code spindex ep transform} and {@code spindex ep diff}: {@link EpTransformDefinition} and
 * {@link EpDiffDefinition} run by the {@link LocalDriver} into one EP file (one header line, LF
 * line ends) and one rejects file, both written atomically. Messages name the input as given.
 */
@Internal
public final class LocalEpJobs {
  private LocalEpJobs() {}

  /** What a run did. */
  public static final class Result<C> {
    public final C counts;
    public final EpHeader outputHeader;

    /** Bytes of the output file, its header included. */
    public final long bytesOut;

    Result(C counts, EpHeader outputHeader, long bytesOut) {
      this.counts = counts;
      this.outputHeader = outputHeader;
      this.bytesOut = bytesOut;
    }
  }

  /**
   * Transforms {@code in} with the spec in {@code specFile} into {@code out}; rejected rows go to
   * {@code rejects} with their reason and position ({@link io.spindex.text.Rejects}).
   */
  public static Result<EpCounts> transform(
      Path in, Path out, Path rejects, Path specFile, int threads) throws IOException {
    return transform(in, out, rejects, specFile, threads, LocalDriver.CHUNK_BYTES);
  }

  /** As above with a given chunk size (tests: small chunks put lines across chunk edges). */
  public static Result<EpCounts> transform(
      Path in, Path out, Path rejects, Path specFile, int threads, int chunkBytes)
      throws IOException {
    return transform(in, out, rejects, specFile, threads, chunkBytes, true);
  }

  /**
   * As above; without {@code allowEmpty}, a run that writes no row (an empty feed, every row
   * rejected) fails with an {@link io.spindex.text.InputException} and leaves {@code out} as it was
   * (its rejects are written).
   */
  public static Result<EpCounts> transform(
      Path in,
      Path out,
      Path rejects,
      Path specFile,
      int threads,
      int chunkBytes,
      boolean allowEmpty)
      throws IOException {
    TransformSpec spec = TransformSpec.load(specFile);
    LocalDriver.Options o =
        new LocalDriver.Options()
            .threads(threads)
            .maxLineBytes(spec.maxLineBytes())
            .chunkBytes(chunkBytes);
    EpTransformDefinition job = new EpTransformDefinition();
    JobArgs args =
        job.parse(
            new String[] {
              "--input", in.toString(),
              "--output", out.toString(),
              "--spec", specFile.toString(),
              "--index-ship", "local",
              "--single-file", "true"
            },
            k -> null,
            "");
    // The spec checked against the input's header as the command always did: a spec that does not
    // fit the feed is the spec's error (exit 2), not wrapped as the job's.
    spec.compile(new LocalDriver.Local(o).firstEpHeader(in.toString()));
    LocalDriver.Run<EpTransformDefinition.Plan> r =
        LocalDriver.toFiles(
            job,
            args,
            o,
            out,
            rejects,
            run ->
                allowEmpty
                    ? null
                    : nothingWritten(in, out, rejects, EpCounts.of(spec.stepLabels(), run.totals)));
    return new Result<>(
        EpCounts.of(spec.stepLabels(), r.totals), header(r.plan), java.nio.file.Files.size(out));
  }

  /**
   * Diffs today's full EP {@code today} against yesterday's product index into a summary EP {@code
   * out} (I and U rows in input order, then the D rows in index order) and {@code rejects}.
   *
   * @param loader how tasks load the index ({@code io}, {@code nio}, {@code mapped})
   */
  public static Result<DiffCounts> diff(
      Path today,
      Path yesterday,
      String loader,
      Path out,
      Path rejects,
      String updateTime,
      int maxLineBytes,
      int threads)
      throws IOException {
    EpDiff.checkUpdateTime(updateTime);
    LocalDriver.Options o = new LocalDriver.Options().threads(threads).maxLineBytes(maxLineBytes);
    EpDiffDefinition job = new EpDiffDefinition();
    JobArgs args =
        job.parse(
            new String[] {
              "--input",
              today.toString(),
              "--yesterday",
              yesterday.toString(),
              "--output",
              out.toString(),
              "--update-time",
              updateTime,
              "--loader",
              loader,
              "--max-line-bytes",
              String.valueOf(maxLineBytes),
              "--index-ship",
              "local",
              "--single-file",
              "true"
            },
            k -> null,
            "");
    LocalDriver.Run<EpDiffDefinition.Plan> r = LocalDriver.toFiles(job, args, o, out, rejects);
    return new Result<>(DiffCounts.of(r.totals), header(r.plan), java.nio.file.Files.size(out));
  }

  /** Why a transform that wrote no row must not replace {@code out}; null when it wrote one. */
  static String nothingWritten(Path in, Path out, Path rejects, EpCounts c) {
    if (c.out() > 0) {
      return null;
    }
    StringBuilder sb = new StringBuilder(Clip.of(in.toString(), 80)).append(": nothing accepted (");
    if (c.in() == 0) {
      sb.append("no rows after the header");
    } else {
      sb.append(c.in()).append(c.in() == 1 ? " row, rejected" : " rows, all rejected");
      java.util.List<java.util.Map.Entry<String, Long>> top =
          new java.util.ArrayList<>(c.reasons().entrySet());
      top.sort(java.util.Map.Entry.<String, Long>comparingByValue().reversed());
      for (int i = 0; i < Math.min(3, top.size()); i++) {
        sb.append(i == 0 ? ": " : ", ").append(Clip.of(top.get(i).getKey(), 40));
        sb.append(' ').append(top.get(i).getValue());
      }
      sb.append("; see ").append(Clip.of(rejects.toString(), 80));
    }
    sb.append("); ").append(Clip.of(out.toString(), 80));
    sb.append(java.nio.file.Files.exists(out) ? " left as it was" : " not written");
    return sb.append(" (--allow-empty writes the header alone)").toString();
  }

  private static EpHeader header(LineJob.Plan p) throws IOException {
    byte[] h = p.singleFileHeader();
    return EpHeader.parse(h, 0, h.length - 1, "output header");
  }
}
