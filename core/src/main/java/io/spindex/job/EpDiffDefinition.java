/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.ep.DiffCounts;
import io.spindex.ep.EpDiff;
import io.spindex.ep.SeenRows;
import io.spindex.ep.TransformSpec;
import io.spindex.ep.feed.ByteSink;
import io.spindex.ep.feed.EpHeader;
import io.spindex.index.IndexHeader;
import io.spindex.index.IndexKind;
import io.spindex.index.ProductIndex;
import io.spindex.lookup.Report;
import io.spindex.text.InputException;
import java.io.IOException;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ep-diff: today's full EP files against yesterday's product index, into a summary EP. Two stages
 * on every engine: the split stage diffs each split ({@link #task}: I and U rows, rejects) and
 * marks the index rows it saw in a bitmap; the bitmaps are merged (no id travels to the driver) and
 * the delete stage ({@link #writeDeletes}) writes the D rows of ranges of index rows, from the
 * index's id text. Outputs: the I and U parts, then {@code OUT/part-d-*} (D rows), each a complete
 * EP file with its header, or one {@code OUT/summary.tsv} with {@code --single-file true}; {@code
 * OUT/_rejects/}; {@code OUT/_summary.json}.
 */
@Internal
public final class EpDiffDefinition extends LineJob<EpDiffDefinition.Plan> {
  private static final long serialVersionUID = 1L;

  public static final String NAME = "ep-diff";

  /** The count of D rows, which the delete stage adds. */
  public static final String DELETED = "deleted (D)";

  static final JobOption<String> YESTERDAY =
      JobOption.text("yesterday", null, "yesterday's product index (spindex build products)");
  static final JobOption<String> UPDATE_TIME =
      JobOption.of(
          "update-time",
          "now",
          "update_time of every row, yyyy-MM-dd HH:mm:ss, or now",
          v -> {
            String t = v.trim();
            if (!t.equals("now")) {
              try {
                LocalDateTime.parse(t, EpDiff.UPDATE_TIME);
              } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(
                    "expected yyyy-MM-dd HH:mm:ss or now, got '" + v + "'");
              }
            }
            return t;
          });
  static final JobOption<String> LOADER = IpLookupDefinition.loaderOption("nio");
  static final JobOption<Long> MAX_LINE_BYTES =
      JobOption.integer(
          "max-line-bytes",
          String.valueOf(TransformSpec.DEFAULT_MAX_LINE_BYTES),
          "longest accepted line in bytes",
          16,
          1 << 30);
  static final JobOption<Long> DELETE_TASKS =
      JobOption.integer(
          "delete-tasks", "0", "tasks that write D rows (0: as many as input splits)", 0, 100_000);
  static final JobOption<Boolean> SINGLE_FILE =
      JobOption.bool(
          "single-file", "false", "true: merge the parts into OUT/summary.tsv, one header");

  private static final List<JobOption<?>> OPTIONS =
      Arrays.asList(
          INPUT,
          YESTERDAY,
          OUTPUT,
          UPDATE_TIME,
          LOADER,
          SHIP,
          MAX_LINE_BYTES,
          DELETE_TASKS,
          SPLIT_MB,
          SINGLE_FILE,
          Freshness.MAX_AGE,
          Freshness.WARN_AGE);

  /** What ep-diff's tasks need. */
  public static final class Plan extends LineJob.Plan {
    private static final long serialVersionUID = 1L;

    final SideFile yesterday;
    final int rows;
    final String loader;
    final EpHeader header;
    final String time;
    final int maxLine;
    final byte[] outputHeader;
    final boolean single;
    final int deleteTasks;

    /** The version of yesterday's index ({@link IndexHeader#versionText}). */
    final String version;

    @Override
    public Map<String, String> reads() {
      return Map.of("--yesterday", yesterday.given());
    }

    Plan(JobArgs a, SideFile yesterday, IndexHeader index, EpHeader header) {
      this.yesterday = yesterday;
      this.rows = (int) index.rowCount();
      this.version = index.versionText();
      this.loader = a.get(LOADER);
      this.header = header;
      String t = a.get(UPDATE_TIME);
      this.time = t.equals("now") ? LocalDateTime.now().format(EpDiff.UPDATE_TIME) : t;
      this.maxLine = a.get(MAX_LINE_BYTES).intValue();
      this.outputHeader = summaryHeader(header);
      this.single = a.get(SINGLE_FILE);
      this.deleteTasks = a.get(DELETE_TASKS).intValue();
    }

    /** Rows of yesterday's index: the size of the seen-rows bitmap. */
    public int rows() {
      return rows;
    }

    /** Tasks of the delete stage, given the split stage's task count. */
    public int deleteTasks(int splitTasks) {
      return deleteTasks > 0 ? deleteTasks : Math.max(1, splitTasks);
    }

    @Override
    public String singleFile() {
      return single ? "summary.tsv" : null;
    }

    @Override
    public List<String> singleFileParts() {
      return Arrays.asList("part-r-", "part-m-", "part-d-");
    }

    @Override
    public byte[] singleFileHeader() {
      return outputHeader;
    }
  }

  public EpDiffDefinition() {
    super(NAME, "summary EP: today's full EP against yesterday's product index", OPTIONS);
  }

  @Override
  public Plan plan(JobArgs args, Driver driver) throws IOException {
    SideFile shipped = driver.ship(args.get(YESTERDAY), args.get(SHIP));
    IndexHeader h = driver.indexHeader(shipped);
    SideFile f = shipped.pinned(h);
    if (h.kind() != IndexKind.PRODUCTS) {
      throw new InputException(
          args.get(YESTERDAY) + ": ep-diff needs a product index, not " + h.kind().description());
    }
    Freshness.check(args, args.get(YESTERDAY), h, driver);
    return new Plan(args, f, h, driver.firstEpHeader(args.get(INPUT)));
  }

  @Override
  public LineTask task(Plan p, TaskSide side) throws IOException {
    EpDiff.Worker w = diff(p, side).worker();
    return new EpLineTask(
        w, () -> w.counts().asMap(), p.header, p.single ? null : p.outputHeader, side.source());
  }

  private static EpDiff diff(Plan p, TaskSide side) throws IOException {
    ProductIndex yesterday = side.index(p.yesterday, p.loader).asProducts();
    return new EpDiff(p.header, yesterday, p.time, p.maxLine);
  }

  /** The index rows a finished split-stage task saw. */
  public static SeenRows seen(LineTask task) {
    return ((EpDiff.Worker) ((EpLineTask) task).worker()).seen();
  }

  /**
   * The bitmap words of the delete stage's task {@code part} of {@code parts}: {@code [from, to)}.
   * Tasks cover whole 64-row words, so that an engine can ship each task its slice of the bitmap.
   */
  public static int[] deleteWords(Plan p, int part, int parts) {
    long words = (p.rows + 63L) >>> 6;
    return new int[] {(int) (words * part / parts), (int) (words * (part + 1) / parts)};
  }

  /**
   * The delete stage's task {@code part} of {@code parts}: writes the D rows of its range of index
   * rows (those no split saw; {@link #deleteWords}) to {@code sink}, after the part header.
   *
   * @return the D rows written
   */
  public static long writeDeletes(
      Plan p, TaskSide side, SeenRows seen, int part, int parts, RecordSink sink)
      throws IOException {
    EpDiff diff = diff(p, side);
    ByteSink out = new ByteSink(1 << 16);
    if (!p.single) {
      sink.write(Route.OUTPUT, p.outputHeader, 0, p.outputHeader.length - 1);
    }
    int[] words = deleteWords(p, part, parts);
    int from = Math.min(p.rows, words[0] << 6);
    int to = Math.min(p.rows, words[1] << 6);
    long d = 0;
    int step = 1 << 12;
    for (int r = from; r < to; r += step) {
      out.clear();
      d += diff.writeDeletes(seen, r, Math.min(to, r + step), out);
      byte[] b = out.array();
      int f = 0;
      for (int i = 0; i < out.length(); i++) {
        if (b[i] == '\n') {
          sink.write(Route.OUTPUT, b, f, i - f);
          f = i + 1;
        }
      }
    }
    return d;
  }

  /** The summary EP's header: today's columns, less class and update_time, then those two. */
  static byte[] summaryHeader(EpHeader today) {
    List<String> names = new ArrayList<>();
    for (String n : today.names()) {
      if (!n.equals("class") && !n.equals("update_time")) {
        names.add(n);
      }
    }
    names.addAll(EpDiff.addedColumns());
    return EpHeader.of(names).toLine();
  }

  @Override
  public boolean summarize(
      Plan p, JobArgs args, Map<String, Long> totals, List<Object[]> countRows, Report r) {
    r.put("yesterday", args.get(YESTERDAY)).put("index shipped as", p.yesterday.toString());
    r.put("yesterday's version", p.version);
    r.put("yesterday's products", p.rows).put("update time", p.time);
    r.put("single file", p.single);
    Map<String, Long> c = new LinkedHashMap<>();
    new DiffCounts().asMap().keySet().forEach(k -> c.put(k, 0L));
    totals.forEach(
        (k, v) -> {
          if (k.startsWith("rows ") || k.startsWith("rejected") || c.containsKey(k)) {
            c.put(k, v);
          }
        });
    long in = c.get("rows in");
    long ins = c.get("inserted (I)");
    long upd = c.get("updated (U)");
    long rejected = c.get("rows rejected");
    c.put("rows out", ins + upd + c.get(DELETED));
    c.forEach(r::put);
    putLoads(r, totals, p.loader);
    boolean balanced = in == ins + upd + c.get("unchanged") + rejected;
    r.put("balanced", balanced);
    r.put("balance", in + " in = I + U + unchanged + " + rejected + " rejected");
    return balanced;
  }
}
