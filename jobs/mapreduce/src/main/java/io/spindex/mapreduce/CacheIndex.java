/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.index.IndexHeader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * Ships an index file to the map tasks through the distributed cache. {@code --index} is either the
 * name of a file the user shipped with {@code -files} (Hadoop uploads it; nothing more to do) or a
 * path: an existing local file ({@code file:} on the client) or a path on the default file system
 * ({@code hdfs://...}), added with {@link Job#addCacheFile} as {@code uri#name}. Either way each
 * task finds it as {@code name} in its working directory. The driver reads the header first, so a
 * missing or corrupt index fails before the job is submitted.
 */
final class CacheIndex {
  /** The name tasks open in their working directory. */
  final String name;

  /** Where the driver found it. */
  final URI uri;

  /** Whether it came with {@code -files} (else added to the cache here). */
  final boolean shippedWithFiles;

  final IndexHeader header;

  private CacheIndex(String name, URI uri, boolean shippedWithFiles, IndexHeader header) {
    this.name = name;
    this.uri = uri;
    this.shippedWithFiles = shippedWithFiles;
    this.header = header;
  }

  static CacheIndex resolve(String index, Configuration conf) throws IOException {
    String name = new Path(index).getName();
    // -files puts its qualified URIs into "tmpfiles"; JobResourceUploader ships them.
    for (String f : conf.getTrimmedStrings("tmpfiles")) {
      URI u = URI.create(f);
      String shipped = u.getFragment() != null ? u.getFragment() : new Path(u.getPath()).getName();
      boolean samePath =
          "file".equals(u.getScheme())
              && new File(index).getAbsoluteFile().toURI().getPath().equals(u.getPath());
      if (shipped.equals(index) || samePath) {
        return new CacheIndex(shipped, u, true, header(new Path(u), conf, shipped));
      }
    }
    Path p = new Path(index);
    if (p.toUri().getScheme() == null && new File(index).isFile()) {
      p = new Path(new File(index).getAbsoluteFile().toURI());
    }
    FileSystem fs = p.getFileSystem(conf);
    Path q = fs.makeQualified(p);
    IndexHeader h = header(q, conf, index);
    try {
      URI u = q.toUri();
      return new CacheIndex(
          name, new URI(u.getScheme(), u.getAuthority(), u.getPath(), null, name), false, h);
    } catch (URISyntaxException e) {
      throw new IOException("index " + index + ": " + e.getMessage(), e);
    }
  }

  private static IndexHeader header(Path p, Configuration conf, String shownAs) throws IOException {
    FileSystem fs = p.getFileSystem(conf);
    FileStatus st;
    try {
      st = fs.getFileStatus(p);
    } catch (java.io.FileNotFoundException e) {
      throw new java.io.FileNotFoundException(
          "index "
              + shownAs
              + ": no such file ("
              + p
              + "); ship a local file with -files or give"
              + " a path on the cluster's file system");
    }
    try (InputStream in = fs.open(p)) {
      return IndexHeader.read(in, st.getLen(), Paths.get(shownAs));
    }
  }

  /** Adds the index to the job's distributed cache unless {@code -files} already ships it. */
  void addTo(Job job) {
    if (!shippedWithFiles) {
      job.addCacheFile(uri);
    }
  }

  @Override
  public String toString() {
    return (shippedWithFiles ? "-files " : "cache file ") + uri;
  }
}
