/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.side;

import io.spindex.annotations.Internal;
import io.spindex.index.load.Loader;
import io.spindex.job.BuildIndexDefinition;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.GenLogsOptions;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.LoaderCompareDefinition;
import io.spindex.job.Settings;
import java.util.Arrays;
import java.util.Collections;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark settings of Spindex: the one grammar of {@link Settings}, written as Spark writes its
 * settings, {@code spark.spindex.<name>} with the command line's option names as they are:
 *
 * <ul>
 *   <li>{@code spark.spindex.<option>}: a job's default for {@code --option} (every option of every
 *       job but {@code --index});
 *   <li>{@code spark.spindex.index.NAME}: a named index, for the SQL functions ({@code
 *       spindex_label(ip, 'NAME')}) and the jobs ({@code --index NAME}) alike;
 *   <li>{@code spark.spindex.loader}: also the loader ({@code io}, {@code nio}, {@code mapped},
 *       {@code mapped-unchecked}) of the SQL functions and UDFs; {@code spark.spindex.index-ship}
 *       also how the SQL functions ship an index;
 *   <li>{@code spark.spindex.sql.batch}, {@code spark.spindex.sql.names-only}: the SQL functions'
 *       own; {@code spark.spindex.versions}: the versions of an index an executor holds.
 * </ul>
 *
 * Any other key under {@code spark.spindex.} is refused, by a job before it starts and by the SQL
 * functions when a query is analysed, in one line naming the nearest known key.
 * conf/spindex-jobs.conf lists the settings.
 */
@Internal
public final class SpindexConf {
  private SpindexConf() {}

  /** The prefix of every Spindex key in the Spark configuration. */
  public static final String PREFIX = "spark.spindex.";

  /** The family that names indexes: {@code spark.spindex.index.NAME}. */
  public static final String INDEX = "index";

  /** The prefix that names indexes: {@code spark.spindex.index.NAME}. */
  public static final String INDEX_PREFIX = PREFIX + INDEX + ".";

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
  public static final String NAMES_ONLY = "spark.spindex.sql.names-only";

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

  /** The versions of each index an executor holds at most ({@code IndexHolder}). */
  public static final String VERSIONS = "spark.spindex.versions";

  /**
   * Every Spark setting: the options of every Spark job's table (but {@code --index}: an index is
   * named, {@link #INDEX_PREFIX}), and the engine's own.
   */
  public static final Settings SETTINGS = settings();

  private static Settings settings() {
    Set<String> names =
        Settings.optionNames(
            Arrays.asList(
                new IpLookupDefinition().options(),
                LoaderCompareDefinition.OPTIONS,
                BuildIndexDefinition.OPTIONS,
                GenLogsOptions.OPTIONS,
                new EpTransformDefinition().options(),
                new EpDiffDefinition().options()));
    names.remove(INDEX);
    for (String k : Arrays.asList(LOADER, BATCH, NAMES_ONLY, VERSIONS)) {
      names.add(k.substring(PREFIX.length()));
    }
    return Settings.of(PREFIX, names, Collections.singletonList(INDEX));
  }

  /**
   * Null when every {@code spark.spindex.} key of {@code keys} is a setting; else one line naming
   * the first that is not and the nearest that is ({@link Settings#unknown}).
   */
  public static String unknown(Iterable<String> keys) {
    return SETTINGS.unknown(keys);
  }

  /**
   * What the SQL functions check when a query is analysed: the keys of the session's configuration
   * and of the launch configuration ({@link #unknown}).
   */
  public static String unknown(SparkSession spark) {
    Set<String> keys = new TreeSet<>();
    for (scala.Tuple2<String, String> kv : spark.sparkContext().getConf().getAll()) {
      keys.add(kv._1());
    }
    scala.collection.Iterator<String> session = spark.conf().getAll().keysIterator();
    while (session.hasNext()) {
      keys.add(session.next());
    }
    return unknown(keys);
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
