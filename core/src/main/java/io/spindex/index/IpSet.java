/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.index.search.Encoding;
import io.spindex.index.search.IntColumn;
import io.spindex.index.search.Keys128;
import io.spindex.index.search.LockStep;

/**
 * A read-only set of IP addresses: IPv4 addresses as 32-bit keys and, in a dual-stack file, IPv6
 * addresses as 128-bit keys beside them. Thread-safe; lookups allocate nothing. With a /16 prefix
 * table, a lookup is one table read and a binary search within one /16 block; without one, a binary
 * search over all keys of the family.
 *
 * <p>Rows ({@link #size}, {@link #address}) are the IPv4 addresses; the IPv6 ones are counted by
 * {@link #ipv6Size}. An IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}) is looked up as the IPv4
 * address {@code a.b.c.d}.
 */
public final class IpSet extends SpindexIndex {
  private final IntColumn keys;
  private final IntColumn prefix;
  private final Keys128 keys6;

  IpSet(IndexHeader header, String loader, IntColumn keys, IntColumn prefix, Keys128 keys6) {
    super(header, loader);
    this.keys = keys;
    this.prefix = prefix;
    this.keys6 = keys6;
  }

  /** The IPv6 keys (none in a file without IPv6 sections). */
  Keys128 keys6() {
    return keys6;
  }

  /**
   * Batch IPv6 membership: {@code out[i] = contains(hi[i], lo[i])} for {@code i < count}, the
   * searches in lock step (see {@link #containsAll(int[], int, boolean[])}).
   *
   * @return how many of them are in the set
   */
  public int containsAll(long[] hi, long[] lo, int count, boolean[] out) {
    int[] rows = new int[count];
    keys6.floorAll(hi, lo, count, rows);
    int hits = 0;
    for (int i = 0; i < count; i++) {
      boolean hit =
          isIpv4Mapped(hi[i], lo[i])
              ? contains((int) lo[i])
              : rows[i] >= 0 && keys6.equalsAt(rows[i], hi[i], lo[i]);
      out[i] = hit;
      hits += hit ? 1 : 0;
    }
    return hits;
  }

  /** IPv6 addresses in the set. */
  public int ipv6Size() {
    return keys6.size();
  }

  /** High 64 bits of IPv6 address {@code row}, in ascending unsigned 128-bit order. */
  public long ipv6Hi(int row) {
    return keys6.hi(row);
  }

  /** Low 64 bits of IPv6 address {@code row}. */
  public long ipv6Lo(int row) {
    return keys6.lo(row);
  }

  /**
   * Whether the set holds the IPv6 address whose high and low 64 bits are given; an IPv4-mapped
   * address is looked up as its IPv4 address.
   */
  public boolean contains(long hi, long lo) {
    if (isIpv4Mapped(hi, lo)) {
      return contains((int) lo);
    }
    int r = keys6.floor(hi, lo);
    return r >= 0 && keys6.equalsAt(r, hi, lo);
  }

  @Override
  public IpSet asSet() {
    return this;
  }

  /** The /16 prefix table, or {@code null} when the file has none. */
  IntColumn prefixTable() {
    return prefix;
  }

  /** IPv4 addresses in the set (the IPv6 ones: {@link #ipv6Size}). */
  @Override
  public int size() {
    return keys.size();
  }

  /** The address at {@code row}, in ascending unsigned order. */
  public int address(int row) {
    return Encoding.flip(keys.get(row));
  }

  /** Whether the set holds {@code address} (network-order bits, see {@link SpindexIndex}). */
  public boolean contains(int address) {
    int key = Encoding.flip(address);
    int lo;
    int hi;
    if (prefix != null) {
      int p = address >>> 16;
      lo = prefix.get(p);
      hi = prefix.get(p + 1);
    } else {
      lo = 0;
      hi = keys.size();
    }
    int i = IntColumn.lowerBound(keys, lo, hi, key);
    return i < hi && keys.get(i) == key;
  }

  /**
   * Batch membership: {@code out[i] = contains(addresses[i])} for {@code i < count}. Faster than
   * one call per address on sets larger than the CPU caches: {@value #GROUP} addresses are searched
   * in lock step by branch-free halving ({@link LockStep}), so their cache misses overlap instead
   * of queueing. Allocates a few arrays of {@value #GROUP} ints per call, nothing per address.
   *
   * @return how many of them are in the set
   */
  public int containsAll(int[] addresses, int count, boolean[] out) {
    int last = keys.size() - 1;
    if (prefix == null || last < 0) {
      int hits = 0;
      for (int i = 0; i < count; i++) {
        boolean hit = contains(addresses[i]);
        out[i] = hit;
        hits += hit ? 1 : 0;
      }
      return hits;
    }
    LockStep search = new LockStep();
    LockStep.IntKeys probe = new LockStep.IntKeys(keys);
    int[] key = probe.key;
    int hits = 0;
    for (int g = 0; g < count; g += GROUP) {
      int m = Math.min(GROUP, count - g);
      search.clear();
      for (int j = 0; j < m; j++) {
        int address = addresses[g + j];
        int p = address >>> 16;
        int lo = prefix.get(p);
        key[search.add(lo, prefix.get(p + 1) - lo)] = Encoding.flip(address);
      }
      search.search(probe);
      for (int j = 0; j < m; j++) {
        boolean hit = !search.empty(j) && keys.get(search.row(j)) == key[j];
        out[g + j] = hit;
        hits += hit ? 1 : 0;
      }
    }
    return hits;
  }

  /** Addresses searched in lock step by the batch lookups. */
  static final int GROUP = LockStep.GROUP;
}
