/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.side;

import io.spindex.annotations.Internal;
import io.spindex.hadoop.HadoopDriver;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import org.apache.spark.SparkFiles;
import org.apache.spark.api.java.JavaSparkContext;

/** The Spark driver: files listed by {@code --files}, or shipped with {@code addFile}. */
@Internal
public final class SparkDriver extends HadoopDriver {
  /** Local files this driver JVM shipped, by application and name. */
  private static final java.util.concurrent.ConcurrentMap<String, Path> SHIPPED =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final JavaSparkContext sc;
  private final Map<String, Path> pending = new java.util.LinkedHashMap<>();

  public SparkDriver(JavaSparkContext sc) {
    super(sc.hadoopConfiguration());
    this.sc = sc;
  }

  /**
   * A file given to {@code spark-submit --files} (in {@code spark.files}) whose name is {@code
   * path}'s and that {@code path} names (by name alone, or by the same path): where the driver
   * reads it, the submitted path or, in cluster mode, the driver's own copy.
   */
  @Override
  protected URI shipped(String path) {
    String name = new org.apache.hadoop.fs.Path(path).getName();
    for (String f : sc.getConf().get("spark.files", "").split(",")) {
      if (f.trim().isEmpty()) {
        continue;
      }
      org.apache.hadoop.fs.Path given = new org.apache.hadoop.fs.Path(f.trim());
      if (!given.getName().equals(name)) {
        continue;
      }
      URI u = given.toUri();
      boolean local = u.getScheme() == null || u.getScheme().equals("file");
      if (!path.equals(name)
          && !(local && Paths.get(u.getPath()).equals(Paths.get(path).toAbsolutePath()))) {
        continue;
      }
      if (local && !new java.io.File(u.getPath()).isFile()) {
        java.io.File copy = new java.io.File(SparkFiles.get(name));
        return (copy.isFile() ? copy : new java.io.File(name)).getAbsoluteFile().toURI();
      }
      return local ? new java.io.File(u.getPath()).getAbsoluteFile().toURI() : u;
    }
    return null;
  }

  /**
   * Ships {@code file} with {@code addFile} once the plan holds ({@link #shipPending}): a job that
   * fails on the driver leaves nothing registered. Spark finds shipped files by name, one file a
   * name per application: when another file of the same name was shipped before (a long-lived
   * session, tests), this one goes as a link named after its path, so that no task ever reads the
   * other file.
   */
  @Override
  protected String ship(Path file) {
    String name = file.getFileName().toString();
    Path first = SHIPPED.get(sc.sc().applicationId() + "/" + name);
    String as =
        first == null || first.equals(file)
            ? name
            : String.format("%08x-%s", file.toString().hashCode(), name);
    pending.put(as, file);
    return as;
  }

  /** Registers the files {@link #ship} named, now that the job is going to run. */
  public void shipPending() throws IOException {
    for (Map.Entry<String, Path> e : pending.entrySet()) {
      String as = e.getKey();
      Path file = e.getValue();
      Path first = SHIPPED.putIfAbsent(sc.sc().applicationId() + "/" + as, file);
      if (first != null) {
        continue; // this very file, shipped by an earlier job
      }
      if (as.equals(file.getFileName().toString())) {
        sc.addFile(file.toString());
        continue;
      }
      Path dir =
          java.nio.file.Files.createDirectories(
              Paths.get(
                  System.getProperty("java.io.tmpdir"), "spindex-ship-" + sc.sc().applicationId()));
      Path link = dir.resolve(as);
      java.nio.file.Files.deleteIfExists(link);
      java.nio.file.Files.createSymbolicLink(link, file);
      // As a file: URI, which addFile takes as it is (a plain path it would resolve to the
      // target).
      sc.addFile(link.toUri().toString());
    }
    pending.clear();
  }
}
