/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import io.spindex.index.IndexHeader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.KeptVersions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;

/**
 * A database on a Hadoop file system ({@code hdfs://}, {@code s3a://}, ...): versions are uploaded
 * into {@code OUT.spx.versions/} under a temporary name and renamed, then copied beside {@code
 * OUT.spx} and renamed over it ({@link FileContext#rename} with {@code OVERWRITE}: atomic on HDFS).
 * The updater's lock, state and source copies stay on the local disk of the host that runs it (one
 * host runs a database's updates). Hadoop's client is taken from the classpath (not bundled).
 */
final class HadoopPublication extends Publication {
  private final String given;
  private final Configuration conf = new Configuration();
  private final FileSystem fs;
  private final Path out;
  private final Path versions;

  HadoopPublication(String output) {
    this.given = output;
    try {
      Path p = new Path(output);
      this.fs = p.getFileSystem(conf);
      this.out = fs.makeQualified(p);
    } catch (IOException e) {
      throw new UncheckedIOException(output + ": " + e.getMessage(), e);
    }
    this.versions = new Path(out.toString() + KeptVersions.SUFFIX);
  }

  @Override
  String name() {
    return given;
  }

  /**
   * {@code ~/.cache/spindex/update/HASH} (or under {@code XDG_CACHE_HOME}), by the output's URI.
   */
  @Override
  java.nio.file.Path work(java.util.Map<String, String> env) throws IOException {
    String cache = env.get("XDG_CACHE_HOME");
    java.nio.file.Path base =
        cache != null && !cache.isEmpty()
            ? Paths.get(cache)
            : Paths.get(System.getProperty("user.home"), ".cache");
    java.nio.file.Path dir =
        base.resolve("spindex").resolve("update").resolve(hash(out.toString()));
    Files.createDirectories(dir);
    return dir;
  }

  @Override
  IndexHeader current() throws IOException {
    if (!fs.exists(out)) {
      return null;
    }
    FileStatus st = fs.getFileStatus(out);
    try (InputStream in = fs.open(out)) {
      return IndexHeader.read(in, st.getLen(), Paths.get(out.getName()));
    }
  }

  @Override
  List<String> versions() throws IOException {
    List<String> names = new ArrayList<>();
    if (fs.exists(versions)) {
      for (FileStatus s : fs.listStatus(versions)) {
        String n = s.getPath().getName();
        if (KeptVersions.crcOf(n) != null) {
          names.add(n);
        }
      }
    }
    Collections.sort(names);
    return names;
  }

  @Override
  void publish(java.nio.file.Path built, String name) throws IOException {
    fs.mkdirs(versions);
    Path version = new Path(versions, name);
    Path tmp = new Path(versions, "." + name + ".tmp");
    fs.copyFromLocalFile(false, true, new Path(built.toUri()), tmp);
    if (!fs.rename(tmp, version)) {
      fs.delete(tmp, false);
      throw new IOException(version + ": could not rename the uploaded version into place");
    }
    Files.delete(built);
    replace(version);
  }

  @Override
  IndexHeader republish(String name) throws IOException {
    Path version = new Path(versions, name);
    java.nio.file.Path local = Files.createTempFile("spindex-rollback-", ".spx");
    try {
      fs.copyToLocalFile(false, version, new Path(local.toUri()), true);
      IndexHeader h = IndexVerifier.verify(local);
      replace(version);
      return h;
    } finally {
      Files.deleteIfExists(local);
    }
  }

  /** Copies {@code version} beside the published path, then renames it over it. */
  private void replace(Path version) throws IOException {
    Path tmp = new Path(out.getParent(), "." + out.getName() + ".publishing");
    org.apache.hadoop.fs.FileUtil.copy(fs, version, fs, tmp, false, true, conf);
    FileContext.getFileContext(out.toUri(), conf).rename(tmp, out, Options.Rename.OVERWRITE);
  }

  @Override
  void delete(String name) throws IOException {
    fs.delete(new Path(versions, name), false);
  }

  private static String hash(String s) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 8; i++) {
        sb.append(String.format("%02x", d[i] & 0xFF));
      }
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
