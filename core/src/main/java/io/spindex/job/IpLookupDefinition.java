/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexHeader;
import io.spindex.index.IndexKind;
import io.spindex.index.load.Loader;
import io.spindex.lookup.IpLocator;
import io.spindex.lookup.LineBatch;
import io.spindex.lookup.LineLookup;
import io.spindex.lookup.LookupCounts;
import io.spindex.lookup.LookupMode;
import io.spindex.lookup.Report;
import io.spindex.text.InputException;
import io.spindex.text.RejectReason;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * ip-lookup: annotates, filters or counts text lines by the IPv4 or IPv6 address in them, against a
 * set or range index loaded once per JVM. Outputs: {@code OUT/part-*} (annotate: {@code
 * line<TAB>label}; filter: the line), or in count mode one {@code OUT/part-00000} of {@code
 * label<TAB>lines}, most lines first, ties by label; {@code OUT/_rejects/part-*} (the reject
 * records of {@link io.spindex.text.Rejects}); {@code OUT/_summary.json}.
 */
@Internal
public final class IpLookupDefinition extends LineJob<IpLookupDefinition.Plan> {
  private static final long serialVersionUID = 1L;

  public static final String NAME = "ip-lookup";

  static final JobOption<String> INDEX =
      JobOption.text(
          "index",
          null,
          "index file: a local path, a name shipped with --files/-files, hdfs://...");
  static final JobOption<LookupMode> MODE =
      JobOption.of("mode", "annotate", "annotate | filter | count", LookupMode::byName);
  static final JobOption<String> IP =
      JobOption.of(
          "ip",
          "first",
          "where the address is: 'first' (first IPv4 or IPv6 address on the line) or a field"
              + " index from 0",
          v -> {
            IpLocator.parse(v, "tab");
            return v;
          });
  static final JobOption<String> DELIMITER =
      JobOption.of(
          "delimiter",
          "tab",
          "field delimiter for --ip N: tab, space, comma, pipe, semicolon or a character",
          v -> {
            IpLocator.delimiterByte(v);
            return v;
          });
  static final JobOption<String> KEEP =
      JobOption.choice(
          "keep",
          "hits",
          "filter mode: keep 'hits' (address in the index) or 'misses'",
          "hits",
          "misses");
  static final JobOption<String> LOADER = loaderOption("mapped");
  static final JobOption<String> COMPRESS =
      JobOption.choice("compress", "none", "output compression: none | gzip", "none", "gzip");
  static final JobOption<Long> REDUCERS =
      JobOption.integer("reducers", "1", "count mode: tasks that sum the counts", 1, 10_000);

  /** The index option (for the Spark table path). */
  public static final JobOption<String> INDEX_OPTION = INDEX;

  /** The mode option (for the Spark table path). */
  public static final JobOption<LookupMode> MODE_OPTION = MODE;

  /** The keep option (for the Spark table path). */
  public static final JobOption<String> KEEP_OPTION = KEEP;

  /** The loader option (for the Spark table path). */
  public static final JobOption<String> LOADER_OPTION = LOADER;

  /**
   * Input format: text lines (both engines), or a table (the Spark job reads it with Spark SQL).
   */
  public static final JobOption<String> FORMAT =
      JobOption.choice(
          "format",
          "text",
          "input: text (lines) or a table: parquet | orc | json | csv (Spark only; Parquet out)",
          "text",
          "parquet",
          "orc",
          "json",
          "csv");

  /** Table input: the column that holds the address. */
  public static final JobOption<String> IP_COLUMN =
      JobOption.of(
          "ip-column", "", "table input (--format): the column holding the address", v -> v);

  private static final List<JobOption<?>> OPTIONS =
      Arrays.asList(
          INPUT,
          OUTPUT,
          INDEX,
          MODE,
          IP,
          DELIMITER,
          KEEP,
          LOADER,
          SHIP,
          SPLIT_MB,
          COMPRESS,
          REDUCERS,
          FORMAT,
          IP_COLUMN,
          Freshness.MAX_AGE,
          Freshness.WARN_AGE);

  /** The loader option of jobs that load an index. */
  static JobOption<String> loaderOption(String def) {
    return JobOption.choice(
        "loader",
        def,
        String.join(" | ", Loader.OPTION_NAMES) + " (mapped: ready soonest, docs/SPARK.md)",
        Loader.OPTION_NAMES.toArray(new String[0]));
  }

  /** What ip-lookup's tasks need. */
  public static final class Plan extends LineJob.Plan {
    private static final long serialVersionUID = 1L;

    final SideFile index;
    final IndexKind kind;
    final long rows;
    final String loader;
    final IpLocator locator;
    final LookupMode mode;
    final boolean keepHits;
    final boolean gzip;
    final int reducers;

    /** The version of the index the job answers from ({@link IndexHeader#versionText}). */
    final String version;

    @Override
    public java.util.Map<String, String> reads() {
      return java.util.Map.of("--index", index.given());
    }

    Plan(JobArgs a, SideFile index, IndexHeader header) {
      this.index = index;
      this.version = header.versionText();
      this.kind = header.kind();
      this.rows = header.rowCount();
      this.loader = a.get(LOADER);
      this.locator = IpLocator.parse(a.get(IP), a.get(DELIMITER));
      this.mode = a.get(MODE);
      this.keepHits = a.get(KEEP).equals("hits");
      this.gzip = a.get(COMPRESS).equals("gzip");
      this.reducers = a.get(REDUCERS).intValue();
    }

    @Override
    public boolean gzip() {
      return gzip;
    }

    @Override
    public boolean countsByKey() {
      return mode == LookupMode.COUNT;
    }

    @Override
    public int countTasks() {
      return reducers;
    }
  }

