/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.job.UsageException;
import io.spindex.lookup.Report;
import io.spindex.options.JobOptions;
import io.spindex.options.OptionKey;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.util.Tool;

/**
 * What every Spindex MapReduce {@link Tool} does around its job: parse its options (after {@code
 * ToolRunner} took the generic ones) into a copy of the configuration, turn a usage error into its
 * message and exit code 2, and keep the finished job's counters and report for callers that run the
 * tool in-process (tests).
 *
 * @param <K> the tool's option enum
 */
abstract class SpindexTool<K extends Enum<K> & OptionKey> extends Configured implements Tool {
  private final String name;
  private final Class<K> options;

  /** The finished job's counters. */
  Counters counters;

  /** The finished job's summary, as printed. */
  Report report;

  SpindexTool(String name, Class<K> options) {
    this.name = name;
    this.options = options;
  }

  @Override
  public final int run(String[] args) throws Exception {
    Configuration conf = new Configuration(getConf());
    try {
      return run(MrOptions.parse(name, options, args, conf), conf);
    } catch (UsageException e) {
      (e.isHelp() ? System.out : System.err).println(e.getMessage());
      return e.exitCode();
    }
  }

  /**
   * Runs the job.
   *
   * @param o the parsed options
   * @param conf the tool's own copy of the configuration, for the job
   * @return the exit code
   */
  abstract int run(JobOptions o, Configuration conf) throws Exception;
}
