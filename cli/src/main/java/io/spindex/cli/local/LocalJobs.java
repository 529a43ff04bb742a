/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli.local;

import io.spindex.annotations.Internal;
import io.spindex.job.Dispatcher;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.text.LineReader;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * {@code spindex run <job> [options]}: the line jobs of the job jars, with their option tables, run
 * by the {@link LocalDriver} on one machine into the layout the engines write: {@code
 * OUT/part-00000} (count mode: {@code label<TAB>lines}, most first; {@code --single-file true}: the
 * one file the plan names, its header first; {@code --compress gzip}: {@code part-00000.gz}),
 * {@code OUT/_rejects/part-00000} (sources named {@code file:/...}, as the engines name them),
 * {@code OUT/_summary.json}. The directory appears whole when the run succeeds (written beside it
 * under a hidden name, then renamed); an existing {@code OUT} is refused, as on the engines. The
 * dispatcher answers as the job jars' do ({@link Dispatcher}).
 */
@Internal
public final class LocalJobs {
  private static final Map<String, Supplier<LineJob<?>>> JOBS = new LinkedHashMap<>();

  static {
    JOBS.put(IpLookupDefinition.NAME, IpLookupDefinition::new);
    JOBS.put(EpTransformDefinition.NAME, EpTransformDefinition::new);
    JOBS.put(EpDiffDefinition.NAME, EpDiffDefinition::new);
  }

  private LocalJobs() {}

  /** The jobs {@code spindex run} takes, with their lines. */
  public static Dispatcher dispatcher() {
    Dispatcher d = new Dispatcher("spindex run");
    JOBS.forEach((name, job) -> d.job(name, job.get().description()));
    return d;
  }

  /**
   * Runs {@code args} ({@code <job> [options]}) and prints the summary on {@code out}, what went
   * wrong on {@code err}; returns the exit code: 0 when the counts reconcile, 1 for bad input or
   * counts that do not, 2 for a usage mistake.
   */
  public static int main(String[] args, int threads, PrintStream out, PrintStream err) {
    return dispatcher()
        .run(
            args,
            out,
            err,
            (name, rest) -> {
              LineJob<?> job = JOBS.get(name).get();
              JobArgs a = job.parse(rest, k -> null, "");
              LocalDriver.Run<?> r =
                  toDirectory(
                      job,
                      a,
                      new LocalDriver.Options()
                          .threads(threads)
                          .maxLineBytes(LineReader.MAX_LINE_BYTES)
                          .source(f -> "file:" + f.toAbsolutePath()));
              out.print(r.report.toText());
              return r.reconciles ? 0 : 1;
            });
  }

  /** Runs {@code job} into {@code --output} as the engines lay it out (see above). */
  public static <P extends LineJob.Plan> LocalDriver.Run<P> toDirectory(
      LineJob<P> job, JobArgs args, LocalDriver.Options o) throws IOException {
    Path out = Paths.get(args.get(LineJob.OUTPUT)).toAbsolutePath();
    if (Files.exists(out)) {
      throw new IOException("output " + args.get(LineJob.OUTPUT) + " already exists");
    }
    Files.createDirectories(out.getParent());
    Path tmp = Files.createTempDirectory(out.getParent(), "." + out.getFileName() + ".");
    try {
      Files.createDirectories(tmp.resolve("_rejects"));
      LocalDriver.Run<P> run;
      try (Parts parts = new Parts(tmp)) {
        run = LocalDriver.run(job, args, o, parts);
      }
      if (run.plan.countsByKey()) {
        Files.write(tmp.resolve("part-00000"), LineJob.countFile(run.countRows));
      }
      Files.write(
          tmp.resolve("_summary.json"), run.report.toJson().getBytes(StandardCharsets.UTF_8));
      Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE);
      return run;
    } finally {
      if (Files.exists(tmp)) {
        try (Stream<Path> s = Files.walk(tmp)) {
          s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    }
  }

  /** The records of a run as the engines' part files, named when the plan is known. */
  private static final class Parts implements LocalDriver.Records, AutoCloseable {
    private final Path dir;
    private OutputStream output;
    private OutputStream rejects;

    Parts(Path dir) {
      this.dir = dir;
    }

    @Override
    public void start(LineJob.Plan plan) throws IOException {
      rejects = new BufferedOutputStream(Files.newOutputStream(dir.resolve("_rejects/part-00000")));
      if (plan.countsByKey()) {
        return; // the counts are written after the run
      }
      String name =
          plan.singleFile() != null
              ? plan.singleFile()
              : plan.gzip() ? "part-00000.gz" : "part-00000";
      OutputStream file = Files.newOutputStream(dir.resolve(name));
      output = new BufferedOutputStream(plan.gzip() ? new GZIPOutputStream(file, 1 << 16) : file);
      byte[] h = plan.singleFile() != null ? plan.singleFileHeader() : null;
      if (h != null) {
        output.write(h);
      }
    }

    @Override
    public void output(byte[] b, int from, int to) throws IOException {
      if (to > from) {
        output.write(b, from, to - from);
      }
    }

    @Override
    public void rejects(byte[] b, int from, int to) throws IOException {
      rejects.write(b, from, to - from);
    }

    @Override
    public void close() throws IOException {
      try {
        if (output != null) {
          output.close();
        }
      } finally {
        if (rejects != null) {
          rejects.close();
        }
      }
    }
  }
}
