/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.side;

import io.spindex.index.load.Loader;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The Spark configuration keys of Spindex, one meaning each:
 *
 * <ul>
 *   <li>{@code spark.spindex.index.NAME}: a named index for the SQL functions;
 *   <li>{@code spark.spindex.loader}: the loader ({@code io}, {@code nio}, {@code mapped}, {@code
 *       mapped-unchecked}) of the SQL functions and UDFs, and the jobs' default {@code --loader};
 *   <li>{@code spark.spindex.job.index}: the jobs' default {@code --index} (was {@code
 *       spark.spindex.index}, which still works with a deprecation line);
 *   <li>{@code spark.spindex.<option>}: the jobs' default for every other {@code --option}.
 * </ul>
 *
 * conf/spindex-jobs.conf lists the job keys.
 */
public final class SpindexConf {
  private SpindexConf() {}

  /** The prefix of the jobs' option defaults: {@code spark.spindex.<option>}. */
  public static final String PREFIX = "spark.spindex.";

  /** The prefix that names SQL indexes: {@code spark.spindex.index.NAME}. */
  public static final String INDEX_PREFIX = "spark.spindex.index.";

  /** The loader of the SQL functions and UDFs (and the jobs' default {@code --loader}). */
  public static final String LOADER = "spark.spindex.loader";

  /** The loader the SQL functions use when {@link #LOADER} is not set. */
  public static final String DEFAULT_SQL_LOADER = "mapped";

  /**
   * Whether the SQL functions' lookups over a columnar table (Parquet, ORC, a cached table) run a
   * batch at a time ({@code SpindexBatchExec}, registered by {@code SpindexExtensions}); default
   * {@code true}.
   */
  public static final String BATCH = "spark.spindex.sql.batch";

  /**
   * For shared servers (Spark Connect, the Thrift server, notebooks shared by teams): when {@code
   * true} in the launch configuration, the SQL functions and UDFs open only indexes named in the
   * launch configuration ({@code spark.spindex.index.NAME}, or shipped with {@code --files}), never
   * a path a query gives, and a session's {@code SET} changes neither.
   */
  public static final String NAMES_ONLY = "spark.spindex.sql.namesOnly";

  /**
   * The path of the index a SQL function names: {@code name}'s {@code spark.spindex.index.NAME}
   * entry (of the session, or only of the launch configuration under {@link #NAMES_ONLY}), else
   * {@code name} itself as a path; {@code null} when {@link #NAMES_ONLY} is on and no launch entry
   * names it.
   *
   * @param launch the launch (static) configuration, key to value or null
   * @param session the session's configuration, key to value or null
   */
  public static String sqlIndexPath(
      UnaryOperator<String> launch, UnaryOperator<String> session, String name) {
    if (namesOnly(launch)) {
      return launch.apply(INDEX_PREFIX + name);
    }
    String configured = session.apply(INDEX_PREFIX + name);
    return configured != null ? configured : name;
  }

  /** Whether {@link #NAMES_ONLY} is on in the launch configuration. */
  public static boolean namesOnly(UnaryOperator<String> launch) {
    String v = launch.apply(NAMES_ONLY);
    return v != null && v.trim().equalsIgnoreCase("true");
  }

  /** The jobs' default {@code --index}. */
  public static final String JOB_INDEX = "spark.spindex.job.index";

  /** The jobs' default {@code --index} before it had a key of its own. */
  public static final String DEPRECATED_JOB_INDEX = "spark.spindex.index";

  /** The key of a job option's default: {@link #JOB_INDEX} for {@code index}, else the prefix. */
  public static String jobKey(String option) {
    return option.equals("index") ? JOB_INDEX : PREFIX + option;
  }

  /**
   * A job option's default from the Spark configuration {@code conf} (key to value, or null), or
   * null. {@code index} falls back to {@link #DEPRECATED_JOB_INDEX} with one line on {@code warn}.
   */
  public static String jobDefault(UnaryOperator<String> conf, String option, PrintStream warn) {
    String v = conf.apply(jobKey(option));
    if (option.equals("index")) {
      String old = conf.apply(DEPRECATED_JOB_INDEX);
      if (old != null) {
        warn.println(
            DEPRECATED_JOB_INDEX
                + " is deprecated: use "
                + JOB_INDEX
                + (v != null ? " (set too: " + DEPRECATED_JOB_INDEX + " is ignored)" : ""));
        return v != null ? v : old;
      }
    }
    return v;
  }

  /**
   * The SQL functions' loader: {@code value} (the {@link #LOADER} setting, or null for {@link
   * #DEFAULT_SQL_LOADER}) checked against the loaders the jobs take.
   *
   * @throws IllegalArgumentException one line naming the key, the value and the loaders taken
   */
  public static String sqlLoader(String value) {
    if (value == null) {
      return DEFAULT_SQL_LOADER;
    }
    String v = value.trim().toLowerCase(Locale.ROOT);
    try {
      Loader.forOption(v); // the jobs' own check of a loader name
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(LOADER + ": " + e.getMessage());
    }
    return v;
  }
}
