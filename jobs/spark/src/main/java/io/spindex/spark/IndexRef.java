/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.index.IndexHeader;
import io.spindex.index.Loader;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.SparkFiles;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Where executors find the index file; small and serializable, so it is all a task closure carries
 * about the index (never the index itself). Resolved on the driver from {@code --index} and {@code
 * --index-ship}:
 *
 * <ul>
 *   <li>{@code files}: a file shipped with {@code spark-submit --files} (matched by file name) or,
 *       for a local path, added by the job with {@code addFile}; executors open {@link
 *       SparkFiles#get}.
 *   <li>{@code stage}: any Hadoop path ({@code hdfs://}, {@code s3a://}, ...); each executor JVM
 *       copies it to local disk once ({@link Staging}) and loads the copy.
 *   <li>{@code local}: a path that exists on every node (NFS, pre-distributed); opened in place.
 * </ul>
 *
 * {@code auto} (the default) picks {@code files} for a name listed by {@code --files} or a local
 * path, else {@code stage}. Immutable.
 */
final class IndexRef implements Serializable {
  private static final long serialVersionUID = 1L;

  enum Ship {
    FILES,
    STAGE,
    LOCAL
  }

  private final Ship ship;
  private final String location;
  private final long length;
  private final long modified;

  private IndexRef(Ship ship, String location, long length, long modified) {
    this.ship = ship;
    this.location = location;
    this.length = length;
    this.modified = modified;
  }

  Ship ship() {
    return ship;
  }

  /** The SparkFiles name, the Hadoop URI, or the local path. */
  String location() {
    return location;
  }

  /** File length seen by the driver, or -1 when the driver does not see the file. */
  long length() {
    return length;
  }

  long modified() {
    return modified;
  }

  /** Driver side: decides how executors will find {@code index}. */
  static IndexRef resolve(JavaSparkContext sc, String index, String shipOption) throws IOException {
    String ship = shipOption.trim().toLowerCase(Locale.ROOT);
    String name = new org.apache.hadoop.fs.Path(index).getName();
    boolean listed = false;
    for (String f : scala.collection.JavaConverters.seqAsJavaList(sc.sc().listFiles())) {
      listed |= new org.apache.hadoop.fs.Path(f).getName().equals(name);
    }
    URI uri = new org.apache.hadoop.fs.Path(index).toUri();
    boolean localScheme = uri.getScheme() == null || uri.getScheme().equals("file");
    switch (ship) {
      case "auto":
        if (listed) {
          return files(name, index);
        }
        if (localScheme) {
          return addFile(sc, index, uri, name);
        }
        return stage(sc, index);
      case "files":
        return listed ? files(name, index) : addFile(sc, index, uri, name);
      case "stage":
        return stage(sc, index);
      case "local":
        Path p = localScheme ? Paths.get(uri.getPath()) : Paths.get(index);
        return new IndexRef(Ship.LOCAL, p.toAbsolutePath().toString(), -1, -1);
      default:
        throw new JobOptions.UsageException(
            "--index-ship '" + shipOption + "': expected auto, files, stage or local");
    }
  }

  private static IndexRef files(String name, String index) {
    Path local = Paths.get(index);
    long len = Files.isRegularFile(local) ? local.toFile().length() : -1;
    return new IndexRef(Ship.FILES, name, len, -1);
  }

  private static IndexRef addFile(JavaSparkContext sc, String index, URI uri, String name)
      throws IOException {
    Path p = Paths.get(uri.getPath());
    if (!Files.isRegularFile(p)) {
      throw new java.io.FileNotFoundException(
          "index "
              + index
              + ": no such file on the driver (ship it with --files, or give a"
              + " Hadoop path such as hdfs://...)");
    }
    sc.addFile(p.toAbsolutePath().toString());
    return new IndexRef(Ship.FILES, name, Files.size(p), -1);
  }

  private static IndexRef stage(JavaSparkContext sc, String index) throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(index);
    FileSystem fs = p.getFileSystem(sc.hadoopConfiguration());
    FileStatus st = fs.getFileStatus(p);
    return new IndexRef(
        Ship.STAGE, fs.makeQualified(p).toString(), st.getLen(), st.getModificationTime());
  }

  /**
   * The driver's view of the header, when the driver can read the file ({@code files} from a local
   * path, {@code local}); {@code null} otherwise (the executors report what they loaded).
   */
  IndexHeader headerOnDriver(String index) {
    try {
      if (ship == Ship.LOCAL) {
        return Loader.readHeader(Paths.get(location));
      }
      Path p = Paths.get(new org.apache.hadoop.fs.Path(index).toUri().getPath());
      return ship == Ship.FILES && Files.isRegularFile(p) ? Loader.readHeader(p) : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Executor side: the local file to load, staging it first when needed (once per JVM). */
  Path localPath(HadoopConf conf) throws IOException {
    switch (ship) {
      case FILES:
        return Paths.get(SparkFiles.get(location));
      case LOCAL:
        return Paths.get(location);
      default:
        return Staging.stage(this, conf.get());
    }
  }

  @Override
  public String toString() {
    return ship.name().toLowerCase(Locale.ROOT) + ":" + location;
  }
}
