/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.side;

import io.spindex.annotations.Internal;
import io.spindex.hadoop.HadoopDriver;
import io.spindex.index.IndexHeader;
import io.spindex.job.SideFile;
import java.io.IOException;
import java.net.URI;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The driver half of the jobs' side-file path, for code that is not a job (the SQL functions, the
 * table path of ip-lookup): a path resolved, shipped and checked on the driver as {@link
 * SparkDriver} does it for the jobs. Its executor half is {@link SparkTaskSide}, the jobs' own.
 */
@Internal
public final class SparkSides {
  private SparkSides() {}

  /** A side file as the driver resolved it, with its checked header. */
  public static final class Resolved {
    public final SideFile file;
    public final IndexHeader header;

    Resolved(SideFile file, IndexHeader header) {
      this.file = file;
      this.header = header;
    }
  }

  /**
   * Resolves an index path on the driver as the jobs do ({@code --index-ship auto}: a file shipped
   * with {@code --files}, a local file shipped with {@code addFile}, a Hadoop path staged on each
   * executor; in local mode a local file is read where it is) and reads the whole file once,
   * checking its header and every section checksum.
   */
  public static Resolved resolve(SparkSession spark, String path) throws IOException {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    SparkDriver driver = new SparkDriver(sc);
    String scheme = URI.create(path.replace(" ", "%20")).getScheme();
    boolean localPath = scheme == null || scheme.equals("file") || scheme.length() == 1;
    // As the jobs' --index-ship (spark.spindex.index-ship): auto, or local for a path every node
    // sees (a shared file system); in local mode a local file is read where it is.
    String how = spark.conf().get(SpindexConf.PREFIX + "index-ship", "auto").trim();
    if (how.equals("auto") && sc.sc().isLocal() && localPath) {
      how = "local";
    }
    SideFile f = driver.ship(path, how);
    IndexHeader h = driver.indexHeader(f);
    driver.shipPending();
    return new Resolved(f.pinned(h), h);
  }

  /**
   * The header checksum of the index at {@code path} as it is now: its header and directory read (a
   * few hundred bytes), nothing checked beyond them. What a stream asks at each micro-batch.
   */
  public static int headerCrc(SparkSession spark, String path) throws IOException {
    return HadoopDriver.headerCrc(spark.sparkContext().hadoopConfiguration(), path);
  }
}
