/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.lookup.Report;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Spindex job, defined once and run by every engine: its option table, its {@link Plan} (what the
 * driver checks and ships), its record loop over a split ({@link LineTask}), and its summary with
 * the reconciliation of its counts. The Spark job and the MapReduce tool of a job are adapters that
 * read lines, drive the task, write its records and add up its counts; they hold no per-record
 * logic, so the two engines give the same outputs, rejects, summaries and exit codes.
 *
 * <p>Definitions hold no state: tasks get them (and their plans) serialized.
 *
 * @param <P> the job's plan
 */
@Internal
public abstract class LineJob<P extends LineJob.Plan> implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Input files, every job. */
  public static final JobOption<String> INPUT =
      JobOption.text("input", null, "input files: any Hadoop path or glob, compressed or not");

  /** Output directory, every job. */
  public static final JobOption<String> OUTPUT =
      JobOption.text("output", null, "output directory (must not exist)");

  /** Largest input split, every job. */
  public static final JobOption<Double> SPLIT_MB =
      JobOption.number(
          "split-mb", "0", "max input split size in MiB (0: the file system's block size)", 0);

  /** How side data reaches the tasks (see {@link SideFile}). */
  public static final JobOption<String> SHIP =
      JobOption.choice(
          "index-ship",
          "auto",
          "how tasks get side data: auto | files | stage | local (docs/SPARK.md)",
          "auto",
          "files",
          "stage",
          "local");

  /** Count an engine adds per task that ran (the tasks of the job's split stage). */
  public static final String TASKS = "tasks";

  /** Count an engine adds per JVM that loaded an index (exact per JVM, not per task). */
  public static final String INDEX_LOADS = "index loads";

  /** Milliseconds those loads took, summed. */
  public static final String INDEX_LOAD_MS = "index load ms";

  /** Bytes of index files those loads read or mapped, summed. */
  public static final String INDEX_BYTES = "index bytes loaded";

  /** Milliseconds spent staging side data to local disk ({@link SideFile.Ship#STAGE}), summed. */
  public static final String STAGE_MS = "index stage ms";

  /**
   * What the driver decided: everything a task needs (checked options, shipped side files, input
   * header), serializable, small, and the same on every engine. The output layout it declares is
   * finished on the driver by the engine-side helpers.
   */
  public abstract static class Plan implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The files the job reads beside its input (an index, a spec and its side files), each by what
     * names it ({@code --index}, {@code side file of --spec}): no output may be one of them.
     */
    public Map<String, String> reads() {
      return Map.of();
    }

    /** Whether output parts are gzip-compressed. */
    public boolean gzip() {
      return false;
    }

    /**
     * Whether tasks count lines by key through {@link RecordSink#count}: the engine sums the counts
     * and writes one {@code OUT/part-00000} of {@code key<TAB>count}, most first, ties by key.
     */
    public boolean countsByKey() {
      return false;
    }

    /** With {@link #countsByKey()}: the tasks that sum the counts (reducers, partitions). */
    public int countTasks() {
      return 1;
    }

    /**
     * The one file that the parts are merged into ({@code --single-file true}), or null to keep the
     * parts.
     */
    public String singleFile() {
      return null;
    }

    /**
     * The name prefixes of the parts a single file is merged from, in merge order (each group in
     * name order).
     */
    public List<String> singleFileParts() {
      return java.util.Collections.singletonList("part-");
    }

    /** The line a merged single file starts with (with its LF), or null. */
    public byte[] singleFileHeader() {
      return null;
    }
  }

  private final String name;
  private final String description;

  /** The driver's only: tasks get the definition without its option table. */
  private final transient List<JobOption<?>> options;

  /**
   * @param name the name on the command line, e.g. {@code ip-lookup}
   * @param description one line for the list of jobs
   * @param options the option table, in usage order
   */
  protected LineJob(String name, String description, List<JobOption<?>> options) {
    this.name = name;
    this.description = description;
    this.options = java.util.Collections.unmodifiableList(options);
  }

  /** The name on the command line, e.g. {@code ip-lookup}. */
  public final String name() {
    return name;
  }

  /** One line for the list of jobs. */
  public final String description() {
    return description;
  }

  /** The option table, in usage order. */
  public final List<JobOption<?>> options() {
    return options;
  }

  /**
   * Driver side, before any task: checks what the options alone cannot (side data exists and is of
   * the right kind, input headers) and ships side data.
   *
   * @throws UsageException for a user's mistake the engine reports as exit 2
   */
  public abstract P plan(JobArgs args, Driver driver) throws IOException;

  /** Task side: the record loop for one split. */
  public abstract LineTask task(P plan, TaskSide side) throws IOException;

  /**
   * Driver side, after the job: the summary of its options and totals (the counts of every task
   * added by name), ending with whether they reconcile.
   *
   * @param countRows count mode: the rows of {@code OUT/part-00000} as {label, count}, most first;
   *     otherwise empty
   * @return whether the counts reconcile ({@code in = out + rejected}, and the job's own rules)
   */
  public abstract boolean summarize(
      P plan, JobArgs args, Map<String, Long> totals, List<Object[]> countRows, Report r);

  /** The usage text with {@code confHint} as its last line. */
  public final String usage(String confHint) {
    return JobArgs.usage(name(), options(), confHint);
  }

  /** Parses {@code args} against {@link #options()}. */
  public final JobArgs parse(
      String[] args, java.util.function.UnaryOperator<String> conf, String confHint) {
    return JobArgs.parse(name(), options(), args, conf, confHint);
  }

  /**
   * Count mode's rows, as every driver writes them to {@code OUT/part-00000}: {key, count}, most
   * first, ties by key.
   */
  public static List<Object[]> countRows(Map<String, Long> sums) {
    List<Object[]> rows = new ArrayList<>();
    sums.forEach((k, v) -> rows.add(new Object[] {k, v}));
    rows.sort(
        (a, b) -> {
          int c = Long.compare((Long) b[1], (Long) a[1]);
          return c != 0 ? c : ((String) a[0]).compareTo((String) b[0]);
        });
    return rows;
  }

  /** Count mode's file: one {@code key<TAB>count} line per row of {@link #countRows}. */
  public static byte[] countFile(List<Object[]> rows) {
    StringBuilder b = new StringBuilder();
    for (Object[] r : rows) {
      b.append(r[0]).append('\t').append(r[1]).append('\n');
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Puts the engine's task and index-load counts of {@code totals} into the summary. */
  protected static void putLoads(Report r, Map<String, Long> totals, String loader) {
    r.put(TASKS, totals.getOrDefault(TASKS, 0L));
    r.put(INDEX_LOADS, totals.getOrDefault(INDEX_LOADS, 0L));
    r.put(INDEX_LOAD_MS + " (" + loader + ", sum)", totals.getOrDefault(INDEX_LOAD_MS, 0L));
    r.put(INDEX_BYTES, totals.getOrDefault(INDEX_BYTES, 0L));
    r.put(STAGE_MS + " (sum)", totals.getOrDefault(STAGE_MS, 0L));
  }
}
