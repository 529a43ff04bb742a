/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import io.spindex.fetch.FetchException;
import io.spindex.fetch.FetchOptions;
import io.spindex.fetch.Fetcher;
import io.spindex.job.UsageException;
import io.spindex.text.InputException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * One source of a database, as {@code spindex update} names it: a local file, an {@code http(s)}
 * URL, or {@code maxmind:EDITION}. {@link #refresh} brings its local copy up to date at the least
 * cost: a local file is hashed; a URL is asked with its validators (a 304 costs one request and no
 * body) or, where the server publishes one, by the SHA-256 beside it; a MaxMind edition by the
 * SHA-256 MaxMind publishes for it.
 */
final class UpdateSource {
  enum Kind {
    LOCAL,
    URL,
    MAXMIND
  }

  /** How a source stands after {@link #refresh}. */
  static final class Outcome {
    /** The file the build reads. */
    Path input;

    /** Whether this run downloaded it (or would, in a dry run). */
    boolean downloaded;

    /** Whether its content differs from the one the published version was built from. */
    boolean changed;

    String oldSha256;
    String newSha256;
    long bytes = -1;

    /** For a dry run: what it would do. */
    String plan;
  }

  final String spec;
  final Kind kind;
  private final Path path;
  private final URI uri;
  private final String edition;

  private UpdateSource(String spec, Kind kind, Path path, URI uri, String edition) {
    this.spec = spec;
    this.kind = kind;
    this.path = path;
    this.uri = uri;
    this.edition = edition;
  }

  /**
   * Parses a source as given on the command line or in a configuration file.
   *
   * @throws UsageException for a {@code maxmind:} source without a valid edition id or a URL that
   *     does not parse
   */
  static UpdateSource parse(String spec) {
    String lower = spec.toLowerCase(Locale.ROOT);
    if (lower.startsWith("maxmind:")) {
      String edition = spec.substring("maxmind:".length());
      if (!MaxMind.validEdition(edition)) {
        throw new UsageException(
            "'"
                + io.spindex.text.Clip.of(spec)
                + "': expected maxmind:EDITION, an edition id such as GeoLite2-City");
      }
      return new UpdateSource(spec, Kind.MAXMIND, null, null, edition);
    }
    if (lower.startsWith("http://") || lower.startsWith("https://")) {
      try {
        URI u = new URI(spec);
        if (u.getHost() == null || u.getUserInfo() != null) {
          throw new UsageException(
              "'"
                  + io.spindex.text.Clip.of(spec)
                  + "': expected an http(s) URL with a host and no credentials in it");
        }
        return new UpdateSource(spec, Kind.URL, null, u, null);
      } catch (java.net.URISyntaxException e) {
        throw new UsageException(
            "'" + io.spindex.text.Clip.of(spec) + "': not a URL (" + e.getReason() + ")");
      }
    }
    return new UpdateSource(spec, Kind.LOCAL, Paths.get(spec), null, null);
  }

  /** What a source needs from the run: where copies go, how to download, the environment. */
  static final class Context {
    /** Where the sources' local copies are. */
    final Path copies;

    /**
     * Where checksum files are fetched to: {@link #copies}, or a scratch directory in a dry run.
     */
    final Path scratch;

    final FetchOptions fetchOptions;
    final java.util.Map<String, String> env;
    final Path geoipConf;
    final boolean dryRun;

    Context(
        Path copies,
        Path scratch,
        FetchOptions fetchOptions,
        java.util.Map<String, String> env,
        Path geoipConf,
        boolean dryRun) {
      this.copies = copies;
      this.scratch = scratch;
      this.fetchOptions = fetchOptions;
      this.env = env;
      this.geoipConf = geoipConf;
      this.dryRun = dryRun;
    }
  }

  /**
   * Brings this source's local copy up to date and says whether it changed since the published
   * version. {@code rec} is updated with what was downloaded (validators, SHA-256, copy).
   *
   * @param n the source's position, which keeps copies of sources with the same name apart
   * @throws IOException one line naming the source: unreachable, refused, not a database
   */
  Outcome refresh(Context c, UpdateState.Source rec, int n) throws IOException {
    Outcome o = new Outcome();
    o.oldSha256 = rec.publishedSha256;
    switch (kind) {
      case LOCAL:
        if (!Files.isRegularFile(path)) {
          throw new InputException(spec + ": no such file");
        }
        o.input = path;
        o.newSha256 = Fetcher.sha256(path);
        o.bytes = Files.size(path);
        break;
      case URL:
        url(c, rec, n, o);
        break;
      default:
        maxmind(c, rec, n, o);
        break;
    }
    o.changed = !o.newSha256.equals(rec.publishedSha256);
    if (kind == Kind.LOCAL) {
      rec.sha256 = o.newSha256;
    }
    return o;
  }

  private static Path copy(Context c, int n, String name) {
    return c.copies.resolve(fileName(n, name));
  }

  private static Path scratch(Context c, int n, String name) {
    return c.scratch.resolve(fileName(n, name));
  }

  private static String fileName(int n, String name) {
    return n + "-" + name.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  private void url(Context c, UpdateState.Source rec, int n, Outcome o) throws IOException {
    String name = Paths.get(uri.getPath().isEmpty() ? "/source" : uri.getPath()).getFileName() + "";
    Path copy = copy(c, n, name);
    Fetcher f = new Fetcher(c.fetchOptions);
    boolean have = rec.copy != null && rec.sha256 != null && Files.isRegularFile(copy);
    Fetcher.Probe probe = null;
    if (have && rec.sha256Beside) {
      String published = besideSha256(f, c, n, name);
      if (rec.sha256.equals(published)) {
        keep(rec, copy, o);
        return;
      }
    } else if (have) {
      probe = probe(f, rec.etag, rec.lastModified);
      if (probe.notModified()) {
        keep(rec, copy, o);
        return;
      }
    }
    if (probe == null) {
      probe = probe(f, null, null);
    }
    String type = probe.contentType() == null ? "" : probe.contentType().toLowerCase(Locale.ROOT);
    if (type.startsWith("text/html") && !name.matches("(?i).*\\.html?")) {
      throw new InputException(
          spec + ": answered an HTML page (Content-Type " + type + "), not a database");
    }
    o.downloaded = true;
    if (c.dryRun) {
      o.plan = "download (" + (have ? "changed on the server" : "no local copy yet") + ")";
      o.newSha256 = "?";
      o.input = copy;
      return;
    }
    download(f, uri, copy);
    lastModified(copy, probe.lastModified());
    rec.etag = probe.etag();
    rec.lastModified = probe.lastModified();
    rec.sha256 = Fetcher.sha256(copy);
    rec.copy = copy.getFileName().toString();
    if (rec.etag == null && rec.lastModified == null && !rec.sha256Beside) {
      // No validators to ask with next time: use the SHA-256 beside the file if the server has one.
      try {
        rec.sha256Beside = rec.sha256.equals(besideSha256(f, c, n, name));
      } catch (IOException e) {
        rec.sha256Beside = false;
      }
    }
    keep(rec, copy, o);
  }

  private void maxmind(Context c, UpdateState.Source rec, int n, Outcome o) throws IOException {
    MaxMind.Credentials cred = MaxMind.credentials(c.env, c.geoipConf);
    URI base = MaxMind.base(c.env);
    FetchOptions auth =
        c.fetchOptions.toBuilder().basicAuth(cred.accountId, cred.licenseKey).build();
    Fetcher f = new Fetcher(auth);
    Path shaFile = scratch(c, n, edition + ".tar.gz.sha256");
    download(f, MaxMind.sha256(base, edition), shaFile);
    String published = MaxMind.sha256Of(shaFile, spec);
    Path mmdb = copy(c, n, edition + ".mmdb");
    if (published.equals(rec.sha256) && Files.isRegularFile(mmdb)) {
      keep(rec, mmdb, o);
      return;
    }
    o.downloaded = true;
    if (c.dryRun) {
      o.plan = "download " + edition + " (MaxMind published a new database)";
      o.newSha256 = published;
      o.input = mmdb;
      return;
    }
    Path archive = copy(c, n, edition + ".tar.gz");
    FetchOptions checked = auth.toBuilder().sha256(published).build();
    download(new Fetcher(checked), MaxMind.database(base, edition), archive);
    MaxMind.extractDatabase(archive, mmdb, spec);
    Files.deleteIfExists(archive);
    rec.sha256 = published;
    rec.copy = mmdb.getFileName().toString();
    keep(rec, mmdb, o);
  }

  /**
   * Gives a downloaded copy the server's {@code Last-Modified} as its modification time (as {@code
   * curl -R} and {@code wget -N} do), so that the build records when the source was published, not
   * when it was downloaded ({@code source_time}). A missing or unreadable header leaves the
   * download's time.
   */
  static void lastModified(Path copy, String header) throws IOException {
    if (header == null) {
      return;
    }
    try {
      java.time.Instant t =
          java.time.ZonedDateTime.parse(
                  header.trim(), java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
              .toInstant();
      Files.setLastModifiedTime(copy, java.nio.file.attribute.FileTime.from(t));
    } catch (java.time.format.DateTimeParseException e) {
      // Not an HTTP date: the copy keeps the time it was downloaded.
    }
  }

  private static void keep(UpdateState.Source rec, Path copy, Outcome o) throws IOException {
    o.input = copy;
    o.newSha256 = rec.sha256;
    o.bytes = Files.size(copy);
  }

  private Fetcher.Probe probe(Fetcher f, String etag, String lastModified) throws IOException {
    try {
      return f.probe(uri, etag, lastModified);
    } catch (FetchException e) {
      throw refused(e);
    }
  }

  /** The SHA-256 that {@code URL.sha256} gives. */
  private String besideSha256(Fetcher f, Context c, int n, String name) throws IOException {
    Path file = scratch(c, n, name + ".sha256");
    download(f, URI.create(uri + ".sha256"), file);
    return MaxMind.sha256Of(file, spec + ".sha256");
  }

  private void download(Fetcher f, URI from, Path to) throws IOException {
    try {
      f.fetch(from, to);
    } catch (FetchException e) {
      throw refused(e);
    }
  }

  /** A download error as one line naming the source, 401 and 403 as refused credentials. */
  private IOException refused(FetchException e) {
    int status = e.status();
    if (kind == Kind.MAXMIND && (status == 401 || status == 403)) {
      return new InputException(
          spec + ": the credentials were refused (HTTP " + status + "); check the license key");
    }
    return new InputException(spec + ": " + e.getMessage());
  }
}
