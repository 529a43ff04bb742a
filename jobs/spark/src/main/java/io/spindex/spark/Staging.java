/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.index.IndexHeader;
import io.spindex.index.Loader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.SparkFiles;

/**
 * Copies an index from a Hadoop file system to local disk once per JVM, so that every loader
 * (including the zero-copy {@code mapped} one) works on a local file. The copy goes to a temporary
 * name and is renamed into place only after it has the length the driver saw and a valid header
 * (whose CRC32C covers every section checksum; the loader then checks the sections). A failed copy
 * is not remembered: the next task tries again. Thread-safe.
 */
final class Staging {
  private static final ConcurrentMap<String, CompletableFuture<Path>> STAGED =
      new ConcurrentHashMap<>();

  private Staging() {}

  /** Local copy of {@code ref}, copied by the first caller in this JVM. */
  static Path stage(IndexRef ref, Configuration conf) throws IOException {
    String key = ref.location() + "|" + ref.length() + "|" + ref.modified();
    CompletableFuture<Path> mine = new CompletableFuture<>();
    CompletableFuture<Path> existing = STAGED.putIfAbsent(key, mine);
    if (existing == null) {
      try {
        long t0 = System.nanoTime();
        Path p = copy(ref, conf, key);
        Ledger.staged(ref.location(), ref.length(), System.nanoTime() - t0);
        mine.complete(p);
        return p;
      } catch (IOException | RuntimeException | Error e) {
        STAGED.remove(key, mine);
        mine.completeExceptionally(e);
        throw e;
      }
    }
    try {
      return existing.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while staging " + ref.location(), e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException) {
        throw new IOException("staging " + ref.location() + " failed: " + c.getMessage(), c);
      }
      throw new UncheckedIOException(new IOException("staging " + ref.location() + " failed", c));
    }
  }

  private static Path copy(IndexRef ref, Configuration conf, String key) throws IOException {
    org.apache.hadoop.fs.Path src = new org.apache.hadoop.fs.Path(ref.location());
    Path dir = Paths.get(SparkFiles.getRootDirectory()).resolve("spindex-staged");
    Files.createDirectories(dir);
    Path target = dir.resolve(sha1(key).substring(0, 16) + "-" + src.getName());
    Path tmp = Files.createTempFile(dir, "." + src.getName() + ".", ".tmp");
    try {
      FileSystem fs = src.getFileSystem(conf);
      try (InputStream in = fs.open(src)) {
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      }
      long got = Files.size(tmp);
      if (got != ref.length()) {
        throw new IOException(
            "staging "
                + src
                + ": copied "
                + got
                + " bytes, the driver saw "
                + ref.length()
                + " (changed while the job runs?)");
      }
      IndexHeader h = Loader.readHeader(tmp);
      if (h.fileLength() != got) {
        throw new IOException(
            "staging " + src + ": header says " + h.fileLength() + " bytes, copied " + got);
      }
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } finally {
      Files.deleteIfExists(tmp);
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
