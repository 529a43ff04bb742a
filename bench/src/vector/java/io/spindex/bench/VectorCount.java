/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * A node of the benchmark's B+-trees counted in one 512-bit compare, as PlanB counts its nodes
 * with SIMD: 16 {@code int} keys ({@link StaticTree4}) or 8 two-word keys ({@link StaticTree6}),
 * on Java's Vector API. The API is incubating in JDK 17 to 25: this class is compiled apart, with
 * {@code --add-modules jdk.incubator.vector}, and is loaded only by a tree built to use it, which
 * requires the JVM to run with that module ({@link StaticTree4#vectorApi}).
 */
final class VectorCount {
  private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_512;
  private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_512;

  private VectorCount() {}

  /** How many of the 16 keys from {@code at} are at most {@code key} (signed order). */
  static int count16(int[] keys, int at, int key) {
    return IntVector.fromArray(INTS, keys, at).compare(VectorOperators.LE, key).trueCount();
  }

  /**
   * How many of the 8 keys from {@code at} (high words in {@code hi}, low in {@code lo}, both in
   * signed order) are at most the key {@code kh}, {@code kl}.
   */
  static int count8(long[] hi, long[] lo, int at, long kh, long kl) {
    LongVector h = LongVector.fromArray(LONGS, hi, at);
    LongVector l = LongVector.fromArray(LONGS, lo, at);
    return h.compare(VectorOperators.LT, kh)
        .or(h.compare(VectorOperators.EQ, kh).and(l.compare(VectorOperators.LE, kl)))
        .trueCount();
  }
}
