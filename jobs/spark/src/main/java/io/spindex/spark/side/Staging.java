/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.side;

import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.KeptVersions;
import io.spindex.index.load.OncePerJvm;
import io.spindex.job.SideFile;
import io.spindex.stage.StageResult;
import io.spindex.stage.StageSource;
import io.spindex.stage.Stager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.SparkFiles;

/**
 * Copies an index from a Hadoop file system to local disk once per JVM, so that every loader
 * (including the zero-copy {@code mapped} one) works on a local file. The copy is {@link Stager}'s:
 * checked (every section checksum) before it is renamed into place, idempotent, and safe when
 * several executors on one host stage the same index. A failed copy is not remembered: the next
 * task tries again. Thread-safe.
 */
final class Staging {
  private static final OncePerJvm<String, Path> STAGED = new OncePerJvm<>();

  /**
   * The staged versions of each index (by its published path), oldest first: as many as {@link
   * IndexHolder#versionsPerIndex} stay on disk, older copies are deleted (a JVM that maps one keeps
   * its pages; a task that still wants that version stages it again), so that a stream over many
   * updates keeps a bounded number of copies.
   */
  private static final java.util.Map<String, java.util.LinkedHashMap<String, Path>> BY_INDEX =
      new java.util.HashMap<>();

  private Staging() {}

  /** Local copy of {@code ref}, copied by the first caller in this JVM. */
  static Path stage(SideFile ref, Configuration conf) throws IOException {
    String key = ref.location() + "|" + ref.length() + "|" + ref.modified();
    return STAGED
        .get(
            key,
            "staging " + ref.location(),
            () -> {
              org.apache.hadoop.fs.Path src = new org.apache.hadoop.fs.Path(ref.location());
              FileSystem fs = src.getFileSystem(conf);
              HadoopSource source = new HadoopSource(fs, fs.getFileStatus(src));
              if (source.length() != ref.length()) {
                throw new IOException(
                    "staging "
                        + src
                        + ": it has "
                        + source.length()
                        + " bytes, the driver saw "
                        + ref.length()
                        + " (changed while the job runs?)");
              }
              Path dir = Paths.get(SparkFiles.getRootDirectory()).resolve("spindex-staged");
              Path target = dir.resolve(sha1(key).substring(0, 16) + "-" + src.getName());
              StageResult r = Stager.stage(source, target);
              if (r.copied()) {
                Ledger.staged(ref.location(), r.bytes(), r.elapsedNanos());
              }
              keep(KeptVersions.publishedOf(ref.location()), key, r.destination());
              return r.destination();
            })
        .value();
  }

  /** Notes a staged copy, and deletes the oldest of its index's beyond the bound. */
  private static void keep(String index, String key, Path copy) throws IOException {
    java.util.List<java.util.Map.Entry<String, Path>> dropped = new java.util.ArrayList<>();
    synchronized (BY_INDEX) {
      java.util.LinkedHashMap<String, Path> staged =
          BY_INDEX.computeIfAbsent(index, k -> new java.util.LinkedHashMap<>());
      staged.remove(key);
      staged.put(key, copy);
      java.util.Iterator<java.util.Map.Entry<String, Path>> it = staged.entrySet().iterator();
      while (staged.size() > IndexHolder.versionsPerIndex() && it.hasNext()) {
        dropped.add(it.next());
        it.remove();
      }
    }
    for (java.util.Map.Entry<String, Path> e : dropped) {
      STAGED.forget(e.getKey());
      java.nio.file.Files.deleteIfExists(e.getValue());
    }
  }

  /** A Hadoop file as a staging source; length and time come from one status call. */
  static final class HadoopSource implements StageSource {
    private final FileSystem fs;
    private final FileStatus status;

    HadoopSource(FileSystem fs, FileStatus status) {
      this.fs = fs;
      this.status = status;
    }

    @Override
    public String name() {
      return status.getPath().toString();
    }

    @Override
    public long length() {
      return status.getLen();
    }

    @Override
    public long lastModifiedMillis() {
      return status.getModificationTime();
    }

    @Override
    public InputStream open() throws IOException {
      return fs.open(status.getPath(), bufferBytes());
    }
  }

  private static String sha1(String s) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8));
      StringBuilder sb = new StringBuilder();
      for (byte b : d) {
        sb.append(String.format("%02x", b & 0xFF));
      }
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
