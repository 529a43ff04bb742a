/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import io.spindex.annotations.Internal;
import io.spindex.index.IpRanges;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Deterministic IPv4 query sets for tests and benchmarks (the same seed gives the same addresses on
 * every machine), as {@code int}s in the index's order (unsigned). {@link #uniform} is what a
 * lookup over uniform ranges sees; against a range index shaped like a real database ({@link
 * RangeGenerator.Shape#REAL}) most of those land in empty or sparse space and miss at once, so a
 * benchmark there also wants {@link #weighted} queries, which all land in ranges.
 */
@Internal
public final class Queries {
  private Queries() {}

  /**
   * {@code n} addresses uniform over the 2^32 IPv4 addresses: the addresses of {@code spindex gen
   * ips --count n --seed seed}, in the same order.
   */
  public static int[] uniform(int n, long seed) {
    return uniform(seed).limit(n).toArray();
  }

  /** The endless stream that {@link #uniform(int, long)} takes its first {@code n} from. */
  public static IntStream uniform(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    return IntStream.generate(rnd::nextInt);
  }

  /**
   * {@code n} addresses in the IPv4 ranges of {@code ranges}: each picks a range (every range
   * equally likely, whatever its size) and then an address in it (every address of the range
   * equally likely), so every one is in a range, and the many small ranges of a dense region get as
   * many queries as the few large ones elsewhere.
   *
   * @throws IllegalArgumentException when {@code ranges} has no IPv4 range
   */
  public static int[] weighted(IpRanges ranges, int n, long seed) {
    return weighted(ranges, seed).limit(n).toArray();
  }

  /** The endless stream that {@link #weighted(IpRanges, int, long)} takes its first from. */
  public static IntStream weighted(IpRanges ranges, long seed) {
    // The rows of ranges (a tiled index has gap rows too): the same draws for either layout.
    int[] rows =
        IntStream.range(0, ranges.size())
            .filter(r -> ranges.labelIdOfRow(r) != IpRanges.NONE)
            .toArray();
    int size = rows.length;
    if (size == 0) {
      throw new IllegalArgumentException("no IPv4 ranges to draw addresses from");
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    return IntStream.generate(
        () -> {
          int row = rows[rnd.nextInt(size)];
          long start = Integer.toUnsignedLong(ranges.start(row));
          long end = Integer.toUnsignedLong(ranges.end(row));
          return (int) (start + rnd.nextLong(end - start + 1));
        });
  }
}