  public IpLookupDefinition() {
    super(NAME, "annotate, filter or count lines by the IP address in them", OPTIONS);
  }

  @Override
  public Plan plan(JobArgs args, Driver driver) throws IOException {
    if (args.get(FORMAT).equals("text") && !args.get(IP_COLUMN).isEmpty()) {
      throw new UsageException(
          NAME
              + ": --ip-column is for table input (--format parquet, orc, json or csv); in text"
              + " lines --ip first or --ip N finds the address");
    }
    if (!args.get(FORMAT).equals("text")) {
      throw new UsageException(
          NAME
              + ": --format "
              + args.get(FORMAT)
              + ": tables are read by the Spark job; this engine reads text lines");
    }
    SideFile shipped = driver.ship(args.get(INDEX), args.get(SHIP));
    IndexHeader header = driver.indexHeader(shipped);
    SideFile index = shipped.pinned(header);
    if (header.kind() != IndexKind.IPV4_SET && header.kind() != IndexKind.IPV4_RANGES) {
      throw new InputException(
          args.get(INDEX)
              + ": ip-lookup needs an IP set or range index, not "
              + header.kind().description());
    }
    Freshness.check(args, args.get(INDEX), header, driver);
    return new Plan(args, index, header);
  }

  @Override
  public LineTask task(Plan p, TaskSide side) throws IOException {
    LineLookup lookup =
        new LineLookup(p.locator, side.index(p.index, p.loader), p.mode, p.keepHits);
    return new Task(lookup, io.spindex.text.Rejects.field(side.source()));
  }

  /**
   * The record loop: lines are copied into a batch ({@link LineBatch}; the engines' readers reuse
   * their buffers), looked up {@value LineLookup#BATCH} at a time so that the index's cache misses
   * overlap, and written in input order.
   */
  private static final class Task implements LineTask {
    private final LineLookup lookup;
    private final byte[] source;
    private final LineBatch batch = new LineBatch();

    Task(LineLookup lookup, byte[] source) {
      this.lookup = lookup;
      this.source = source;
    }

    @Override
    public void line(byte[] b, int from, int to, long offset, RecordSink sink) {
      if (batch.add(b, from, to - from, offset)) {
        flush(sink);
      }
    }

    /** Looks a chunk's lines up in place, a batch at a time: no line is copied. */
    @Override
    public void lines(byte[] b, int from, int to, long offset, RecordSink sink) {
      if (batch.count() > 0) {
        flush(sink); // lines held from line() calls come first
      }
      for (int at = from; at < to; ) {
        int lf = LineTask.lineFeed(b, at, to);
        if (batch.addInPlace(b, at, LineTask.withoutCr(b, at, lf), offset + (at - from))) {
          flush(sink);
        }
        at = lf + 1;
      }
      if (batch.count() > 0) {
        flush(sink); // the chunk's bytes are not ours after this call
      }
    }

    private void flush(RecordSink sink) {
      batch.lookUp(lookup);
      for (int i = 0; i < batch.count(); i++) {
        switch (batch.result(i)) {
          case LineLookup.WRITE_OUT:
            batch.select(lookup, i);
            sink.write(Route.OUTPUT, lookup.out(), 0, lookup.outLength());
            break;
          case LineLookup.WRITE_INPUT:
            sink.write(Route.OUTPUT, batch.bytes(), batch.from(i), batch.length(i));
            break;
          case LineLookup.REJECTED:
            int n = batch.rejectRecord(lookup, source, i);
            sink.write(Route.REJECTS, lookup.out(), 0, n);
            break;
          default:
            break;
        }
      }
      batch.clear();
    }

    @Override
    public void finish(RecordSink sink) {
      flush(sink);
      lookup.drainCounts(sink::count);
    }

    @Override
    public Map<String, Long> counts() {
      return lookup.counts().asMap();
    }
  }

  @Override
  public boolean summarize(
      Plan p, JobArgs args, Map<String, Long> totals, List<Object[]> countRows, Report r) {
    LookupCounts c = LookupCounts.fromMap(totals);
    r.put("index", args.get(INDEX)).put("index shipped as", p.index.toString());
    r.put("index version", p.version);
    r.put("index kind", p.kind.toString()).put("index rows", p.rows);
    r.put("loader", p.loader).put("mode", p.mode.optionName()).put("ip", p.locator.toString());
    if (p.mode == LookupMode.FILTER) {
      r.put("keep", p.keepHits ? "hits" : "misses");
    }
    r.put("lines in", c.linesIn()).put("lines out", c.linesOut());
    if (p.mode == LookupMode.FILTER) {
      r.put("lines filtered out", c.filtered());
    }
    if (p.mode == LookupMode.COUNT) {
      r.put("lines counted", c.counted()).put("labels", countRows.size());
    }
    r.put("lines rejected", c.rejected());
    r.put("balanced", c.balanced()).put("balance", c.balanceText(p.mode));
    r.put("lookups", c.lookups()).put("hits", c.hits()).put("misses", c.misses());
    r.put("ipv4 lookups", c.lookups() - c.ipv6Lookups())
        .put("ipv4 hits", c.hits() - c.ipv6Hits())
        .put("ipv6 lookups", c.ipv6Lookups())
        .put("ipv6 hits", c.ipv6Hits());
    for (RejectReason reason : RejectReason.LOOKUP) {
      r.put("rejects " + reason.label(), c.rejects(reason));
    }
    putLoads(r, totals, p.loader);
    if (p.mode == LookupMode.COUNT) {
      List<List<Object>> top = new ArrayList<>();
      for (int i = 0; i < Math.min(10, countRows.size()); i++) {
        top.add(Arrays.asList(countRows.get(i)));
      }
      r.table("top labels", Arrays.asList("label", "lines"), top);
    }
    return c.balanced();
  }
}
