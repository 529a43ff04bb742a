/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.annotations.Internal;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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

  /**
   * IPv4 keys ({@code address ^ 0x80000000}) as parsed, duplicates included, grouped by /16 block
   * in block order (unsorted within a block).
   */
  public int[] keys;

  /** How many of {@link #keys} fall in each /16 block. */
  public int[] blockCounts;

  public long[] hi6;
  public long[] lo6;
  public int count6;
  public long lines;
  public long skipped;

  /** Addresses accepted, duplicates and both families included. */
  public long accepted;

  public final Map<String, Long> rejectCounts = new TreeMap<>();

  /** Reject records ({@code source<TAB>offset<TAB>reason<TAB>detail<TAB>line}), LF-terminated. */
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

  /**
   * The keys in /16 blocks {@code [fromBlock, toBlock)} as what a shuffle moves: each block's count
   * (int32) and then every key's low 16 bits (int16) grouped by block in block order,
   * little-endian; the block gives the high 16 bits, so 2 bytes per address travel instead of 4.
   * Empty when no key is in those blocks.
   */
  public byte[] blocks(int fromBlock, int toBlock) {
    int from = 0;
    for (int b = 0; b < fromBlock; b++) {
      from += blockCounts[b];
    }
    int n = 0;
    for (int b = fromBlock; b < toBlock; b++) {
      n += blockCounts[b];
    }
    if (n == 0) {
      return new byte[0];
    }
    int blocks = toBlock - fromBlock;
    ByteBuffer buf = ByteBuffer.allocate(blocks * 4 + n * 2).order(ByteOrder.LITTLE_ENDIAN);
    buf.asIntBuffer().put(blockCounts, fromBlock, blocks);
    short[] low = new short[n];
    for (int i = 0; i < n; i++) {
      low[i] = (short) keys[from + i];
    }
    buf.position(blocks * 4);
    buf.asShortBuffer().put(low);
    return buf.array();
  }

  /**
   * The keys of {@code slices} (each from {@link #blocks} over the same blocks {@code [fromBlock,
   * toBlock)}), sorted and unique. Block by block, each slice's keys of the block are gathered and
   * sorted where they lie ({@link IpSetBuilder#sortUnique}: through a bitmap when the block is
   * full), so every key is read and written in sequence.
   */
  public static int[] merge(Iterable<byte[]> slices, int fromBlock, int toBlock) {
    int blocks = toBlock - fromBlock;
    List<int[]> counts = new ArrayList<>();
    List<short[]> lows = new ArrayList<>();
    long n = 0;
    for (byte[] s : slices) {
      if (s.length == 0) {
        continue;
      }
      ByteBuffer buf = ByteBuffer.wrap(s).order(ByteOrder.LITTLE_ENDIAN);
      int[] c = new int[blocks];
      buf.asIntBuffer().get(c);
      buf.position(blocks * 4);
      short[] low = new short[(s.length - blocks * 4) / 2];
      buf.asShortBuffer().get(low);
      counts.add(c);
      lows.add(low);
      n += low.length;
    }
    if (n > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("too many addresses for one partition: " + n);
    }
    int[] out = new int[(int) n];
    int[] at = new int[lows.size()];
    long[] bits = new long[1024];
    int rows = 0;
    for (int b = 0; b < blocks; b++) {
      int high = ((fromBlock + b) << 16) ^ 0x80000000;
      int end = rows;
      for (int s = 0; s < at.length; s++) {
        short[] low = lows.get(s);
        for (int i = at[s], stop = i + counts.get(s)[b]; i < stop; i++) {
          out[end++] = high | (low[i] & 0xFFFF);
        }
        at[s] += counts.get(s)[b];
      }
      rows += IpSetBuilder.sortUnique(out, rows, end, bits);
    }
    return rows == out.length ? out : Arrays.copyOf(out, rows);
  }

  private static int block(int key) {
    return (key ^ 0x80000000) >>> 16;
  }

  /** How many of {@code keys[0, n)} fall in each /16 block. */
  public static int[] blockCounts(int[] keys, int n) {
    int[] h = new int[65536];
    for (int i = 0; i < n; i++) {
      h[block(keys[i])]++;
    }
    return h;
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
    return SplitFeed.withoutLastLf(rejectRecords);
  }

  /** How many of this part's keys fall in each /16 block. */
  public int[] histogram() {
    return blockCounts;
  }

  /** Parses the lines of one input split into a part. Not thread-safe. */
  public static final class Parser implements SplitParser<IpListPart> {
    private final IpSink sink;
    private final SplitFeed feed;

    /**
     * @param source the input as reject records name it
     * @param bytesGuess the split's size, to size the first buffer
     */
    public Parser(String source, long bytesGuess) {
      this.sink = new IpSink(source, bytesGuess / 12 + 16);
      this.feed = new SplitFeed(source, EXPECTED, sink, sink.rejects);
    }

    @Override
    public void lines(byte[] b, int off, int len, long fileOffset) {
      feed.lines(b, off, len, fileOffset);
    }

    @Override
    public IpListPart finish() {
      IpListPart p = new IpListPart();
      // Grouped by /16 block (a counting sort on the top 16 bits); sorted only when merged.
      int[] keys = new int[sink.count];
      int[] next = new int[65536];
      for (int b = 1; b < 65536; b++) {
        next[b] = next[b - 1] + sink.histogram[b - 1];
      }
      int[] values = sink.values;
      for (int i = 0, n = sink.count; i < n; i++) {
        int a = values[i];
        keys[next[a >>> 16]++] = a ^ 0x80000000;
      }
      sink.values = null;
      p.keys = keys;
      p.blockCounts = sink.histogram;
      p.hi6 = Arrays.copyOf(sink.hi6, sink.count6);
      p.lo6 = Arrays.copyOf(sink.lo6, sink.count6);
      p.count6 = sink.count6;
      p.lines = feed.lines();
      p.skipped = sink.skipped;
      p.accepted = (long) sink.count + sink.count6;
      p.rejectCounts.putAll(sink.rejects.counts());
      p.rejectRecords = feed.rejectRecords();
      p.firstReject = feed.firstReject();
      return p;
    }
  }
}
