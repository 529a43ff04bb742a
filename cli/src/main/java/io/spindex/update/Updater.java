/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import io.spindex.annotations.Internal;
import io.spindex.builder.BuildReport;
import io.spindex.fetch.FetchOptions;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.KeptVersions;
import io.spindex.stage.HostLock;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Keeps a database current: {@code spindex update}. For each database it takes the update lock
 * ({@code OUT.spx.versions/lock}), brings each source's local copy up to date at the least cost
 * ({@link UpdateSource}), and only when a source changed builds a new version, verifies it as every
 * loader does ({@link IndexVerifier#checksums}), keeps it in {@code OUT.spx.versions/} and
 * publishes it at {@code OUT.spx} by rename; the last {@code keep} versions stay beside it ({@link
 * KeptVersions}). Whatever fails, the published version is left as it was. Not thread-safe; one per
 * run.
 */
@Internal
public final class Updater {
  /** Builds an index from the sources' local files. */
  public interface Build {
    BuildReport build(List<Path> inputs, Path output) throws IOException;
  }

  /** One database: its sources, where it is published, how many versions stay, how to build. */
  public static final class Database {
    final List<UpdateSource> sources = new ArrayList<>();
    final Publication output;
    final int keep;
    final boolean allowEmpty;
    final Build build;

    /**
     * @param sources local files, {@code http(s)} URLs and {@code maxmind:EDITION}s, in build order
     * @param output where the database is published: a local path, or any Hadoop path ({@code
     *     hdfs://...}; Hadoop's client must be on the classpath)
     * @throws io.spindex.job.UsageException for a source that does not parse, {@code keep < 1}, or
     *     a Hadoop path without Hadoop's client
     */
    public Database(
        List<String> sources, String output, int keep, boolean allowEmpty, Build build) {
      for (String s : sources) {
        this.sources.add(UpdateSource.parse(s));
      }
      if (keep < 1) {
        throw new io.spindex.job.UsageException("--keep: expected 1 or more, got " + keep);
      }
      this.output = Publication.of(output);
      this.keep = keep;
      this.allowEmpty = allowEmpty;
      this.build = build;
    }
  }

  private final Map<String, String> env;
  private final FetchOptions fetchOptions;
  private final Path geoipConf;
  private final Duration lockWait;
  private final boolean dryRun;
  private final PrintWriter notices;

  /**
   * @param env the environment ({@code MAXMIND_*}, {@code SPINDEX_MAXMIND_URL})
   * @param fetchOptions how sources are downloaded (retries, timeouts)
   * @param geoipConf a GeoIP.conf with MaxMind credentials, or null
   * @param lockWait how long to wait for another updater of the same database
   * @param dryRun whether to only say what would be done (nothing is written)
   * @param notices where waiting for the lock is told
   */
  public Updater(
      Map<String, String> env,
      FetchOptions fetchOptions,
      Path geoipConf,
      Duration lockWait,
      boolean dryRun,
      PrintWriter notices) {
    this.env = env;
    this.fetchOptions = fetchOptions;
    this.geoipConf = geoipConf;
    this.lockWait = lockWait;
    this.dryRun = dryRun;
    this.notices = notices;
  }

  /** Updates one database; never throws for a failed update (its status says so). */
  @SuppressWarnings("try") // the lock is held for the body, not used in it
  public UpdateResult update(Database db) {
    long t0 = System.nanoTime();
    Publication pub = db.output;
    UpdateResult r = new UpdateResult(pub.name());
    Path building = null;
    Path scratch = null;
    try {
      Path dir = pub.work(env);
      building = dir.resolve(".building.spx");
      try (HostLock lock = dryRun ? null : lock(dir, pub.name())) {
        Path copies = dir.resolve("sources");
        scratch = dryRun ? Files.createTempDirectory("spindex-update-") : copies;
        Files.createDirectories(scratch);
        UpdateState state = UpdateState.read(dir.resolve("state.json"));
        IndexHeader current = published(pub, r);
        UpdateSource.Context c =
            new UpdateSource.Context(copies, scratch, fetchOptions, env, geoipConf, dryRun);
        boolean changed = current == null || !crcHex(current).equals(state.published);
        List<Path> inputs = new ArrayList<>();
        long t1 = System.nanoTime();
        for (int i = 0; i < db.sources.size(); i++) {
          UpdateSource s = db.sources.get(i);
          UpdateSource.Outcome o = s.refresh(c, state.source(s.spec), i);
          r.sources.add(new UpdateResult.SourceLine(s.spec, o));
          inputs.add(o.input);
          changed |= o.changed;
        }
        r.downloadNanos = System.nanoTime() - t1;
        if (dryRun) {
          r.status = changed ? UpdateResult.Status.PLANNED : UpdateResult.Status.UNCHANGED;
          r.message = changed ? "would build and publish a new version" : "";
          return r;
        }
        state.write(dir.resolve("state.json")); // what was downloaded, whatever happens next
        if (!changed) {
          r.status = UpdateResult.Status.UNCHANGED;
          return r;
        }
        long t2 = System.nanoTime();
        BuildReport report = db.build.build(inputs, building);
        IndexHeader built = IndexVerifier.checksums(building); // as every loader checks it
        r.buildNanos = System.nanoTime() - t2;
        r.rows = built.rowCount();
        if (built.rowCount() == 0 && !db.allowEmpty) {
          throw new io.spindex.text.InputException(
              String.format(
                  Locale.ROOT,
                  "the sources gave no rows (%,d lines: %,d skipped, %,d rejected): nothing"
                      + " published (--allow-empty publishes an empty index)",
                  report.count("lines"),
                  report.count("skipped"),
                  report.count("rejected")));
        }
        String digest = built.sourceDigestHex();
        if (state.rolledBack.contains(digest)) {
          r.status = UpdateResult.Status.UNCHANGED;
          r.message = "held back: a rollback turned away the version these sources build";
          published(db, state); // later runs know it: unchanged until a source changes
          state.write(dir.resolve("state.json"));
          return r;
        }
        if (current != null && current.headerCrc32c() == built.headerCrc32c()) {
          r.status = UpdateResult.Status.UNCHANGED;
        } else {
          pub.publish(building, pub.newName(built.headerCrc32c()));
          prune(pub, db.keep);
          r.status = UpdateResult.Status.UPDATED;
        }
        r.newCrc = crcHex(built);
        r.newDigest = digest;
        r.newBytes = built.fileLength();
        published(db, state);
        state.published = r.newCrc;
        state.write(dir.resolve("state.json"));
        return r;
      }
    } catch (IOException | RuntimeException e) {
      r.status = UpdateResult.Status.FAILED;
      r.message = message(e) + (r.oldCrc != null ? "; the published version still serves" : "");
      return r;
    } finally {
      try {
        if (building != null) {
          Files.deleteIfExists(building);
        }
        if (dryRun && scratch != null) {
          try (java.util.stream.Stream<Path> files = Files.list(scratch)) {
            for (Path p : (Iterable<Path>) files::iterator) {
              Files.deleteIfExists(p);
            }
          }
          Files.deleteIfExists(scratch);
        }
      } catch (IOException e) {
        // A leftover is overwritten by the next build; a scratch directory is the system's.
      }
      r.totalNanos = System.nanoTime() - t0;
    }
  }

  /**
   * Publishes the kept version before the current one at {@code output}: {@code spindex update
   * --rollback}. The version rolled back from is remembered, so that later updates from the same
   * sources do not publish it again.
   */
  @SuppressWarnings("try")
  public UpdateResult rollback(String output) {
    long t0 = System.nanoTime();
    UpdateResult r = new UpdateResult(output);
    try {
      Publication pub = Publication.of(output);
      Path dir = pub.work(env);
      try (HostLock lock = lock(dir, pub.name())) {
        IndexHeader current = published(pub, r);
        if (current == null) {
          throw new io.spindex.text.InputException(
              pub.name() + ": no such file: nothing to roll back");
        }
        List<String> versions = pub.versions();
        String now = pub.find(current.headerCrc32c());
        int at = now == null ? -1 : versions.indexOf(now);
        if (at < 1) {
          throw new io.spindex.text.InputException(
              pub.name()
                  + ": no earlier version kept in "
                  + pub.name()
                  + KeptVersions.SUFFIX
                  + (now == null ? " (the published file is not one of its versions)" : ""));
        }
        String earlier = versions.get(at - 1);
        IndexHeader h = pub.republish(earlier);
        UpdateState state = UpdateState.read(dir.resolve("state.json"));
        state.rolledBack.add(current.sourceDigestHex());
        state.published = crcHex(h);
        for (UpdateState.Source rec : state.sources.values()) {
          rec.publishedSha256 = null; // the next update builds, and holds back what was rolled back
        }
        state.write(dir.resolve("state.json"));
        r.status = UpdateResult.Status.ROLLED_BACK;
        r.newCrc = crcHex(h);
        r.newDigest = h.sourceDigestHex();
        r.newBytes = h.fileLength();
        r.rows = h.rowCount();
        r.message = "now " + earlier;
        return r;
      }
    } catch (IOException | RuntimeException e) {
      r.status = UpdateResult.Status.FAILED;
      r.message = message(e);
      return r;
    } finally {
      r.totalNanos = System.nanoTime() - t0;
    }
  }

  /** Notes that the sources' current contents are the ones the published version stands for. */
  private static void published(Database db, UpdateState state) {
    for (UpdateSource s : db.sources) {
      UpdateState.Source rec = state.source(s.spec);
      rec.publishedSha256 = rec.sha256;
    }
  }

  private HostLock lock(Path dir, String output) throws IOException {
    Files.createDirectories(dir);
    return HostLock.acquire(
        dir.resolve("lock"),
        lockWait,
        holder -> {
          notices.println(output + ": waiting for the updater that holds it (" + holder + ")");
          notices.flush();
        });
  }

  /** The published version's header (noted in {@code r}), or null when there is none yet. */
  private static IndexHeader published(Publication pub, UpdateResult r) throws IOException {
    IndexHeader h = pub.current();
    if (h != null) {
      r.oldCrc = crcHex(h);
      r.oldDigest = h.sourceDigestHex();
      r.oldBytes = h.fileLength();
    }
    return h;
  }

  /** Deletes the oldest versions beyond {@code keep}, never the published one. */
  private static void prune(Publication pub, int keep) throws IOException {
    List<String> versions = pub.versions();
    String current = pub.find(pub.current().headerCrc32c());
    for (int i = 0; i < versions.size() - keep; i++) {
      if (!versions.get(i).equals(current)) {
        pub.delete(versions.get(i));
      }
    }
  }

  private static String crcHex(IndexHeader h) {
    return String.format(Locale.ROOT, "%08x", h.headerCrc32c());
  }

  private static String message(Exception e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (e instanceof java.nio.file.NoSuchFileException) {
      m = m + ": no such file";
    } else if (e instanceof java.nio.file.AccessDeniedException) {
      m = m + ": permission denied";
    }
    return m.replace('\n', ' ');
  }
}
