/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The option table of gen-logs, the Spark job that writes reproducible access-log lines (test and
 * benchmark input; not a definition: it reads nothing). It lives beside the definitions' tables so
 * that the engines' {@link Settings} know every option of every job.
 */
@Internal
public final class GenLogsOptions {
  private GenLogsOptions() {}

  public static final String NAME = "gen-logs";

  public static final JobOption<Long> LINES =
      JobOption.integer("lines", "1000000", "number of lines", 0, Long.MAX_VALUE);
  public static final JobOption<Long> FILES =
      JobOption.integer("files", "4", "number of output files (tasks)", 1, 100_000);
  public static final JobOption<Long> SEED =
      JobOption.integer("seed", "42", "random seed", Long.MIN_VALUE, Long.MAX_VALUE);
  public static final JobOption<Long> REJECT_PER_MILLE =
      JobOption.integer("reject-per-mille", "10", "lines per thousand without an address", 0, 1000);
  public static final JobOption<Long> IPV6_PER_MILLE =
      JobOption.integer(
          "ipv6-per-mille",
          "0",
          "lines per thousand with an IPv6 client (in the registries' 2000::/3 blocks)",
          0,
          1000);
  public static final JobOption<String> COMPRESS =
      JobOption.choice("compress", "none", "none | gzip", "none", "gzip");

  /** The table, in usage order. */
  public static final List<JobOption<?>> OPTIONS =
      Collections.unmodifiableList(
          Arrays.asList(
              LineJob.OUTPUT, LINES, FILES, SEED, REJECT_PER_MILLE, IPV6_PER_MILLE, COMPRESS));
}
