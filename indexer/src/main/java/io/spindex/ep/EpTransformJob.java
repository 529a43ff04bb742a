/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.annotations.Internal;
import io.spindex.ep.feed.ChunkPipeline;
import io.spindex.ep.feed.EpFiles;
import io.spindex.ep.feed.EpHeader;
import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code spindex ep transform} on one machine: reads an EP file (plain or gzip) in parallel chunks,
 * applies a transform spec, and writes one EP file (one header line, LF line ends) and a rejects
 * file, both atomically. The Spark job runs the same {@link EpTransform} per partition.
 */
@Internal
public final class EpTransformJob {
  /** Chunk size of the pipeline: big enough to amortise hand-offs, small enough to stay cached. */
  static final int CHUNK_BYTES = 4 << 20;

  private EpTransformJob() {}

  /** What a run did. */
  public static final class Result {
    public final EpCounts counts;
    public final EpHeader outputHeader;
    public final long bytesOut;

    Result(EpCounts counts, EpHeader outputHeader, long bytesOut) {
      this.counts = counts;
      this.outputHeader = outputHeader;
      this.bytesOut = bytesOut;
    }
  }

  /**
   * Transforms {@code in} into {@code out}; rejected rows go to {@code rejects} with their reason
   * and position ({@link io.spindex.text.Rejects}).
   */
  public static Result run(Path in, Path out, Path rejects, TransformSpec spec, int threads)
      throws IOException {
    return run(in, out, rejects, spec, threads, CHUNK_BYTES);
  }

  /** As above with a given chunk size (tests: small chunks put lines across chunk edges). */
  static Result run(
      Path in, Path out, Path rejects, TransformSpec spec, int threads, int chunkBytes)
      throws IOException {
    ChunkPipeline pipeline = new ChunkPipeline(threads, spec.maxLineBytes(), chunkBytes);
    String name = in.toString();
    try (ReadableByteChannel ch = EpFiles.open(in);
        EpFiles.Output o = new EpFiles.Output(out);
        EpFiles.Output r = new EpFiles.Output(rejects)) {
      ChunkPipeline.Start start = pipeline.readHeader(ch, name);
      byte[] source = io.spindex.text.Rejects.field(name);
      EpHeader header = EpHeader.parse(start.header, 0, start.header.length, name + ":1");
      EpTransform t = spec.compile(header);
      byte[] h = t.outputHeader().toLine();
      o.write(h, 0, h.length);
      List<Proc> procs =
          pipeline.run(
              ch,
              start,
              () -> new Proc(t.worker()),
              (c, offset) -> {
                o.write(c.out.array(), 0, c.out.length());
                EpFiles.writeRejects(r, c, source, offset);
              });
      EpCounts counts = new EpCounts(spec.stepLabels());
      for (Proc p : procs) {
        counts.add(p.worker.counts());
      }
      long bytes = o.bytes();
      o.commit();
      r.commit();
      return new Result(counts, t.outputHeader(), bytes);
    }
  }

  private static final class Proc extends LineProcessor {
    final EpTransform.Worker worker;

    Proc(EpTransform.Worker worker) {
      this.worker = worker;
    }

    @Override
    void line(ChunkPipeline.Chunk c, byte[] b, int from, int to, long index) {
      if (!worker.apply(b, from, to, c.out)) {
        reject(c, worker.rejectReason(), worker.rejectDetail(), b, from, to);
      }
    }

    @Override
    int lineAt(ChunkPipeline.Chunk c, byte[] b, int from, long index) {
      int lf = worker.applyNext(b, from, c.len, c.out);
      if (!worker.accepted()) {
        reject(c, worker.rejectReason(), worker.rejectDetail(), b, from, lf);
      }
      return lf;
    }

    @Override
    void oversized(String reason) {
      worker.rejectUnread(reason);
    }
  }
}
