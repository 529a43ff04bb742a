/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli.local;

import io.spindex.annotations.Internal;
import io.spindex.ep.SeenRows;
import io.spindex.ep.feed.ByteSink;
import io.spindex.ep.feed.ChunkPipeline;
import io.spindex.ep.feed.EpFiles;
import io.spindex.ep.feed.EpHeader;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import io.spindex.job.DistinctPaths;
import io.spindex.job.Driver;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.job.LineTask;
import io.spindex.job.RecordSink;
import io.spindex.job.Route;
import io.spindex.job.SideFile;
import io.spindex.job.TaskSide;
import io.spindex.lookup.Report;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The third driver of a {@link LineJob}, after Spark and MapReduce: one machine, no engine. The
 * input is a file (plain or {@code .gz}) or the non-hidden files of a directory, in name order;
 * each file is read in large line-aligned chunks by a {@link ChunkPipeline}, whose worker threads
 * each drive a task of their own over whole chunks ({@link LineTask#lines}, lines split as Hadoop's
 * {@code LineRecordReader} splits them: LF or CR LF); the records of each chunk reach {@link
 * Records} in input order. Counts are added up by name, and the definition's {@link
 * LineJob#summarize} makes the report. {@link #toFiles} writes one output file (the plan's single
 * file header first) and one rejects file, both atomically.
 *
 * <p>Tasks must write a chunk's records during {@link LineTask#lines} (what they write in {@link
 * LineTask#finish} comes after every chunk of the file); lines longer than a chunk go to {@link
 * LineTask#tooLong}.
 */
@Internal
public final class LocalDriver {
  /** Chunk size: big enough to amortise hand-offs, small enough to stay cached. */
  public static final int CHUNK_BYTES = 4 << 20;

  private LocalDriver() {}

  /** How a run reads: threads, chunk size, longest line, and how rejects name a file. */
  public static final class Options {
    int threads = 1;
    int maxLineBytes = 1 << 16;
    int chunkBytes = CHUNK_BYTES;
    Function<Path, String> source = Path::toString;

    /** Worker threads (each with its own task). */
    public Options threads(int n) {
      threads = Math.max(1, n);
      return this;
    }

    /** The longest line tasks accept: chunks hold at least two. */
    public Options maxLineBytes(int n) {
      maxLineBytes = n;
      return this;
    }

    /** Bytes per chunk (tests: small chunks put lines across chunk edges). */
    public Options chunkBytes(int n) {
      chunkBytes = n;
      return this;
    }

    /** The name of an input file in rejects and messages (default: the path as given). */
    public Options source(Function<Path, String> f) {
      source = f;
      return this;
    }
  }

  /**
   * Where a run's records go, called on the calling thread, in input order. The bytes are valid
   * during the call only.
   */
  public interface Records {
    /** After the plan, before any record. */
    default void start(LineJob.Plan plan) throws IOException {}

    /** Output records {@code b[from, to)}, each ended by LF. */
    void output(byte[] b, int from, int to) throws IOException;

    /** Reject records {@code b[from, to)}, each ended by LF. */
    void rejects(byte[] b, int from, int to) throws IOException;
  }

  /** What a run did. */
  public static final class Run<P extends LineJob.Plan> {
    public final P plan;

    /** The counts of every task, added up by name. */
    public final Map<String, Long> totals;

    /** Count mode: {label, count}, most first, ties by label; otherwise empty. */
    public final List<Object[]> countRows;

    public final Report report;

    /** What {@link LineJob#summarize} said: whether the counts reconcile. */
    public final boolean reconciles;

    Run(P plan, Map<String, Long> totals, List<Object[]> rows, Report report, boolean ok) {
      this.plan = plan;
      this.totals = totals;
      this.countRows = rows;
      this.report = report;
      this.reconciles = ok;
    }
  }

  /**
   * Runs {@code job} into {@code out} and {@code rejects}, each written to a temporary file and
   * renamed into place when the run succeeds (nothing is left under either name when it fails).
   */
  public static <P extends LineJob.Plan> Run<P> toFiles(
      LineJob<P> job, JobArgs args, Options o, Path out, Path rejects) throws IOException {
    return toFiles(job, args, o, out, rejects, r -> null);
  }

