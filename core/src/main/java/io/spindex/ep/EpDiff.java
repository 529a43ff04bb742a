/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.annotations.Internal;
import io.spindex.ep.feed.ByteSink;
import io.spindex.ep.feed.EpHeader;
import io.spindex.ep.feed.EpRow;
import io.spindex.ep.feed.LineCheck;
import io.spindex.ep.feed.ProductColumns;
import io.spindex.ep.feed.Utf8;
import io.spindex.ep.feed.Verdict;
import io.spindex.index.ProductIndex;
import io.spindex.text.InputException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The summary-EP diff of today's full EP against yesterday's product index, for one input header. A
 * today row whose id the index lacks is written with class {@code I}; one whose {@code price_pc},
 * {@code shipping} or content hash differs from the index's is written with class {@code U};
 * unchanged rows are not written. Every index row a worker sees is marked in its {@link SeenRows};
 * after all workers, the rows no bitmap has are the {@code D} rows ({@link #writeDeletes}), written
 * with the stored id and empty other fields.
 *
 * <p>Summary-EP column order: today's columns as they come (any {@code class} or {@code
 * update_time} column of the input left out), then {@code class}, then {@code update_time}.
 * Immutable and thread-safe; each thread takes its own {@link #worker}.
 */
@Internal
public final class EpDiff {
  /** The {@code update_time} format of summary EPs. */
  public static final DateTimeFormatter UPDATE_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private final ProductIndex yesterday;
  private final ProductColumns columns;
  private final EpHeader output;
  private final int[] outSlots;
  private final byte[] updateTime;
  private final int maxLineBytes;

  /**
   * Checks an update time ({@link #UPDATE_TIME}).
   *
   * @throws IllegalArgumentException (a usage error) naming the value
   */
  public static void checkUpdateTime(String updateTime) {
    try {
      LocalDateTime.parse(updateTime, UPDATE_TIME);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "update time must be yyyy-MM-dd HH:mm:ss, not '" + updateTime + "'", e);
    }
  }

  /**
   * @param updateTime the {@code update_time} of every written row, {@code yyyy-MM-dd HH:mm:ss}
   */
  public EpDiff(EpHeader today, ProductIndex yesterday, String updateTime, int maxLineBytes)
      throws InputException {
    checkUpdateTime(updateTime);
    List<String> extras = new ArrayList<>(yesterday.columnNames());
    extras = extras.subList(ProductIndex.FIXED_COLUMNS.size(), extras.size());
    this.yesterday = yesterday;
    this.columns = new ProductColumns(today, extras, "today's feed");
    List<String> names = new ArrayList<>();
    List<Integer> slots = new ArrayList<>();
    for (int i = 0; i < today.size(); i++) {
      String n = today.names().get(i);
      if (!ProductColumns.NOT_CONTENT.contains(n)) {
        names.add(n);
        slots.add(i);
      }
    }
    names.add("class");
    names.add("update_time");
    this.output = EpHeader.of(names);
    this.outSlots = slots.stream().mapToInt(Integer::intValue).toArray();
    this.updateTime = updateTime.getBytes(StandardCharsets.UTF_8);
    this.maxLineBytes = maxLineBytes;
  }

  /** The summary EP header. */
  public EpHeader outputHeader() {
    return output;
  }

  public ProductIndex yesterday() {
    return yesterday;
  }

  public Worker worker() {
    return new Worker();
  }

  /**
   * Writes a D row for every index row in {@code [fromRow, toRow)} that {@code seen} lacks.
   *
   * @return the number of D rows written
   */
  public long writeDeletes(SeenRows seen, int fromRow, int toRow, ByteSink out) {
    long n = 0;
    int idColumn = columnOfId();
    for (int r = seen.nextClear(fromRow); r < toRow; r = seen.nextClear(r + 1)) {
      out.ensure(yesterday.idLength(r) + outSlots.length + 2 + updateTime.length);
      for (int i = 0; i < outSlots.length; i++) {
        if (i == idColumn) {
          out.len = yesterday.copyId(r, out.buf, out.len);
        }
        out.buf[out.len++] = '\t';
      }
      out.buf[out.len++] = 'D';
      out.buf[out.len++] = '\t';
      System.arraycopy(updateTime, 0, out.buf, out.len, updateTime.length);
      out.len += updateTime.length;
      out.buf[out.len++] = '\n';
      n++;
    }
    return n;
  }

  private int columnOfId() {
    for (int i = 0; i < outSlots.length; i++) {
      if (outSlots[i] == columns.idSlot()) {
        return i;
      }
    }
    throw new IllegalStateException("no id column");
  }

  /** Diffs rows one at a time. Not thread-safe: one per thread. */
  public final class Worker implements RowWorker {
    private final EpRow row = new EpRow(columns.header().size());
    private final Verdict verdict = new Verdict();
    private final LineCheck check = new LineCheck(columns.header().size(), maxLineBytes, true);
    private final ByteSink scratch = new ByteSink(4096);
    private final SeenRows seen = new SeenRows(yesterday.size());
    private final DiffCounts counts = new DiffCounts();

    /**
     * Diffs one line ({@code b[from, to)}, LF excluded), appending an I or U row to {@code out}.
     *
     * @return {@code false} when the row is rejected (reason in {@link #rejectReason()})
     */
    @Override
    public boolean apply(byte[] b, int from, int to, ByteSink out) {
      counts.in++;
      if (!check.checkLine(b, from, to, row, verdict, 0)) {
        counts.reject(verdict.reason);
        markIfKnown(b, from, to);
        return false;
      }
      int id = columns.idSlot();
      if (row.isEmpty(id)) {
        verdict.reject("empty:id", "no id");
        counts.reject(verdict.reason);
        return false;
      }
      int r = yesterday.rowOfId(row.array(id), row.from(id), row.to(id));
      byte cls;
      if (r == ProductIndex.NONE) {
        cls = 'I';
        counts.inserted++;
      } else {
        seen.set(r);
        if (same(r)) {
          counts.unchanged++;
          return true;
        }
        cls = 'U';
        counts.updated++;
      }
      write(cls, out);
      return true;
    }

    private boolean same(int r) {
      for (int c = 0; c < columns.columns(); c++) {
        if (columns.value(row, c, scratch) != yesterday.value(r, c)) {
          return false;
        }
      }
      return true;
    }

    private void write(byte cls, ByteSink out) {
      int n = updateTime.length + 4;
      for (int s : outSlots) {
        n += row.length(s) + 1;
      }
      out.ensure(n);
      for (int s : outSlots) {
        System.arraycopy(row.array(s), row.from(s), out.buf, out.len, row.length(s));
        out.len += row.length(s);
        out.buf[out.len++] = '\t';
      }
      out.buf[out.len++] = cls;
      out.buf[out.len++] = '\t';
      System.arraycopy(updateTime, 0, out.buf, out.len, updateTime.length);
      out.len += updateTime.length;
      out.buf[out.len++] = '\n';
    }

    /**
     * A rejected row whose id can still be read keeps yesterday's product from being deleted: a
     * malformed line is not evidence that the product is gone.
     */
    private void markIfKnown(byte[] b, int from, int to) {
      int end = to > from && b[to - 1] == '\r' ? to - 1 : to;
      if (end - from > maxLineBytes || end == from) {
        return;
      }
      int n = row.split(b, from, end, columns.header().size());
      int id = columns.idSlot();
      if (id < n && Utf8.firstInvalid(row.array(id), row.from(id), row.to(id)) < 0) {
        int r = yesterday.rowOfId(row.array(id), row.from(id), row.to(id));
        if (r != ProductIndex.NONE) {
          seen.set(r);
          counts.rejectedKnownId++;
        }
      }
    }

    @Override
    public String rejectReason() {
      return verdict.reason;
    }

    @Override
    public String rejectDetail() {
      return verdict.detail;
    }

    /** Counts a line the reader could not hold. */
    @Override
    public void rejectUnread(String reason) {
      counts.in++;
      counts.reject(reason);
    }

    /** The index rows this worker has seen. */
    public SeenRows seen() {
      return seen;
    }

    public DiffCounts counts() {
      return counts;
    }
  }

  /** The names of the summary EP's added columns. */
  public static List<String> addedColumns() {
    return Collections.unmodifiableList(java.util.Arrays.asList("class", "update_time"));
  }
}
