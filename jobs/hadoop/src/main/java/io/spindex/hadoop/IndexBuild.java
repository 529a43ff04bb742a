/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.hadoop;

import io.spindex.annotations.Internal;
import io.spindex.builder.Assembled;
import io.spindex.index.IndexHeader;
import io.spindex.job.BuildIndexDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.job.UsageException;
import io.spindex.lookup.Report;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;

/**
 * One build-index run on Hadoop file systems, whatever engine parses and sorts: the inputs (their
 * files in name order, total size and the SHA-256 of their bytes, which the driver reads while the
 * tasks parse, as the command records it), the output and its work directory beside it ({@code
 * OUT.build/}: rejects, summary, the sort's key files), the times of the phases, and the end: the
 * index written atomically to its final path and the summary beside it.
 */
@Internal
public final class IndexBuild {
  public final JobArgs o;
  public final Configuration conf;
  public final List<FileStatus> files;
  public final long sourceBytes;
  public final Path out;
  public final Path work;
  private final CompletableFuture<byte[]> digest;
  private final long t0 = System.nanoTime();
  private final Map<String, Long> phases = new LinkedHashMap<>();
  private long lastPhase = t0;

  /** Lists the inputs, clears what an earlier build of this index left, starts the digest. */
  public IndexBuild(Configuration base, JobArgs o) throws IOException {
    this.o = o;
    this.conf = new Configuration(base);
    Path target = new Path(o.get(BuildIndexDefinition.OUTPUT));
    FileSystem outFs = target.getFileSystem(conf);
    this.out = outFs.makeQualified(target);
    this.work = new Path(out.getParent(), out.getName() + BuildIndexDefinition.WORK_SUFFIX);
    this.files = HadoopIo.inputFiles(conf, o.get(LineJob.INPUT));
    long bytes = 0;
    for (FileStatus f : files) {
      if (f.getPath().equals(out)) {
        throw new UsageException(
            BuildIndexDefinition.NAME
                + ": --output "
                + out
                + " is also an input; write the index elsewhere");
      }
      bytes += f.getLen();
    }
    this.sourceBytes = bytes;
    outFs.delete(work, true);
    outFs.mkdirs(out.getParent());
    this.digest =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return sha256(conf, files);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }

  /** Where the reject records of the splits go. */
  public Path rejects() {
    return new Path(work, "_rejects");
  }

  /** The SHA-256 of the inputs' bytes in input order (waits for the driver's read). */
  public byte[] sourceDigest() throws IOException {
    try {
      return digest.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UncheckedIOException) {
        throw ((UncheckedIOException) e.getCause()).getCause();
      }
      throw new IOException(e.getCause());
    }
  }

  /** Ends a phase: its time in ms goes to the summary under {@code name}. */
  public void phase(String name) {
    long now = System.nanoTime();
    phases.put(name, (now - lastPhase) / 1_000_000);
    lastPhase = now;
  }

  /** The summary's first lines: the kind, the input, its files and splits. */
  public Report report(int splits) {
    return new Report(BuildIndexDefinition.NAME)
        .put("kind", o.get(BuildIndexDefinition.KIND))
        .put("input", o.get(LineJob.INPUT))
        .put("files", files.size())
        .put("splits", splits);
  }

  /**
   * Writes the index atomically and the summary beside it. A build whose counts do not reconcile
   * writes neither (an internal error naming the counts); nor does one that accepted no line,
   * unless {@code --allow-empty true} (bad input, naming the inputs: the old index stays).
   */
  public void finish(Assembled index, Map<String, Long> rejectCounts, Report r) throws IOException {
    if (!index.reconciles()) {
      throw new IllegalStateException(out + ": " + index.unreconciled());
    }
    if (index.empty() && !o.get(BuildIndexDefinition.ALLOW_EMPTY)) {
      List<String> sources = new java.util.ArrayList<>();
      files.forEach(f -> sources.add(f.getPath().toString()));
      boolean exists = out.getFileSystem(conf).exists(out);
      throw new io.spindex.text.InputException(
          Assembled.nothingAccepted(
              index.counts, rejectCounts, null, sources, out.toString(), exists));
    }
    // A text build's source time, as the command records it: when its inputs last changed (a
    // MaxMind database gave its own build time).
    long newest = -1;
    for (FileStatus f : files) {
      newest = Math.max(newest, f.getModificationTime());
    }
    index.writer.sourceMillisUnlessKnown(newest);
    IndexHeader header = write(index, out, conf);
    phase("write ms");
    BuildIndexDefinition.summarize(
        r, index, rejectCounts, out.toString(), header, rejects().toString());
    phases.forEach(r::put);
    r.put("seconds", (System.nanoTime() - t0) / 1e9);
    r.put("reconciles", "yes");
    HadoopIo.writeText(conf, new Path(work, HadoopIo.SUMMARY), r.toJson());
  }

  /**
   * Writes the index atomically to {@code out}: directly on the local file system (the writer
   * renames a temporary file in the same directory); elsewhere, written locally, copied beside the
   * target under a hidden name and renamed over it.
   */
  static IndexHeader write(Assembled index, Path out, Configuration conf) throws IOException {
    FileSystem fs = out.getFileSystem(conf);
    if ("file".equals(fs.getUri().getScheme())) {
      return index.writer.writeTo(java.nio.file.Paths.get(out.toUri()));
    }
    java.nio.file.Path local = Files.createTempFile("spindex-build-", ".spx");
    try {
      IndexHeader h = index.writer.writeTo(local);
      Path tmp = new Path(out.getParent(), "." + out.getName() + "." + UUID.randomUUID() + ".tmp");
      fs.copyFromLocalFile(false, true, new Path(local.toUri()), tmp);
      try {
        FileContext.getFileContext(out.toUri(), conf).rename(tmp, out, Options.Rename.OVERWRITE);
      } catch (IOException e) {
        fs.delete(tmp, false);
        throw e;
      }
      return h;
    } finally {
      Files.deleteIfExists(local);
    }
  }

  private static byte[] sha256(Configuration conf, List<FileStatus> files) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    byte[] buf = new byte[1 << 20];
    for (FileStatus f : files) {
      try (InputStream in = f.getPath().getFileSystem(conf).open(f.getPath())) {
        for (int n; (n = in.read(buf)) >= 0; ) {
          md.update(buf, 0, n);
        }
      }
    }
    return md.digest();
  }
}
