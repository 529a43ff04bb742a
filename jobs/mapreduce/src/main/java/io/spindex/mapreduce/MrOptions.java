/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.options.JobOptions;
import io.spindex.options.OptionKey;
import org.apache.hadoop.conf.Configuration;

/**
 * The MapReduce side of {@link JobOptions}: parsed after {@code ToolRunner} has taken the generic
 * options ({@code -D}, {@code -files}, {@code -libjars}, {@code -conf}); defaults come from {@code
 * spindex.<name>} in the Hadoop configuration ({@code -D spindex.loader=nio}).
 */
final class MrOptions {
  /** Prefix of option defaults in the Hadoop configuration. */
  static final String CONF_PREFIX = "spindex.";

  private static final String HINT =
      "Generic options (-D, -conf, -files, -libjars) go before these; defaults can also be set as"
          + " -D spindex.<option>=<value>.";

  private MrOptions() {}

  static <K extends Enum<K> & OptionKey> JobOptions parse(
      String job, Class<K> keys, String[] args, Configuration conf) {
    return JobOptions.parse(job, keys, args, k -> conf.get(CONF_PREFIX + k), HINT);
  }
}
