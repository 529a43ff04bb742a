/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import io.spindex.annotations.Internal;
import java.io.IOException;

/**
 * A download failed for a reason a person can act on: an HTTP status, a redirect loop, a size
 * limit, a checksum mismatch, a TLS failure, or retries exhausted. The message names the URL or
 * file and says what happened, on one line.
 */
@Internal
public final class FetchException extends IOException {
  private static final long serialVersionUID = 1L;

  /** Whether trying the same request again may help, and what to do about it. */
  enum Kind {
    /** Give up: retrying cannot help (4xx, limits, TLS, checksum). */
    FATAL,
    /** Try the request again after a backoff (connection error, stall, 5xx, 408, 429). */
    RETRY,
    /** The content changed on the server during the download: start over from byte 0. */
    CHANGED
  }

  private final transient Kind kind;
  private final long retryAfterMillis;
  private final int status;

  FetchException(Kind kind, String message) {
    this(kind, message, null, -1, 0);
  }

  FetchException(Kind kind, String message, Throwable cause) {
    this(kind, message, cause, -1, 0);
  }

  FetchException(Kind kind, String message, Throwable cause, long retryAfterMillis, int status) {
    super(message, cause);
    this.kind = kind;
    this.retryAfterMillis = retryAfterMillis;
    this.status = status;
  }

  /** The same failure with more words at the end of the message. */
  FetchException withSuffix(String suffix) {
    return new FetchException(kind(), getMessage() + suffix, getCause(), retryAfterMillis, status);
  }

  /** The HTTP status that caused it, or 0. */
  public int status() {
    return status;
  }

  Kind kind() {
    return kind == null ? Kind.FATAL : kind;
  }

  /** The server's {@code Retry-After}, in milliseconds, or -1. */
  long retryAfterMillis() {
    return retryAfterMillis;
  }
}
