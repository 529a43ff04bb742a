/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import io.spindex.index.AtomicFiles;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.KeptVersions;
import io.spindex.index.load.Loader;
import io.spindex.job.UsageException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a database is published: {@code OUT.spx} and the versions kept beside it in {@code
 * OUT.spx.versions/} ({@link KeptVersions}), on the local file system or on any Hadoop file system
 * ({@link HadoopPublication}). An update builds and verifies locally, then publishes through this:
 * the version is kept first, then renamed over {@code OUT.spx}.
 */
abstract class Publication {
  /** The published path as the user gave it, for messages. */
  abstract String name();

  /**
   * Where the updater keeps its lock, state, source copies and builds: beside the versions for a
   * local database, a local directory of its own for a remote one (under {@code XDG_CACHE_HOME} of
   * {@code env}, else {@code ~/.cache}).
   */
  abstract Path work(java.util.Map<String, String> env) throws IOException;

  /** The published version's header, or null when nothing is published yet. */
  abstract IndexHeader current() throws IOException;

  /** The kept versions' names ({@link KeptVersions#fileName}), oldest first. */
  abstract List<String> versions() throws IOException;

  /** Keeps {@code built} (a verified local index) as version {@code name} and publishes it. */
  abstract void publish(Path built, String name) throws IOException;

  /** Publishes the kept version {@code name} again, after verifying it. */
  abstract IndexHeader republish(String name) throws IOException;

  /** Deletes kept version {@code name}. */
  abstract void delete(String name) throws IOException;

  /** The publication of {@code output}: a local path, or a Hadoop URI ({@code hdfs://...}). */
  static Publication of(String output) {
    URI u;
    try {
      u = new URI(output.replace(" ", "%20"));
    } catch (java.net.URISyntaxException e) {
      u = null;
    }
    String scheme = u == null ? null : u.getScheme();
    if (scheme == null || scheme.equals("file") || scheme.length() == 1) {
      return new Local(scheme != null && scheme.equals("file") ? Paths.get(u) : Paths.get(output));
    }
    try {
      return new HadoopPublication(output);
    } catch (NoClassDefFoundError e) {
      throw new UsageException(
          output
              + ": publishing to "
              + scheme
              + ":// needs Hadoop's client on the classpath (scripts/spindex adds it when the"
              + " hadoop command is on PATH, or set HADOOP_CLASSPATH)");
    }
  }

  /** A new version's name: now, or a second after the newest kept one when that is not earlier. */
  String newName(int crc) throws IOException {
    Instant t = Instant.now();
    List<String> kept = versions();
    if (!kept.isEmpty()) {
      Instant newest = KeptVersions.timeOf(kept.get(kept.size() - 1));
      if (!t.isAfter(newest.plusSeconds(1).minusNanos(1))) {
        t = newest.plusSeconds(1);
      }
    }
    return KeptVersions.fileName(t, crc);
  }

  /** The newest kept version with header checksum {@code crc}, or null. */
  String find(int crc) throws IOException {
    List<String> all = versions();
    for (int i = all.size() - 1; i >= 0; i--) {
      Integer c = KeptVersions.crcOf(all.get(i));
      if (c != null && c == crc) {
        return all.get(i);
      }
    }
    return null;
  }

  /** A database on the local file system. */
  static final class Local extends Publication {
    private final Path out;

    Local(Path out) {
      this.out = out.toAbsolutePath().normalize();
    }

    @Override
    String name() {
      return out.toString();
    }

    @Override
    Path work(java.util.Map<String, String> env) {
      return KeptVersions.dir(out);
    }

    @Override
    IndexHeader current() throws IOException {
      return Files.exists(out) ? Loader.readHeader(out) : null;
    }

    @Override
    List<String> versions() throws IOException {
      List<String> names = new ArrayList<>();
      for (Path p : KeptVersions.list(out)) {
        names.add(p.getFileName().toString());
      }
      return names;
    }

    @Override
    void publish(Path built, String name) throws IOException {
      Path version = KeptVersions.dir(out).resolve(name);
      Files.move(built, version);
      link(version);
    }

    @Override
    IndexHeader republish(String name) throws IOException {
      Path version = KeptVersions.dir(out).resolve(name);
      IndexHeader h = IndexVerifier.verify(version);
      link(version);
      return h;
    }

    /**
     * Puts {@code version} at the published path by rename: a hard link to it (a copy where the
     * file system has none) beside it, renamed over it. Readers see the old file or the new one.
     */
    private void link(Path version) throws IOException {
      Path tmp = AtomicFiles.createTemp(out);
      try {
        Files.delete(tmp);
        try {
          Files.createLink(tmp, version);
        } catch (UnsupportedOperationException | FileSystemException e) {
          Files.copy(version, tmp);
        }
        AtomicFiles.commit(tmp, out);
      } finally {
        Files.deleteIfExists(tmp);
      }
    }

    @Override
    void delete(String name) throws IOException {
      Files.deleteIfExists(KeptVersions.dir(out).resolve(name));
    }
  }
}
