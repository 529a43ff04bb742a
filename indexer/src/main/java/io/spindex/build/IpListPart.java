/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.build;

import io.spindex.Internal;
import io.spindex.ep.EpSplitLines;
import io.spindex.text.LineReader;
import java.io.ByteArrayOutputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * One part of a distributed IP set build ({@code build-index} on Spark): the addresses of some
 * input lines, parsed exactly as {@code spindex build ips} parses them, as sorted unique IPv4 keys
 * and unsorted IPv6 keys, with the line counts and every rejected line as a reject record. Parts
 * are merged by {@link #merge} and the merged keys handed to {@link IpSetBuilder#assembleMerged},
 * which writes the same index as the one-machine build.
 */
@Internal
public final class IpListPart implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What a reject record says was expected. */
  public static final String EXPECTED = "expected one IPv4 or IPv6 address per line";

  /** IPv4 keys ({@code address ^ 0x80000000}), ascending and unique in {@code [0, rows)}. */
  public int[] keys;

  public int rows;
  public long[] hi6;
  public long[] lo6;
  public int count6;
  public long lines;
  public long skipped;

  /** Addresses accepted, duplicates and both families included. */
  public long accepted;

  public final Map<String, Long> rejectCounts = new TreeMap<>();

  /** Reject records ({@code source:offset<TAB>reason<TAB>expected<TAB>line}), LF-terminated. */
  public byte[] rejectRecords;

  /** The first rejected line, as the one-machine build's messages show it; {@code null} if none. */
  public String firstReject;

  private IpListPart() {}

  /** The rejected lines. */
  public long rejected() {
    long n = 0;
    for (long c : rejectCounts.values()) {
      n += c;
    }
    return n;
  }

  /** The keys of {@code slices} (each sorted or not), sorted and unique. */
  public static int[] merge(Iterable<int[]> slices) {
    long n = 0;
    for (int[] s : slices) {
      n += s.length;
    }
    if (n > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("too many addresses for one partition: " + n);
    }
    int[] all = new int[(int) n];
    int at = 0;
    for (int[] s : slices) {
      System.arraycopy(s, 0, all, at, s.length);
      at += s.length;
    }
    int[] histogram = new int[65536];
    for (int k : all) {
      histogram[(k ^ 0x80000000) >>> 16]++;
    }
    int[] out = new int[all.length];
    int rows = sortUnique(all, all.length, histogram, out, false);
    return rows == out.length ? out : Arrays.copyOf(out, rows);
  }

  /**
   * Sorts and deduplicates {@code values[0, count)} through their /16 buckets into {@code out}.
   *
   * @param flip whether {@code values} are addresses, to be stored as keys; otherwise keys already
   * @return the number of unique keys at the front of {@code out}
   */
  private static int sortUnique(int[] values, int count, int[] histogram, int[] out, boolean flip) {
    int[] start = new int[65537];
    for (int p = 0; p < 65536; p++) {
      start[p + 1] = start[p] + histogram[p];
    }
    int[] next = Arrays.copyOf(start, 65536);
    int mask = flip ? 0x80000000 : 0;
    for (int i = 0; i < count; i++) {
      int k = values[i] ^ mask;
      out[next[(k ^ 0x80000000) >>> 16]++] = k;
    }
    long[] bits = new long[1024];
    int rows = 0;
    for (int p = 0; p < 65536; p++) {
      int u = IpSetBuilder.sortUnique(out, start[p], start[p + 1], bits);
      if (start[p] != rows) {
        System.arraycopy(out, start[p], out, rows, u);
      }
      rows += u;
    }
    return rows;
  }

  /** This part without its IPv4 keys and reject records: what the driver needs to know of it. */
  public IpListPart withoutKeys() {
    IpListPart p = new IpListPart();
    p.hi6 = hi6;
    p.lo6 = lo6;
    p.count6 = count6;
    p.lines = lines;
    p.skipped = skipped;
    p.accepted = accepted;
    p.rejectCounts.putAll(rejectCounts);
    p.firstReject = firstReject;
    return p;
  }

  /** The reject records as one text of lines without the last line's LF. */
  public byte[] rejectRecordsWithoutLastLf() {
    int n = rejectRecords.length;
    return n > 0 && rejectRecords[n - 1] == '\n'
        ? Arrays.copyOf(rejectRecords, n - 1)
        : rejectRecords;
  }

  /** How many of {@code keys} fall in each /16 block. */
  public int[] histogram() {
    int[] h = new int[65536];
    for (int i = 0; i < rows; i++) {
      h[(keys[i] ^ 0x80000000) >>> 16]++;
    }
    return h;
  }

  /** Parses the lines of one input split into a part. Not thread-safe. */
  public static final class Parser {
    private final String source;
    private final IpSetBuilder.IpSink sink;
    private final ByteArrayOutputStream rejects = new ByteArrayOutputStream();
    private String firstReject;
    private long lineOffset;
    private long lines;

    /**
     * @param source the input as reject records name it
     * @param bytesGuess the split's size, to size the first buffer
     */
    public Parser(String source, long bytesGuess) {
      this.source = source;
      this.sink = new IpSetBuilder.IpSink(source, bytesGuess / 12 + 16);
      sink.rejects.listener(this::rejected);
    }

    private void rejected(String reason, String file, long line, byte[] b, int from, int to) {
      byte[] r = EpSplitLines.rejectRecord(source, lineOffset, reason, EXPECTED, b, from, to);
      rejects.write(r, 0, r.length);
      rejects.write('\n');
      if (firstReject == null) {
        firstReject =
            source + ":" + lineOffset + ": " + reason + ": '" + Rejects.snippet(b, from, to) + "'";
      }
    }

    /**
     * Parses the whole lines of {@code b[off, off + len)}, which start at byte {@code fileOffset}
     * of the input; each line ends with LF except perhaps the input's last.
     */
    public void lines(byte[] b, int off, int len, long fileOffset) {
      int end = off + len;
      int start = off;
      while (start < end) {
        int lf = start;
        while (lf < end && b[lf] != '\n') {
          lf++;
        }
        lineOffset = fileOffset + (start - off);
        // The same limit and the same snippet as LineReader's, so that counts and reasons agree.
        if (lf - start > LineReader.MAX_LINE_BYTES) {
          sink.tooLong(b, start, start + 64, lines);
        } else {
          sink.line(b, start, lf, lines);
        }
        lines++;
        start = lf + 1;
      }
    }

    /** The part: the addresses sorted, the counts and the reject records. */
    public IpListPart finish() {
      IpListPart p = new IpListPart();
      int[] keys = new int[sink.count];
      p.rows = sortUnique(sink.values, sink.count, sink.histogram, keys, true);
      sink.values = null;
      p.keys = p.rows == keys.length ? keys : Arrays.copyOf(keys, p.rows);
      p.hi6 = Arrays.copyOf(sink.hi6, sink.count6);
      p.lo6 = Arrays.copyOf(sink.lo6, sink.count6);
      p.count6 = sink.count6;
      p.lines = lines;
      p.skipped = sink.skipped;
      p.accepted = (long) sink.count + sink.count6;
      p.rejectCounts.putAll(sink.rejects.counts());
      p.rejectRecords = rejects.toByteArray();
      p.firstReject = firstReject;
      return p;
    }
  }
}