  /**
   * As above; {@code refuse} looks at the run before its output is renamed into place and gives a
   * reason not to (a run that accepted nothing) or null. A refused run's rejects are still written,
   * its output is not: the file at {@code out} stays as it was, and an {@link
   * io.spindex.text.InputException} gives the reason.
   */
  public static <P extends LineJob.Plan> Run<P> toFiles(
      LineJob<P> job,
      JobArgs args,
      Options o,
      Path out,
      Path rejects,
      Function<Run<P>, String> refuse)
      throws IOException {
    try (EpFiles.Output w = new EpFiles.Output(out);
        EpFiles.Output r = new EpFiles.Output(rejects)) {
      Run<P> run =
          run(
              job,
              args,
              o,
              new Records() {
                @Override
                public void start(LineJob.Plan plan) throws IOException {
                  DistinctPaths d = new DistinctPaths().output("-o", out);
                  d.output("--rejects", rejects);
                  plan.reads().forEach((what, p) -> d.input(what, Paths.get(p)));
                  d.check();
                  byte[] h = plan.singleFileHeader();
                  if (h != null) {
                    w.write(h, 0, h.length);
                  }
                }

                @Override
                public void output(byte[] b, int from, int to) throws IOException {
                  w.write(b, from, to);
                }

                @Override
                public void rejects(byte[] b, int from, int to) throws IOException {
                  r.write(b, from, to);
                }
              });
      String refused = refuse.apply(run);
      r.commit();
      if (refused != null) {
        throw new io.spindex.text.InputException(refused);
      }
      w.commit();
      return run;
    }
  }

