/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.search;

import io.spindex.annotations.Internal;
import java.nio.ShortBuffer;

/**
 * The lock-step binary search of the batch lookups ({@link io.spindex.index.IpSet#containsAll},
 * {@link io.spindex.index.IpRanges#labelIds}, {@link Keys128#floorAll}): up to {@value #GROUP}
 * searches, each over its own run of rows, advanced one halving step at a time in turn,
 * branch-free, so that their cache misses overlap instead of queueing. What a key is and how it
 * compares is the {@link Probe}'s; the halving is written once, here.
 *
 * <p>Use: {@link #clear}, {@link #add} each search (the caller puts the search key into its probe
 * at the slot {@code add} returns), {@link #search}, then read {@link #row} and {@link #empty}. Not
 * thread-safe: one per batch call. Allocates two arrays of {@value #GROUP} ints.
 */
@Internal
public final class LockStep {
  /** Searches run in lock step. */
  public static final int GROUP = 16;

  /**
   * How the searches compare: whether the key at {@code row} is at most the key of search {@code
   * slot}. Called in the inner loop; an implementation is a small final class holding the column
   * and the {@value LockStep#GROUP} search keys in primitive arrays (no boxing).
   */
  interface Probe {
    boolean atMost(int row, int slot);
  }

  /**
   * Search keys of 32-bit columns (IPv4 keys, flipped as stored), or of the unsigned 16-bit keys of
   * packed rows read in place: one class for both, so that the probe call of {@link #search} stays
   * bimorphic (this and {@link Keys128.Floor}).
   */
  public static final class IntKeys implements Probe {
    private final IntColumn column;
    private final ShortBuffer lows;
    public final int[] key = new int[GROUP];

    public IntKeys(IntColumn column) {
      this.column = column;
      this.lows = null;
    }

    public IntKeys(ShortBuffer lows) {
      this.column = null;
      this.lows = lows;
    }

    @Override
    public boolean atMost(int row, int slot) {
      return (lows != null ? lows.get(row) & 0xFFFF : column.get(row)) <= key[slot];
    }
  }

  private final int[] base = new int[GROUP];
  private final int[] len = new int[GROUP];
  private int size;
  private int rounds;

  /** Forgets the searches added so far. */
  public void clear() {
    size = 0;
    rounds = 0;
  }

  /** Searches added since {@link #clear}. */
  public int size() {
    return size;
  }

  /**
   * Adds a search over rows {@code [from, from + n)} and returns its slot. An empty run ({@code n
   * == 0}) reads row 0 instead: a valid read (the caller keeps the column non-empty) whose answer
   * {@link #empty} discards.
   */
  public int add(int from, int n) {
    int slot = size++;
    base[slot] = n == 0 ? 0 : from;
    len[slot] = n;
    rounds = Math.max(rounds, 32 - Integer.numberOfLeadingZeros(n));
    return slot;
  }

  /**
   * Runs the searches added: afterwards {@link #row} of each is the last row of its run whose key
   * is at most its key, or the run's first row when none is.
   */
  public void search(Probe probe) {
    int[] base = this.base;
    int[] len = this.len;
    int m = size;
    for (int r = rounds; r > 0; r--) {
      for (int j = 0; j < m; j++) {
        int half = len[j] >>> 1;
        int b = base[j];
        base[j] = probe.atMost(b + half, j) ? b + half : b;
        len[j] -= half;
      }
    }
  }

  /** The row that search {@code slot} ended on (see {@link #search}). */
  public int row(int slot) {
    return base[slot];
  }

  /** Whether search {@code slot} had an empty run: its {@link #row} means nothing. */
  public boolean empty(int slot) {
    return len[slot] == 0;
  }
}
