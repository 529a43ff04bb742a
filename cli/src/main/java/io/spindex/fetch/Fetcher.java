/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import io.spindex.annotations.Internal;
import io.spindex.fetch.FetchException.Kind;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

/**
 * Downloads a URL to a file with {@link java.net.http.HttpClient}: in parallel byte ranges when the
 * server supports them and says how long the content is, else as one stream.
 *
 * <p>Files: the bytes go to {@code FILE.part} beside the target, written at their offsets; a range
 * download also keeps {@code FILE.part.state} (the URL, the server's ETag, Last-Modified and
 * length, and the ranges still missing), saved every couple of seconds after the bytes it counts
 * are forced to disk. A later call for the same URL and target continues from there if ETag,
 * Last-Modified and length are unchanged, and starts over otherwise. When every byte is there and
 * the optional SHA-256 matches, {@code FILE.part} is renamed to {@code FILE} atomically and the
 * state file deleted: {@code FILE} never exists half-written. A second download of the same target
 * at the same time (another thread or process) fails at once: {@code FILE.part} is locked.
 *
 * <p>Failures: connection errors, stalls, 5xx, 408 and 429 are retried with exponential backoff
 * (honouring {@code Retry-After}); other 4xx, redirect loops, TLS failures, size limits and
 * checksum mismatches are not. All end in a {@link FetchException} whose message names the URL or
 * file. TLS certificates and host names are verified by the JDK, always.
 *
 * <p>Thread safety: a {@code Fetcher} is immutable; concurrent calls for different targets are
 * fine. Memory: about {@code parallel × 300 KiB}, whatever the file size.
 */
@Internal
public final class Fetcher {
  private final FetchOptions options;

  /** A fetcher that downloads with {@code options}. */
  public Fetcher(FetchOptions options) {
    this.options = options;
  }

  /** {@code FILE.part}: where the bytes are written until the download is complete. */
  public static Path partFile(Path target) {
    Path abs = target.toAbsolutePath().normalize();
    return abs.resolveSibling(abs.getFileName() + ".part");
  }

  /** {@code FILE.part.state}: what a range download has left to do. */
  public static Path stateFile(Path target) {
    Path abs = target.toAbsolutePath().normalize();
    return abs.resolveSibling(abs.getFileName() + ".part.state");
  }

