/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import io.spindex.annotations.Internal;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * How {@link Fetcher} downloads: connections, retries, limits, verification. Immutable and
 * thread-safe; build one with {@link #builder()}. The defaults suit a download over the internet
 * from a merchant's or vendor's web server.
 */
@Internal
public final class FetchOptions {
  /** Default number of parallel range connections. */
  public static final int DEFAULT_PARALLEL = 4;

  /** Default maximum size of a download: 64 GiB. */
  public static final long DEFAULT_MAX_BYTES = 64L << 30;

  final int parallel;
  final int retries;
  final Duration retryWait;
  final Duration maxRetryWait;
  final int maxRedirects;
  final long maxBytes;
  final Duration connectTimeout;
  final Duration stallTimeout;
  final Duration checkpointInterval;
  final long minSplitBytes;
  final String sha256;
  final boolean resume;
  final SSLContext sslContext;
  final FetchListener listener;

  /**
   * The {@code Authorization} header value, sent only to the host of the URL asked for (never to a
   * host a redirect leads to), or {@code null}. Never printed.
   */
  final String authorization;

  private FetchOptions(Builder b) {
    this.parallel = b.parallel;
    this.retries = b.retries;
    this.retryWait = b.retryWait;
    this.maxRetryWait = b.maxRetryWait;
    this.maxRedirects = b.maxRedirects;
    this.maxBytes = b.maxBytes;
    this.connectTimeout = b.connectTimeout;
    this.stallTimeout = b.stallTimeout;
    this.checkpointInterval = b.checkpointInterval;
    this.minSplitBytes = b.minSplitBytes;
    this.sha256 = b.sha256;
    this.resume = b.resume;
    this.sslContext = b.sslContext;
    this.listener = b.listener;
    this.authorization = b.authorization;
  }

  /** A builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The defaults. */
  public static FetchOptions defaults() {
    return builder().build();
  }

  /** A builder that starts from these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.parallel = parallel;
    b.retries = retries;
    b.retryWait = retryWait;
    b.maxRetryWait = maxRetryWait;
    b.maxRedirects = maxRedirects;
    b.maxBytes = maxBytes;
    b.connectTimeout = connectTimeout;
    b.stallTimeout = stallTimeout;
    b.checkpointInterval = checkpointInterval;
    b.minSplitBytes = minSplitBytes;
    b.sha256 = sha256;
    b.resume = resume;
    b.sslContext = sslContext;
    b.listener = listener;
    b.authorization = authorization;
    return b;
  }

  /** Mutable builder of {@link FetchOptions}; not thread-safe. */
  public static final class Builder {
    private int parallel = DEFAULT_PARALLEL;
    private int retries = 5;
    private Duration retryWait = Duration.ofMillis(500);
    private Duration maxRetryWait = Duration.ofSeconds(30);
    private int maxRedirects = 10;
    private long maxBytes = DEFAULT_MAX_BYTES;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration stallTimeout = Duration.ofSeconds(30);
    private Duration checkpointInterval = Duration.ofSeconds(2);
    private long minSplitBytes = 1L << 20;
    private String sha256;
    private boolean resume = true;
    private SSLContext sslContext;
    private FetchListener listener = FetchListener.NONE;
    private String authorization;

    private Builder() {}

    /**
     * Range connections when the server supports ranges (1–64, default {@value #DEFAULT_PARALLEL}).
     * A server without ranges always gets one.
     */
    public Builder parallel(int n) {
      if (n < 1 || n > 64) {
        throw new IllegalArgumentException("--parallel must be 1..64, not " + n);
      }
      this.parallel = n;
      return this;
    }

    /**
     * Retries of a request after a connection error, a stall, a 5xx, 408 or 429 (default 5). A
     * retry that made progress does not count: only consecutive failures without a byte do.
     */
    public Builder retries(int n) {
      if (n < 0) {
        throw new IllegalArgumentException("--retries must be >= 0, not " + n);
      }
      this.retries = n;
      return this;
    }

    /** First backoff (default 500 ms); doubles per consecutive failure up to the maximum. */
    public Builder retryWait(Duration first, Duration max) {
      this.retryWait = positive(first, "retry wait");
      this.maxRetryWait = positive(max, "maximum retry wait");
      return this;
    }

    /** Redirects followed per request (default 10). */
    public Builder maxRedirects(int n) {
      if (n < 0) {
        throw new IllegalArgumentException("--max-redirects must be >= 0, not " + n);
      }
      this.maxRedirects = n;
      return this;
    }

    /** Largest download accepted, in bytes (default 64 GiB). */
    public Builder maxBytes(long n) {
      if (n < 0) {
        throw new IllegalArgumentException("--max-size must be >= 0, not " + n);
      }
      this.maxBytes = n;
      return this;
    }

    /** TCP connect timeout (default 10 s). */
    public Builder connectTimeout(Duration d) {
      this.connectTimeout = positive(d, "connect timeout");
      return this;
    }

    /**
     * How long a connection may go without delivering a byte (waiting for response headers, or
     * mid-body) before it is dropped and retried (default 30 s).
     */
    public Builder stallTimeout(Duration d) {
      this.stallTimeout = positive(d, "stall timeout");
      return this;
    }

    /** How often the resume state is saved during a range download (default 2 s). */
    public Builder checkpointInterval(Duration d) {
      this.checkpointInterval = positive(d, "checkpoint interval");
      return this;
    }

    /**
     * A connection that finishes its range takes over half of the largest remaining one, if that
     * half is at least this many bytes (default 1 MiB).
     */
    public Builder minSplitBytes(long n) {
      if (n < 1) {
        throw new IllegalArgumentException("minimum split must be >= 1 byte, not " + n);
      }
      this.minSplitBytes = n;
      return this;
    }

    /** Expected SHA-256 of the content as 64 hex digits, or {@code null} for no check. */
    public Builder sha256(String hex) {
      if (hex != null && !hex.matches("[0-9a-fA-F]{64}")) {
        throw new IllegalArgumentException("--sha256 must be 64 hex digits, not '" + hex + "'");
      }
      this.sha256 = hex == null ? null : hex.toLowerCase(Locale.ROOT);
      return this;
    }

    /**
     * Whether an interrupted download continues from {@code FILE.part} (default true). It does only
     * when the server's ETag, Last-Modified and length are unchanged.
     */
    public Builder resume(boolean resume) {
      this.resume = resume;
      return this;
    }

    /**
     * The TLS context, for embedders with their own trust store; {@code null} (the default) is the
     * JVM's default context ({@code javax.net.ssl.trustStore}). Certificates and host names are
     * always verified: there is deliberately no trust-all switch.
     */
    public Builder sslContext(SSLContext context) {
      this.sslContext = context;
      return this;
    }

    /** Receives progress and notices (default: none). */
    public Builder listener(FetchListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * HTTP basic authentication for the host of the URL asked for (and only that host: a redirect
     * elsewhere, such as a download service's signed URL, goes without it), or {@code null} for
     * none. The credentials appear in no message.
     */
    public Builder basicAuth(String user, String password) {
      this.authorization =
          user == null
              ? null
              : "Basic "
                  + java.util.Base64.getEncoder()
                      .encodeToString(
                          (user + ":" + password)
                              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return this;
    }

    /** The options as set so far; the builder may be used again. */
    public FetchOptions build() {
      return new FetchOptions(this);
    }

    private static Duration positive(Duration d, String what) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive, not " + d);
      }
      return d;
    }
  }
}
