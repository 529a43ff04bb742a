/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.side;

import io.spindex.annotations.Internal;
import io.spindex.index.load.IndexHolder;
import io.spindex.job.SideFile;
import io.spindex.job.TaskSide;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkFiles;
import org.apache.spark.deploy.SparkHadoopUtil;

/**
 * Side data on a Spark executor, for the jobs and the SQL functions alike: a {@link SideFile} found
 * in {@link SparkFiles}, staged once per JVM ({@link Staging}) or opened in place, and loaded once
 * per JVM through {@link TaskSide#index} (the {@link IndexHolder}). Not thread-safe (one per task);
 * what it reaches is.
 */
@Internal
public final class SparkTaskSide implements TaskSide {
  /** The versions of each index an executor holds at most ({@link IndexHolder}). */
  public static final String VERSIONS = SpindexConf.VERSIONS;

  private final String source;
  private final HadoopConf conf;
  private final boolean report;

  /**
   * A job task's side: loads and stages go to the {@link Ledger}, which the job's accumulators
   * drain.
   *
   * @param source the split's file as rejects name it
   * @param conf the job's Hadoop configuration (for staging a Hadoop path)
   */
  public SparkTaskSide(String source, HadoopConf conf) {
    this(source, conf, true);
  }

  private SparkTaskSide(String source, HadoopConf conf, boolean report) {
    this.source = source;
    this.conf = conf;
    this.report = report;
  }

  /**
   * The side of a SQL function or UDF: staging uses the executor's Hadoop configuration, and loads
   * are not put on the {@link Ledger} (no job drains it; a later job would count them as its own).
   */
  public static SparkTaskSide forSql() {
    return new SparkTaskSide("", null, false);
  }

  @Override
  public String source() {
    return source;
  }

  /** Whether this JVM has taken {@code spark.spindex.versions} yet. */
  private static volatile boolean versionsSet;

  @Override
  public Path local(SideFile f) throws IOException {
    if (!versionsSet && SparkEnv.get() != null) {
      IndexHolder.versionsPerIndex(
          SparkEnv.get().conf().getInt(VERSIONS, IndexHolder.DEFAULT_VERSIONS));
      versionsSet = true;
    }
    switch (f.ship()) {
      case FILES:
        return shipped(f.location());
      case LOCAL:
        return Paths.get(f.location());
      default:
        Configuration c =
            conf != null
                ? conf.get()
                : SparkHadoopUtil.get().newConfiguration(SparkEnv.get().conf());
        return Staging.stage(f, c);
    }
  }

  /**
   * Where a file shipped with {@code --files} (or {@code addFile}) is in this JVM: {@link
   * SparkFiles#get}; for a task of a Spark Connect session, which {@code SparkFiles.get} resolves
   * in the session's own directory, the file the server's launch shipped to the root directory when
   * the session's directory has none of that name.
   */
  public static Path shipped(String name) {
    Path p = Paths.get(SparkFiles.get(name));
    if (!java.nio.file.Files.exists(p)) {
      Path launched = Paths.get(SparkFiles.getRootDirectory()).resolve(name);
      if (java.nio.file.Files.isRegularFile(launched)) {
        return launched;
      }
    }
    return p;
  }

  @Override
  public void loaded(IndexHolder.Acquired acquired, String loader) {
    if (report) {
      Ledger.loaded(acquired, loader);
    }
  }
}
