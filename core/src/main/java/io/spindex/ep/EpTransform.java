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
import io.spindex.ep.feed.Verdict;
import io.spindex.text.Bytes;
import java.util.List;

/**
 * A transform spec compiled against one input header: the row steps to run and the output columns.
 * Immutable and thread-safe; each thread (task) takes its own {@link #worker}.
 *
 * <p>Rows are worked on as bytes: a line is split at tabs into slices of its own buffer; only the
 * fields a step reads are looked at, only changed values are copied, and the output row is the
 * slices written in output order. A row no step changed, whose columns keep their order, is copied
 * as it was (without its CR).
 */
@Internal
public final class EpTransform {
  private final TransformSpec spec;
  private final EpHeader input;
  private final EpHeader output;
  private final int[] outSlots;
  private final boolean identityColumns;
  private final int slots;
  private final Step.RowStep[] steps;

  /** The input fields lines are screened in for the text normalisers ({@link EpRow#isClean}). */
  private final long screen;

  private static final long LFS = Bytes.repeat((byte) '\n');

  EpTransform(TransformSpec spec, EpHeader input, Schema schema, List<Step.RowStep> steps) {
    this.spec = spec;
    this.input = input;
    this.output = EpHeader.of(schema.names());
    this.outSlots = schema.outputSlots();
    this.slots = schema.slotCount();
    this.steps = steps.toArray(new Step.RowStep[0]);
    boolean identity = outSlots.length == input.size();
    for (int i = 0; identity && i < outSlots.length; i++) {
      identity = outSlots[i] == i;
    }
    this.identityColumns = identity;
    long sc = 0;
    for (Step.RowStep s : this.steps) {
      sc |= s.cleanSlots();
    }
    this.screen = sc;
  }

  /** The input header this transform was compiled against. */
  public EpHeader inputHeader() {
    return input;
  }

  /** The header of the output. */
  public EpHeader outputHeader() {
    return output;
  }

  public TransformSpec spec() {
    return spec;
  }

  /** A new worker with its own row buffers and counts. */
  public Worker worker() {
    return new Worker();
  }

  /** Applies the transform to rows, one at a time. Not thread-safe: one per thread. */
  public final class Worker implements RowWorker {
    private final EpRow row = new EpRow(slots);
    private final Verdict verdict = new Verdict();
    private final LineCheck lineCheck =
        new LineCheck(input.size(), spec.maxLineBytes(), spec.validateUtf8());
    private final EpCounts counts = new EpCounts(spec.stepLabels());
    private final int fields = input.size();
    private final int maxLineBytes = spec.maxLineBytes();
    private boolean accepted;

    /**
     * Transforms one line ({@code b[from, to)}, without its LF): appends the output row with LF to
     * {@code out} and returns {@code true}, or returns {@code false} and leaves the reason in
     * {@link #rejectReason()} and {@link #rejectDetail()}. The line is checked through the fused
     * scan where it can be ({@link LineCheck#checkLine}).
     */
    @Override
    public boolean apply(byte[] b, int from, int to, ByteSink out) {
      counts.in++;
      if (!lineCheck.checkLine(b, from, to, row, verdict, screen)) {
        counts.reject(verdict.reason);
        return false;
      }
      return steps(b, from, to, out);
    }

    /** {@link #apply} with the byte-wise line checks only ({@link LineCheck#check}). */
    boolean applyBytewise(byte[] b, int from, int to, ByteSink out) {
      counts.in++;
      if (!lineCheck.check(b, from, to, row, verdict)) {
        counts.reject(verdict.reason);
        return false;
      }
      return steps(b, from, to, out);
    }

    /**
     * {@link #apply} on the line starting at {@code from}, its end not yet known: finds the LF
     * (before {@code limit}, or {@code limit} itself) in the same pass that splits and checks the
     * line, which is the common case; lines it cannot vouch for go through {@link #applyBytewise}.
     *
     * @return the index of the line's LF, or {@code limit} for a last line without one; whether the
     *     line was accepted is {@link #accepted()}
     */
    int applyNext(byte[] b, int from, int limit, ByteSink out) {
      int lf = row.scanLine(b, from, limit, fields, screen);
      if (lf >= 0) {
        int end = lf > from && b[lf - 1] == '\r' ? lf - 1 : lf;
        if (end > from && end - from <= maxLineBytes) {
          counts.in++;
          accepted = steps(b, from, lf, out);
          return lf;
        }
      } else {
        lf = Bytes.indexOf(b, from, limit, (byte) '\n', LFS);
      }
      accepted = applyBytewise(b, from, lf, out);
      return lf;
    }

    @Override
    public int nextRow(byte[] b, int from, int limit, ByteSink out) {
      int lf = applyNext(b, from, limit, out);
      return accepted ? lf : -1 - lf;
    }

    /** Whether the line of the last {@link #applyNext} was accepted. */
    boolean accepted() {
      return accepted;
    }

    /** The steps on the row the line {@code b[from, to)} was split into. */
    private boolean steps(byte[] b, int from, int to, ByteSink out) {
      boolean changed = false;
      for (Step.RowStep s : steps) {
        int r = s.apply(row, verdict);
        counts.step(s.position, r);
        if (r == Step.RowStep.REJECTED) {
          counts.reject(verdict.reason);
          return false;
        }
        changed |= r == Step.RowStep.CHANGED;
      }
      counts.out++;
      if (!changed && identityColumns) {
        int end = to > from && b[to - 1] == '\r' ? to - 1 : to;
        out.ensure(end - from + 1);
        System.arraycopy(b, from, out.buf, out.len, end - from);
        out.len += end - from;
        out.buf[out.len++] = '\n';
        return true;
      }
      writeRow(out);
      return true;
    }

    /**
     * Writes the slots in output order. Neighbouring output columns whose bytes are neighbours in
     * the line too (unchanged, in input order) are copied as one run, tab included: a row with its
     * columns in input order and one changed value is three copies, not thirty.
     */
    private void writeRow(ByteSink out) {
      int last = outSlots.length - 1;
      if (last < 0) {
        out.write((byte) '\n');
        return;
      }
      for (int i = 0; i <= last; i++) {
        int s = outSlots[i];
        byte[] a = row.array(s);
        int from = row.from(s);
        int to = row.to(s);
        while (i < last) {
          int next = outSlots[i + 1];
          if (row.array(next) != a || row.from(next) != to + 1 || a[to] != '\t') {
            break;
          }
          to = row.to(next);
          i++;
        }
        // Room for each run as it comes: one pass over the slots, not one to size the row first.
        out.ensure(to - from + 1);
        byte[] o = out.buf;
        int at = out.len;
        System.arraycopy(a, from, o, at, to - from);
        at += to - from;
        o[at++] = i == last ? (byte) '\n' : (byte) '\t';
        out.len = at;
      }
    }

    /** Counts a line the reader rejected before it reached {@link #apply} (over-long lines). */
    @Override
    public void rejectUnread(String reason) {
      counts.in++;
      counts.reject(reason);
    }

    /** Why the last rejected row was rejected, e.g. {@code too-long:title}. */
    @Override
    public String rejectReason() {
      return verdict.reason;
    }

    /** The specifics of the last reject, e.g. {@code 123 characters, limit 100}. */
    @Override
    public String rejectDetail() {
      return verdict.detail;
    }

    /** This worker's counts so far. */
    public EpCounts counts() {
      return counts;
    }
  }
}
