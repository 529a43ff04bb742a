/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.annotations.Internal;
import io.spindex.index.IpRanges;
import io.spindex.index.IpSet;
import io.spindex.index.SpindexIndex;
import io.spindex.text.RejectReason;
import io.spindex.text.Rejects;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The record logic of ip-lookup, shared by every engine: locate the address in a line, look it up,
 * and decide what to write; counts go to {@link #counts()}. Lines are bytes and stay bytes: only
 * label bytes are appended, nothing is decoded.
 *
 * <p>One instance per task and thread; the index it reads is shared and read-only. The output
 * buffer returned by {@link #out()} is reused by the next call.
 */
@Internal
public final class LineLookup {
  /** {@link #apply} result: write the input line unchanged (filter mode). */
  public static final int WRITE_INPUT = 0;

  /** {@link #apply} result: write {@code out()[0, outLength())} (annotate mode). */
  public static final int WRITE_OUT = 1;

  /** {@link #apply} result: the filter leaves the line out. */
  public static final int FILTERED = 2;

  /** {@link #apply} result: counted under its label (count mode). */
  public static final int COUNTED = 3;

  /** {@link #apply} result: no address; see {@link #lastReject()} and {@link #rejectRecord}. */
  public static final int REJECTED = 4;

  /** Lines of one {@link #applyAll} call at most. */
  public static final int BATCH = 64;

  /** Label written for an address in no range. */
  public static final byte[] NO_LABEL = {'\\', 'N'};

  private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

  private final IpLocator locator;
  private final LookupMode mode;
  private final boolean keepHits;
  private final IpSet set;
  private final IpRanges ranges;

  /** Label bytes by slot: label ids of a range index then {@code \N}; false, true for a set. */
  private final byte[][] labels;

  private final long[] perSlot;
  private final LookupCounts counts = new LookupCounts();
  private byte[] out = new byte[256];
  private int outLength;
  private RejectReason lastReject;

  // applyAll's state: per located address, then per line.
  private final int[] batchAddress = new int[BATCH];
  private final int[] batchLine = new int[BATCH];
  private final int[] batchId = new int[BATCH];
  private final boolean[] batchHit = new boolean[BATCH];
  private final int[] batchSlot = new int[BATCH];
  private final RejectReason[] batchReject = new RejectReason[BATCH];
  private final long[] v6 = new long[2];
  private final long[] batchHi = new long[BATCH];
  private final long[] batchLo = new long[BATCH];
  private final int[] batchLine6 = new int[BATCH];
  private final int[] batchId6 = new int[BATCH];
  private final boolean[] batchHit6 = new boolean[BATCH];

  /**
   * @param keepHits filter mode: keep lines whose address is in the set or in a range (true), or
   *     those whose address is not (false); ignored by the other modes
   */
  public LineLookup(IpLocator locator, SpindexIndex index, LookupMode mode, boolean keepHits) {
    this.locator = locator;
    this.mode = mode;
    this.keepHits = keepHits;
    switch (index.kind()) {
      case IPV4_SET:
        this.set = index.asSet();
        this.ranges = null;
        this.labels = new byte[][] {FALSE, TRUE};
        break;
      case IPV4_RANGES:
        this.set = null;
        this.ranges = index.asRanges();
        this.labels = new byte[ranges.labelCount() + 1][];
        this.labels[ranges.labelCount()] = NO_LABEL;
        break;
      default:
        throw new IllegalArgumentException(
            index.header().file()
                + ": ip-lookup needs an IP set or range index, not "
                + index.kind().description());
    }
    this.perSlot = new long[mode == LookupMode.COUNT ? labels.length : 0];
  }

  /**
   * Handles one line {@code b[from, to)} (without its line end) and counts it.
   *
   * @return {@link #WRITE_INPUT}, {@link #WRITE_OUT}, {@link #FILTERED}, {@link #COUNTED} or {@link
   *     #REJECTED}
   */
  public int apply(byte[] b, int from, int to) {
    counts.linesIn++;
    long a = locator.locate(b, from, to, v6);
    if (a < 0) {
      lastReject = reject(a);
      return REJECTED;
    }
    int slot = a == IpLocator.IPV6 ? slot6() : slot((int) a);
    int result = decide(slot);
    if (result == WRITE_OUT) {
      annotate(b, from, to, slot);
    }
    return result;
  }

  /**
   * Handles lines {@code b[from[i], to[i])}, {@code i < n <= }{@value #BATCH}, exactly as {@link
   * #apply} would one after another (same results, counts and outputs), but looks their addresses
   * up together: the index's cache misses of a batch overlap instead of queueing, which on an index
   * larger than the CPU caches is most of a lookup's time. Then {@link #select} makes each line in
   * turn the current one for {@link #out()} and {@link #rejectRecord}.
   *
   * @param result receives per line what {@link #apply} returns
   */
  public void applyAll(byte[] b, int[] from, int[] to, int n, int[] result) {
    if (n > BATCH) {
      throw new IllegalArgumentException("at most " + BATCH + " lines a batch, not " + n);
    }
    int located = 0;
    int located6 = 0;
    for (int i = 0; i < n; i++) {
      counts.linesIn++;
      long a = locator.locate(b, from[i], to[i], v6);
      if (a < 0) {
        batchReject[i] = reject(a);
        batchSlot[i] = -1;
        result[i] = REJECTED;
      } else if (a == IpLocator.IPV6) {
        batchHi[located6] = v6[0];
        batchLo[located6] = v6[1];
        batchLine6[located6++] = i;
      } else {
        batchAddress[located] = (int) a;
        batchLine[located++] = i;
      }
    }
    if (set != null) {
      set.containsAll(batchAddress, located, batchHit);
      for (int j = 0; j < located; j++) {
        batchSlot[batchLine[j]] = batchHit[j] ? 1 : 0;
      }
    } else {
      ranges.labelIds(batchAddress, located, batchId);
      for (int j = 0; j < located; j++) {
        int id = batchId[j];
        batchSlot[batchLine[j]] = id == IpRanges.NONE ? labels.length - 1 : id;
      }
    }
    if (located6 > 0) {
      counts.ipv6Lookups += located6;
      if (set != null) {
        counts.ipv6Hits += set.containsAll(batchHi, batchLo, located6, batchHit6);
        for (int j = 0; j < located6; j++) {
          batchSlot[batchLine6[j]] = batchHit6[j] ? 1 : 0;
        }
      } else {
        counts.ipv6Hits += ranges.labelIds(batchHi, batchLo, located6, batchId6);
        for (int j = 0; j < located6; j++) {
          int id = batchId6[j];
          batchSlot[batchLine6[j]] = id == IpRanges.NONE ? labels.length - 1 : id;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      if (batchSlot[i] >= 0) {
        result[i] = decide(batchSlot[i]);
      }
    }
  }

  /**
   * Makes line {@code i} of the last {@link #applyAll} the current line: a {@link #WRITE_OUT}
   * line's record is then in {@link #out()}, a {@link #REJECTED} line's reason in {@link
   * #lastReject()}.
   *
   * @param b the line's bytes, {@code b[from, to)}, as given to {@link #applyAll}
   */
  public void select(int i, byte[] b, int from, int to) {
    int slot = batchSlot[i];
    if (slot < 0) {
      lastReject = batchReject[i];
    } else if (mode == LookupMode.ANNOTATE) {
      annotate(b, from, to, slot);
    }
  }

  private RejectReason reject(long code) {
    RejectReason r = RejectReason.ofCode(code);
    counts.rejects[r.ordinal()]++;
    return r;
  }

  /** Counts a located line under its slot and says what to do with it. */
  private int decide(int slot) {
    boolean hit = set != null ? slot == 1 : slot != labels.length - 1;
    counts.lookups++;
    if (hit) {
      counts.hits++;
    }
    switch (mode) {
      case ANNOTATE:
        counts.linesOut++;
        return WRITE_OUT;
      case FILTER:
        if (hit == keepHits) {
          counts.linesOut++;
          return WRITE_INPUT;
        }
        counts.filtered++;
        return FILTERED;
      default:
        perSlot[slot]++;
        counts.counted++;
        return COUNTED;
    }
  }

  /** {@code line<TAB>label} into {@link #out}. */
  private void annotate(byte[] b, int from, int to, int slot) {
    byte[] label = label(slot);
    int n = to - from;
    ensure(n + 1 + label.length);
    System.arraycopy(b, from, out, 0, n);
    out[n] = '\t';
    System.arraycopy(label, 0, out, n + 1, label.length);
    outLength = n + 1 + label.length;
  }

  /** The slot of the IPv6 address in {@link #v6}, counted as an IPv6 lookup. */
  private int slot6() {
    counts.ipv6Lookups++;
    int slot;
    if (set != null) {
      slot = set.contains(v6[0], v6[1]) ? 1 : 0;
    } else {
      int id = ranges.labelId(v6[0], v6[1]);
      slot = id == IpRanges.NONE ? labels.length - 1 : id;
    }
    if (set != null ? slot == 1 : slot != labels.length - 1) {
      counts.ipv6Hits++;
    }
    return slot;
  }

  private int slot(int address) {
    if (set != null) {
      return set.contains(address) ? 1 : 0;
    }
    int id = ranges.labelId(address);
    return id == IpRanges.NONE ? labels.length - 1 : id;
  }

  private byte[] label(int slot) {
    byte[] l = labels[slot];
    if (l == null) {
      l = ranges.labelBytes(slot);
      labels[slot] = l;
    }
    return l;
  }

  /** The reason of the last {@link #REJECTED} line. */
  public RejectReason lastReject() {
    return lastReject;
  }

  /**
   * Builds the rejects-output record of the last rejected line in {@link #out()}, in the one reject
   * format ({@link Rejects}: {@code source<TAB>offset<TAB>reason<TAB><TAB>line}, no detail), where
   * {@code offset} is the byte offset of the line in its file (in the decompressed bytes for
   * compressed input).
   *
   * @param source the input's name as {@link Rejects#field} gives it
   * @return the record length
   */
  public int rejectRecord(byte[] source, long offset, byte[] b, int from, int to) {
    byte[] tail = TAILS[lastReject.ordinal()];
    ensure(Rejects.size(source, tail, to - from));
    outLength = Rejects.write(out, source, offset, tail, b, from, to);
    return outLength;
  }

  /** Each reason's part of a reject record. */
  private static final byte[][] TAILS = new byte[RejectReason.values().length][];

  static {
    for (RejectReason r : RejectReason.values()) {
      TAILS[r.ordinal()] = Rejects.tail(r.label(), "");
    }
  }

  /** The output buffer of the last {@link #WRITE_OUT} or {@link #rejectRecord}; reused. */
  public byte[] out() {
    return out;
  }

  /** Bytes of {@link #out()} that hold the record. */
  public int outLength() {
    return outLength;
  }

  private void ensure(int n) {
    if (out.length < n) {
      out = Arrays.copyOf(out, Math.max(n, out.length * 2));
    }
  }

  /** Receives per-label counts from {@link #drainCounts}. */
  public interface CountSink {
    /** {@code label} is shared: copy it to keep it. */
    void count(byte[] label, long lines);
  }

  /** Count mode: hands every non-zero per-label count to {@code sink} and resets them. */
  public void drainCounts(CountSink sink) {
    for (int s = 0; s < perSlot.length; s++) {
      if (perSlot[s] != 0) {
        sink.count(label(s), perSlot[s]);
        perSlot[s] = 0;
      }
    }
  }

  /** Counts of every line handled so far (live; not reset). */
  public LookupCounts counts() {
    return counts;
  }
}
