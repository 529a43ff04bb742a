/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import org.apache.spark.SparkConf;

/**
 * The Spark side of {@link io.spindex.options.JobOptions}: option defaults come from {@code
 * spark.spindex.<name>} in the Spark configuration.
 */
final class JobOptions {
  /** Prefix of option defaults in the Spark configuration. */
  static final String CONF_PREFIX = "spark.spindex.";

  private static final String HINT =
      "Defaults can also be set as spark.spindex.<option> in the Spark conf.";

  private JobOptions() {}

  static <K extends Enum<K> & OptionKey> io.spindex.options.JobOptions parse(
      String job, Class<K> keys, String[] args, SparkConf conf) {
    return io.spindex.options.JobOptions.parse(
        job, keys, args, conf == null ? null : k -> conf.get(CONF_PREFIX + k, null), HINT);
  }

  static <K extends Enum<K> & OptionKey> String usage(String job, Class<K> keys) {
    return io.spindex.options.JobOptions.usage(job, keys, HINT);
  }

  /** Bad command line (see {@link io.spindex.job.UsageException}). */
  static final class UsageException extends io.spindex.job.UsageException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }
}
