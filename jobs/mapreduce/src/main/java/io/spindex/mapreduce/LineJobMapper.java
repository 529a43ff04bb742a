/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.hadoop.HadoopIo;
import io.spindex.hadoop.LineChunk;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.IndexHolder;
import io.spindex.job.LineJob;
import io.spindex.job.LineTask;
import io.spindex.job.SideFile;
import io.spindex.job.TaskSide;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;

/**
 * The map task of every line job: in {@link #setup} the job's task for this split (its side data
 * loaded once per task JVM through the holder), in {@link #map} each line through it, in {@link
 * #cleanup} the end of the split and its counts, added to the {@value LineJobTool#GROUP} counters
 * once. Records go to {@code OUT/part-m-*} and {@code OUT/_rejects/part-m-*}; count mode's per-key
 * counts to the combiner and reducers.
 */
class LineJobMapper extends Mapper<LongWritable, LineChunk, Writable, Writable> {
  /** The versions of each index a task JVM holds at most ({@link IndexHolder}). */
  static final String VERSIONS = LineJobTool.SETTINGS.key("versions");

  static final String OUTPUT = "output";
  static final String REJECTS = "rejects";
  static final List<String> NAMED_OUTPUTS = Arrays.asList(OUTPUT, REJECTS);

  /**
   * The base name of the output records' files, {@code part-m-*}. {@link MultipleOutputs} refuses
   * the base name {@code part} itself, to keep clear of the task's default output; these tasks
   * never write that (the job's output format is lazy: no record, no file), so the same files are
   * named {@code ./part}, which the task's work path resolves to {@code part-m-*}.
   */
  static final String PART = "./part";

  private LineTask task;
  private TaskOutputs sink;

  /** The job's definition and plan, from the configuration the client wrote. */
  static LineJob.Plan plan(Configuration conf) throws IOException {
    return (LineJob.Plan) LineJobTool.deserialize(conf.get(LineJobTool.CONF_PLAN));
  }

  @SuppressWarnings("unchecked")
  static <P extends LineJob.Plan> LineJob<P> definition(Configuration conf) throws IOException {
    try {
      return (LineJob<P>)
          Class.forName(conf.get(LineJobTool.CONF_JOB)).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IOException("job definition " + conf.get(LineJobTool.CONF_JOB), e);
    }
  }

  @Override
  protected void setup(Context context) throws IOException, InterruptedException {
    Configuration conf = context.getConfiguration();
    IndexHolder.versionsPerIndex(conf.getInt(VERSIONS, IndexHolder.DEFAULT_VERSIONS));
    sink = new TaskOutputs(context, PART);
    task = newTask(conf, new MrTaskSide(HadoopIo.splitName(context.getInputSplit()), context));
    context.getCounter(LineJobTool.GROUP, LineJob.TASKS).increment(1);
    task.begin(sink);
  }

  /** The split's task; a failure on bad input is recorded for the client ({@link TaskFailures}). */
  @Override
  public void run(Context context) throws IOException, InterruptedException {
    try {
      super.run(context);
    } catch (IOException | RuntimeException e) {
      TaskFailures.record(context, e);
      throw e;
    }
  }

  private static <P extends LineJob.Plan> LineTask newTask(Configuration conf, TaskSide side)
      throws IOException {
    LineJob<P> job = definition(conf);
    @SuppressWarnings("unchecked")
    P plan = (P) plan(conf);
    return job.task(plan, side);
  }

  /** A chunk of whole lines of the split ({@link io.spindex.hadoop.LineChunkInputFormat}). */
  @Override
  protected void map(LongWritable offset, LineChunk lines, Context context) {
    lines.lines(task, sink);
  }

  @Override
  protected void cleanup(Context context) throws IOException, InterruptedException {
    try {
      task.finish(sink);
      addCounts(context, task.counts());
      finished(task, context);
    } catch (UncheckedIOException e) {
      throw TaskOutputs.rethrow(e);
    } finally {
      sink.mos.close();
    }
  }

  /** After the split's records and counts: ep-diff hands its seen rows to the reducers. */
  protected void finished(LineTask task, Context context)
      throws IOException, InterruptedException {}

  static void addCounts(Mapper<?, ?, ?, ?>.Context context, Map<String, Long> counts) {
    counts.forEach(
        (k, v) -> {
          if (v != 0) {
            context.getCounter(LineJobTool.GROUP, k).increment(v);
          }
        });
  }

  /**
   * Side data in a task: shipped and staged files are linked into the task's working directory by
   * the distributed cache under their names; local ones are opened in place. Loads are counted.
   */
  static final class MrTaskSide implements TaskSide {
    private final String source;
    private final org.apache.hadoop.mapreduce.TaskInputOutputContext<?, ?, ?, ?> context;

    MrTaskSide(
        String source, org.apache.hadoop.mapreduce.TaskInputOutputContext<?, ?, ?, ?> context) {
      this.source = source;
      this.context = context;
    }

    @Override
    public String source() {
      return source;
    }

    @Override
    public Path local(SideFile f) {
      return Paths.get(localPath(f));
    }

    /** Where a task finds {@code f}: its link in the working directory, or the path itself. */
    static String localPath(SideFile f) {
      switch (f.ship()) {
        case LOCAL:
          return f.location();
        case STAGE:
          return new org.apache.hadoop.fs.Path(f.location()).getName();
        default:
          return f.location();
      }
    }

    /**
     * One count a task and index version, in the group {@value LineJobTool#VERSIONS_GROUP}: {@link
     * #versionCounter}.
     */
    @Override
    public void answeredFrom(SideFile f, IndexHeader h) {
      if (counted.add(f.given() + "@" + h.headerCrc32c())) {
        context.getCounter(LineJobTool.VERSIONS_GROUP, versionCounter(f.given(), h)).increment(1);
      }
    }

    /**
     * The counter of an index version: the index's file name, the header checksum, the source
     * SHA-256 (its first 8 digits), when the index was built and when its source was ({@code -}
     * when the file does not say), within Hadoop's 64 characters of a counter name (a longer file
     * name is cut): {@code geo.spx a38f42af 3f2a1b2c 20261129T030000Z 20261128T220000Z}.
     */
    static String versionCounter(String given, IndexHeader h) {
      String name = new org.apache.hadoop.fs.Path(given).getName();
      String v =
          String.format(
              java.util.Locale.ROOT,
              " %08x %s %s %s",
              h.headerCrc32c(),
              h.sourceDigestHex().substring(0, 8),
              COUNTER_TIME.format(java.time.Instant.ofEpochMilli(h.createdMillis())),
              h.sourceMillis() < 0
                  ? "-"
                  : COUNTER_TIME.format(java.time.Instant.ofEpochMilli(h.sourceMillis())));
      return (name.length() + v.length() > 64 ? name.substring(0, 64 - v.length()) : name) + v;
    }

    private static final java.time.format.DateTimeFormatter COUNTER_TIME =
        java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(java.time.ZoneOffset.UTC);

    /** The versions this task has counted. */
    private final java.util.Set<String> counted = new java.util.HashSet<>();

    @Override
    public void loaded(IndexHolder.Acquired a, String loader) {
      context.getCounter(LineJobTool.GROUP, LineJob.INDEX_LOADS).increment(1);
      context.getCounter(LineJobTool.GROUP, LineJob.INDEX_BYTES).increment(a.bytes());
      context
          .getCounter(LineJobTool.GROUP, LineJob.INDEX_LOAD_MS)
          .increment(Math.round(a.loadNanos() / 1e6));
    }
  }
}
