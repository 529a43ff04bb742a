/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.side;

import io.spindex.index.IndexHeader;
import io.spindex.index.KeptVersions;
import io.spindex.job.SideFile;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Paths;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The driver half of the jobs' side-file path, for code that is not a job (the SQL functions, the
 * table path of ip-lookup): a path resolved, shipped and checked on the driver as {@link
 * SparkDriver} does it for the jobs. Its executor half is {@link SparkTaskSide}, the jobs' own.
 */
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
    // The version the file is now, by the immutable copy spindex update keeps of it when there is
    // one: executors then read that version whatever happens to the published file meanwhile, and
    // a new version goes out under a new name (Spark ships one file a name).
    String kept = kept(spark, path);
    String target = kept != null ? kept : path;
    SideFile f = driver.ship(target, sc.sc().isLocal() && localPath ? "local" : "auto");
    IndexHeader h = driver.indexHeader(f);
    driver.shipPending();
    return new Resolved(f.pinned(h), h);
  }

  /**
   * The header checksum of the index at {@code path} as it is now: its header and directory read (a
   * few hundred bytes), nothing checked beyond them. What a stream asks at each micro-batch.
   */
  public static int headerCrc(SparkSession spark, String path) throws IOException {
    Path p = new Path(path);
    FileSystem fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
    FileStatus st = fs.getFileStatus(p);
    try (InputStream in = fs.open(p)) {
      return IndexHeader.read(in, st.getLen(), Paths.get(p.getName())).headerCrc32c();
    }
  }

  /**
   * The kept version ({@link KeptVersions}) of the index {@code path} is now, as a path of the same
   * form (plain local, or a URI), or null when none is kept.
   */
  private static String kept(SparkSession spark, String path) {
    try {
      Path p = new Path(path);
      FileSystem fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
      Path dir = new Path(path + KeptVersions.SUFFIX);
      if (!fs.exists(dir) || !fs.getFileStatus(dir).isDirectory()) {
        return null;
      }
      int crc = headerCrc(spark, path);
      String best = null;
      for (FileStatus s : fs.listStatus(dir)) {
        String name = s.getPath().getName();
        Integer c = KeptVersions.crcOf(name);
        if (c != null && c == crc && (best == null || name.compareTo(best) > 0)) {
          best = name;
        }
      }
      if (best == null) {
        return null;
      }
      return p.toUri().getScheme() == null
          ? Paths.get(path + KeptVersions.SUFFIX, best).toString()
          : new Path(dir, best).toString();
    } catch (IOException e) {
      return null; // the published file itself, as without kept versions
    }
  }
}
