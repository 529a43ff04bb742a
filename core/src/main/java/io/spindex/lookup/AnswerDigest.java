/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexKind;
import io.spindex.index.SpindexIndex;

/**
 * A digest of the answers an index gives to 4096 fixed lookups: equal for every loader of the same
 * file. loader-compare (Spark and MapReduce) checks with it that every strategy loaded the same
 * index.
 */
@Internal
public final class AnswerDigest {
  private AnswerDigest() {}

  /** The digest of {@code index}'s answers; thread-safe (reads only). */
  public static long of(SpindexIndex index) {
    long d = index.size();
    long a = 0x9E3779B97F4A7C15L;
    for (int i = 0; i < 4096; i++) {
      a = a * 6364136223846793005L + 1442695040888963407L;
      int address = (int) (a >>> 32);
      long v =
          index.kind() == IndexKind.IPV4_SET
              ? (index.asSet().contains(address) ? 1 : 0)
              : index.asRanges().labelId(address);
      d = d * 31 + v;
    }
    return d;
  }
}
