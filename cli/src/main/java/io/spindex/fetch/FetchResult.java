/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import io.spindex.annotations.Internal;
import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;

/** What a finished download did, as numbers. Immutable. */
@Internal
public final class FetchResult {
  private final URI finalUri;
  private final Path file;
  private final long bytes;
  private final boolean ranges;
  private final int connections;
  private final int requests;
  private final int retries;
  private final int restarts;
  private final long resumedBytes;
  private final long firstResponseNanos;
  private final long elapsedNanos;
  private final String sha256;

  FetchResult(
      URI finalUri,
      Path file,
      long bytes,
      boolean ranges,
      int connections,
      int requests,
      int retries,
      int restarts,
      long resumedBytes,
      long firstResponseNanos,
      long elapsedNanos,
      String sha256) {
    this.finalUri = finalUri;
    this.file = file;
    this.bytes = bytes;
    this.ranges = ranges;
    this.connections = connections;
    this.requests = requests;
    this.retries = retries;
    this.restarts = restarts;
    this.resumedBytes = resumedBytes;
    this.firstResponseNanos = firstResponseNanos;
    this.elapsedNanos = elapsedNanos;
    this.sha256 = sha256;
  }

  /** The URL the content came from, after redirects. */
  public URI finalUri() {
    return finalUri;
  }

  /** The file written (renamed into place). */
  public Path file() {
    return file;
  }

  /** Length of the file in bytes. */
  public long bytes() {
    return bytes;
  }

  /** Whether the download used range requests (and so could resume). */
  public boolean ranges() {
    return ranges;
  }

  /** Worker connections used at once: the parallelism, or 1 without range support. */
  public int connections() {
    return connections;
  }

  /** HTTP requests sent that returned content (redirect hops not counted). */
  public int requests() {
    return requests;
  }

  /** Requests that failed and were tried again. */
  public int retries() {
    return retries;
  }

  /** Times the download started over from byte 0 because the server's copy changed. */
  public int restarts() {
    return restarts;
  }

  /** Bytes taken from an earlier interrupted run's {@code FILE.part}, not downloaded again. */
  public long resumedBytes() {
    return resumedBytes;
  }

  /**
   * Time from the call to the first response's headers, in nanoseconds: set-up (the JDK client's
   * start in a fresh JVM), connection, redirects, server think time. Like curl's starttransfer.
   */
  public long firstResponseNanos() {
    return firstResponseNanos;
  }

  /** Wall time of this call, in nanoseconds. */
  public long elapsedNanos() {
    return elapsedNanos;
  }

  /**
   * SHA-256 of the file as lowercase hex when {@code --sha256} was given (and matched), else null.
   */
  public String sha256() {
    return sha256;
  }

  /** Bytes downloaded by this call per second of the whole call (resumed bytes excluded). */
  public double bytesPerSecond() {
    return (bytes - resumedBytes) / Math.max(1e-9, elapsedNanos / 1e9);
  }

  /** Bytes downloaded per second after the first response: the transfer rate. */
  public double transferBytesPerSecond() {
    return (bytes - resumedBytes) / Math.max(1e-9, (elapsedNanos - firstResponseNanos) / 1e9);
  }

  /** A human-readable summary table, like the build summaries. */
  public String format() {
    StringBuilder sb = new StringBuilder();
    row(sb, "bytes", String.format(Locale.ROOT, "%,d", bytes));
    row(sb, "first response s", String.format(Locale.ROOT, "%.3f", firstResponseNanos / 1e9));
    row(sb, "elapsed s", String.format(Locale.ROOT, "%.3f", elapsedNanos / 1e9));
    row(sb, "MB/s", String.format(Locale.ROOT, "%.1f", bytesPerSecond() / 1e6));
    row(sb, "transfer MB/s", String.format(Locale.ROOT, "%.1f", transferBytesPerSecond() / 1e6));
    row(sb, "ranges", ranges ? "yes" : "no (server sent one stream)");
    row(sb, "connections", Integer.toString(connections));
    row(sb, "requests", Integer.toString(requests));
    row(sb, "retries", Integer.toString(retries));
    row(sb, "restarts", Integer.toString(restarts));
    row(sb, "resumed bytes", String.format(Locale.ROOT, "%,d", resumedBytes));
    if (sha256 != null) {
      row(sb, "sha256", sha256 + " (verified)");
    }
    return sb.toString();
  }

  private static void row(StringBuilder sb, String name, String value) {
    sb.append(String.format(Locale.ROOT, "%-22s %15s%n", name, value));
  }

  @Override
  public String toString() {
    return "FetchResult{" + finalUri + " -> " + file + ", " + bytes + " bytes}";
  }
}