  /** Runs {@code job} with {@code args}, handing its records to {@code records}. */
  public static <P extends LineJob.Plan> Run<P> run(
      LineJob<P> job, JobArgs args, Options o, Records records) throws IOException {
    P plan = job.plan(args, new Local(o));
    records.start(plan);
    ChunkPipeline pipeline = new ChunkPipeline(o.threads, o.maxLineBytes, o.chunkBytes);
    Map<String, Long> byKey = new ConcurrentHashMap<>();
    Direct direct = new Direct(records, byKey);
    List<LineTask> tasks = new ArrayList<>();
    Map<String, Long> totals = new TreeMap<>();
    Map<String, Long> loads = new ConcurrentHashMap<>(); // what the engines add: index loads
    for (Path file : inputFiles(args.get(LineJob.INPUT))) {
      TaskSide side = new Side(o.source.apply(file), loads);
      List<LineTask> fileTasks = new ArrayList<>();
      try (ReadableByteChannel in = EpFiles.open(file)) {
        pipeline.run(
            in,
            () -> {
              try {
                LineTask t = job.task(plan, side);
                t.begin(direct);
                fileTasks.add(t);
                return new Proc(t, byKey);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            },
            (c, offset) -> {
              direct.flush();
              records.output(c.out.array(), 0, c.out.length());
              records.rejects(c.text.array(), 0, c.text.length());
            });
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      for (LineTask t : fileTasks) {
        t.finish(direct);
        t.counts().forEach((k, v) -> totals.merge(k, v, Long::sum));
      }
      direct.flush();
      totals.merge(LineJob.TASKS, 1L, Long::sum);
      tasks.addAll(fileTasks);
    }
    if (plan instanceof EpDiffDefinition.Plan) {
      EpDiffDefinition.Plan p = (EpDiffDefinition.Plan) plan;
      SeenRows seen = new SeenRows(p.rows());
      for (LineTask t : tasks) {
        seen.or(EpDiffDefinition.seen(t));
      }
      long d =
          EpDiffDefinition.writeDeletes(p, new Side("delete stage", loads), seen, 0, 1, direct);
      direct.flush();
      totals.put(EpDiffDefinition.DELETED, d);
    }
    loads.forEach((k, v) -> totals.merge(k, v, Long::sum));
    List<Object[]> rows = LineJob.countRows(byKey);
    Report report = new Report(job.name());
    boolean ok =
        job.summarize(
            plan, args, totals, plan.countsByKey() ? rows : Collections.emptyList(), report);
    return new Run<>(plan, totals, rows, report, ok);
  }

  /**
   * A file, or the files of a directory not starting with {@code _} or {@code .}, in name order.
   */
  public static List<Path> inputFiles(String input) throws IOException {
    Path p = Paths.get(input.startsWith("file:") ? input.substring(5) : input);
    if (!Files.isDirectory(p)) {
      return Collections.singletonList(p);
    }
    List<Path> files = new ArrayList<>();
    try (Stream<Path> s = Files.list(p)) {
      s.filter(f -> !f.getFileName().toString().startsWith("_"))
          .filter(f -> !f.getFileName().toString().startsWith("."))
          .sorted()
          .forEach(files::add);
    }
    return files;
  }

  /** A worker's task over whole chunks; its records go into the chunk's buffers. */
  private static final class Proc implements ChunkPipeline.Processor, RecordSink {
    private final LineTask task;
    private final Map<String, Long> byKey;
    private ChunkPipeline.Chunk chunk;

    Proc(LineTask task, Map<String, Long> byKey) {
      this.task = task;
      this.byKey = byKey;
    }

    @Override
    public void process(ChunkPipeline.Chunk c) {
      chunk = c;
      if (c.oversized) {
        task.tooLong(c.in, 0, c.len, c.offset, c.in.length - 1, this);
      } else {
        task.lines(c.in, 0, c.len, c.offset, this);
      }
      chunk = null;
    }

    @Override
    public void write(Route route, byte[] b, int off, int len) {
      ByteSink s = route == Route.OUTPUT ? chunk.out : chunk.text;
      s.write(b, off, off + len);
      s.write((byte) '\n');
    }

    @Override
    public ByteSink outputBuffer() {
      return chunk.out;
    }

    @Override
    public void count(byte[] key, long n) {
      byKey.merge(new String(key, StandardCharsets.UTF_8), n, Long::sum);
    }
  }

  /** Records written outside chunks (part headers, a task's last records, ep-diff's D rows). */
  private static final class Direct implements RecordSink {
    private final Records records;
    private final Map<String, Long> byKey;
    private final ByteSink out = new ByteSink(1 << 16);
    private final ByteSink rejects = new ByteSink(1 << 12);

    Direct(Records records, Map<String, Long> byKey) {
      this.records = records;
      this.byKey = byKey;
    }

    @Override
    public void write(Route route, byte[] b, int off, int len) {
      ByteSink s = route == Route.OUTPUT ? out : rejects;
      s.write(b, off, off + len);
      s.write((byte) '\n');
      if (s.length() >= 1 << 20) {
        try {
          flush();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }

    @Override
    public void count(byte[] key, long n) {
      byKey.merge(new String(key, StandardCharsets.UTF_8), n, Long::sum);
    }

    void flush() throws IOException {
      if (out.length() > 0) {
        records.output(out.array(), 0, out.length());
        out.clear();
      }
      if (rejects.length() > 0) {
        records.rejects(rejects.array(), 0, rejects.length());
        rejects.clear();
      }
    }
  }

  /** Side data opened in place; EP headers read as the pipeline reads them. */
  static final class Local implements Driver {
    private final Options o;

    Local(Options o) {
      this.o = o;
    }

    @Override
    public SideFile ship(String path, String how) {
      Path p = Paths.get(path).toAbsolutePath();
      return new SideFile(path, SideFile.Ship.LOCAL, p.toString(), -1, -1);
    }

    @Override
    public IndexHeader indexHeader(SideFile f) throws IOException {
      return Loader.readVersion(Paths.get(f.location()));
    }

    @Override
    public EpHeader firstEpHeader(String input) throws IOException {
      Path file = inputFiles(input).get(0);
      String name = o.source.apply(file);
      try (ReadableByteChannel in = EpFiles.open(file)) {
        ChunkPipeline.Start s =
            new ChunkPipeline(1, o.maxLineBytes, o.chunkBytes).readHeader(in, name);
        return EpHeader.parse(s.header, 0, s.header.length, name + ":1");
      }
    }
  }

  /** A task's side: files opened in place; its index loads counted as the engines count them. */
  static final class Side implements TaskSide {
    private final String source;
    private final Map<String, Long> loads;

    Side(String source, Map<String, Long> loads) {
      this.source = source;
      this.loads = loads;
    }

    @Override
    public String source() {
      return source;
    }

    @Override
    public Path local(SideFile f) {
      return Paths.get(f.location());
    }

    @Override
    public void loaded(IndexHolder.Acquired acquired, String loader) {
      loads.merge(LineJob.INDEX_LOADS, 1L, Long::sum);
      loads.merge(LineJob.INDEX_BYTES, acquired.bytes(), Long::sum);
      loads.merge(LineJob.INDEX_LOAD_MS, Math.round(acquired.loadNanos() / 1e6), Long::sum);
    }
  }
}
