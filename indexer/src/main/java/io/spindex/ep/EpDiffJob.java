/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.annotations.Internal;
import io.spindex.ep.feed.ByteSink;
import io.spindex.ep.feed.ChunkPipeline;
import io.spindex.ep.feed.EpFiles;
import io.spindex.ep.feed.EpHeader;
import io.spindex.index.ProductIndex;
import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code spindex ep diff} on one machine: today's full EP (plain or gzip) against yesterday's
 * product index, in parallel chunks, into one summary EP (I and U rows in input order, then the D
 * rows in index order) and a rejects file, both written atomically.
 */
@Internal
public final class EpDiffJob {
  private EpDiffJob() {}

  /** What a run did. */
  public static final class Result {
    public final DiffCounts counts;
    public final EpHeader outputHeader;

    Result(DiffCounts counts, EpHeader outputHeader) {
      this.counts = counts;
      this.outputHeader = outputHeader;
    }
  }

  public static Result run(
      Path today,
      ProductIndex yesterday,
      Path out,
      Path rejects,
      String updateTime,
      int maxLineBytes,
      int threads)
      throws IOException {
    ChunkPipeline pipeline = new ChunkPipeline(threads, maxLineBytes, EpTransformJob.CHUNK_BYTES);
    String name = today.toString();
    try (ReadableByteChannel ch = EpFiles.open(today);
        EpFiles.Output o = new EpFiles.Output(out);
        EpFiles.Output r = new EpFiles.Output(rejects)) {
      ChunkPipeline.Start start = pipeline.readHeader(ch, name);
      byte[] source = io.spindex.text.Rejects.field(name);
      EpHeader header = EpHeader.parse(start.header, 0, start.header.length, name + ":1");
      EpDiff diff = new EpDiff(header, yesterday, updateTime, maxLineBytes);
      byte[] h = diff.outputHeader().toLine();
      o.write(h, 0, h.length);
      List<Proc> procs =
          pipeline.run(
              ch,
              start,
              () -> new Proc(diff.worker()),
              (c, offset) -> {
                o.write(c.out.array(), 0, c.out.length());
                EpFiles.writeRejects(r, c, source, offset);
              });
      DiffCounts counts = new DiffCounts();
      SeenRows seen = new SeenRows(yesterday.size());
      for (Proc p : procs) {
        counts.add(p.worker.counts());
        seen.or(p.worker.seen());
      }
      ByteSink d = new ByteSink(1 << 20);
      int step = 1 << 16;
      for (int from = 0; from < yesterday.size(); from += step) {
        counts.addDeleted(
            diff.writeDeletes(seen, from, (int) Math.min(yesterday.size(), (long) from + step), d));
        o.write(d.array(), 0, d.length());
        d.clear();
      }
      o.commit();
      r.commit();
      return new Result(counts, diff.outputHeader());
    }
  }

  private static final class Proc extends LineProcessor {
    final EpDiff.Worker worker;

    Proc(EpDiff.Worker worker) {
      this.worker = worker;
    }

    @Override
    void line(ChunkPipeline.Chunk c, byte[] b, int from, int to, long index) {
      if (!worker.apply(b, from, to, c.out)) {
        reject(c, worker.rejectReason(), worker.rejectDetail(), b, from, to);
      }
    }

    @Override
    void oversized(String reason) {
      worker.rejectUnread(reason);
    }
  }
}
