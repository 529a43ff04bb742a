/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import java.util.Locale;

/**
 * The Spindex counter group (display names in {@code SpindexCounter.properties}). Tasks look the
 * counters up once in {@code setup()} and add their totals once, in {@code cleanup()}; Hadoop keeps
 * only the counters of successful task attempts, so retried or speculative attempts never count
 * twice. Load times are in microseconds: a small index loads in well under a millisecond.
 */
public enum SpindexCounter {
  /** Map tasks that measured the loaders. */
  TASKS,
  /** Index loads: one per task JVM that loaded the index (others shared the JVM's copy). */
  INDEX_LOADS,
  /** Bytes of index files loaded, summed over the loads. */
  INDEX_BYTES,
  LOAD_US_TEXT,
  LOAD_US_IO,
  LOAD_US_NIO,
  LOAD_US_MMAP,
  LOAD_US_MAPPED,
  LOADS_TEXT,
  LOADS_IO,
  LOADS_NIO,
  LOADS_MMAP,
  LOADS_MAPPED,
  /** loader-compare: loads whose answers differed from the first loader's on the same task. */
  ANSWER_MISMATCHES;

  /** Load time counter of a loader option name ({@code mapped-unchecked} counts as mapped). */
  public static SpindexCounter loadMicros(String loader) {
    return valueOf("LOAD_US_" + base(loader));
  }

  /** Load count counter of a loader option name. */
  public static SpindexCounter loads(String loader) {
    return valueOf("LOADS_" + base(loader));
  }

  private static String base(String loader) {
    String l = loader.equals("mapped-unchecked") ? "mapped" : loader;
    return l.toUpperCase(Locale.ROOT);
  }
}