  /**
   * Downloads {@code uri} to {@code target}.
   *
   * @throws IllegalArgumentException when {@code uri} is not an absolute http or https URL
   * @throws FetchException when the download fails; {@code FILE.part} is kept only when it can be
   *     resumed (the message then says so)
   * @throws IOException when {@code target}'s directory cannot be written (e.g. {@link
   *     java.nio.file.AccessDeniedException} naming the file)
   */
  public FetchResult fetch(URI uri, Path target) throws IOException {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw new IllegalArgumentException("not an http or https URL: '" + uri + "'");
    }
    long t0 = System.nanoTime();
    Path out = target.toAbsolutePath().normalize();
    Path part = partFile(out);
    Path state = stateFile(out);
    if (Files.isDirectory(out)) {
      throw new FetchException(Kind.FATAL, out + ": is a directory");
    }
    for (Path p = out.getParent(); p != null; p = p.getParent()) {
      if (Files.exists(p)) {
        if (!Files.isDirectory(p)) {
          throw new FetchException(Kind.FATAL, p + ": not a directory");
        }
        break;
      }
    }
    Files.createDirectories(out.getParent());
    Session.Outcome o;
    try (FileChannel ch =
        FileChannel.open(
            part, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      FileLock lock = lock(ch, part);
      try {
        o = new Session(options, uri, ch, state).run();
      } catch (IOException e) {
        throw failed(e, part, state);
      } catch (RuntimeException | Error e) {
        failed(null, part, state);
        throw e;
      } finally {
        lock.release();
      }
    }
    String sha = null;
    if (options.sha256 != null) {
      sha = sha256(part);
      if (!sha.equals(options.sha256)) {
        Files.deleteIfExists(state);
        Files.deleteIfExists(part);
        throw new FetchException(
            Kind.FATAL,
            out
                + ": SHA-256 mismatch: expected "
                + options.sha256
                + ", downloaded "
                + sha
                + " (download deleted): "
                + uri);
      }
    }
    Files.move(part, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Files.deleteIfExists(state);
    return new FetchResult(
        o.finalUri,
        out,
        o.bytes,
        o.ranges,
        o.connections,
        o.requests,
        o.retries,
        o.restarts,
        o.resumedBytes,
        o.firstResponseAt - t0,
        System.nanoTime() - t0,
        sha);
  }

  /** What {@link #probe} found out about a URL without downloading it. */
  public static final class Probe {
    private final boolean notModified;
    private final String etag;
    private final String lastModified;
    private final long length;
    private final String contentType;

    Probe(Http.Probe p) {
      this.notModified = p.notModified;
      this.etag = p.validator == null ? null : p.validator.etag;
      this.lastModified = p.validator == null ? null : p.validator.lastModified;
      this.length = p.validator == null ? -1 : p.validator.length;
      this.contentType = p.contentType;
    }

    /** Whether the server answered 304: the content is the one the validators named. */
    public boolean notModified() {
      return notModified;
    }

    /** The content's ETag, or {@code null} (as given when not modified). */
    public String etag() {
      return etag;
    }

    /** The content's Last-Modified, or {@code null} (as given when not modified). */
    public String lastModified() {
      return lastModified;
    }

    /** Content-Length, or -1. */
    public long length() {
      return length;
    }

    /** Content-Type, or {@code null} (not modified, or not sent). */
    public String contentType() {
      return contentType;
    }
  }

  /**
   * Asks whether {@code uri} changed since the content with {@code etag} and {@code lastModified}
   * (either may be {@code null}; both null asks unconditionally): one conditional GET whose body is
   * not read. Errors the download would retry are retried the same way.
   *
   * @throws FetchException when the server refuses (4xx, 5xx after the retries) or cannot be
   *     reached
   */
  public Probe probe(URI uri, String etag, String lastModified) throws IOException {
    Http http = new Http(options);
    Validator known =
        etag == null && lastModified == null ? null : new Validator(etag, lastModified, -1);
    long wait = options.retryWait.toMillis();
    for (int attempt = 0; ; attempt++) {
      try {
        return new Probe(http.probe(uri, known));
      } catch (FetchException e) {
        if (e.kind() != Kind.RETRY || attempt >= options.retries) {
          throw e;
        }
        try {
          Thread.sleep(Math.min(wait, options.maxRetryWait.toMillis()));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted: " + uri);
        }
        wait *= 2;
      }
    }
  }

  private static FileLock lock(FileChannel ch, Path part) throws IOException {
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      throw new FetchException(Kind.FATAL, part + ": another download to the same file is running");
    }
    return lock;
  }

  /**
   * Keeps {@code FILE.part} when the state file says how to resume it, deletes it otherwise, and
   * says which in the message.
   */
  private static IOException failed(IOException e, Path part, Path state) throws IOException {
    boolean resumable = Files.exists(state);
    if (!resumable) {
      Files.deleteIfExists(part);
    }
    if (resumable && e instanceof FetchException) {
      return ((FetchException) e)
          .withSuffix("; " + part.getFileName() + " kept: run again to resume");
    }
    return e;
  }

  /** SHA-256 of a file as lowercase hex. */
  public static String sha256(Path file) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      while (ch.read(buf) >= 0) {
        buf.flip();
        md.update(buf);
        buf.clear();
      }
    }
    StringBuilder sb = new StringBuilder();
    for (byte b : md.digest()) {
      sb.append(String.format(Locale.ROOT, "%02x", b & 0xFF));
    }
    return sb.toString();
  }
}
