/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import io.spindex.fetch.FetchException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the workers of one download share: the HTTP client, the open {@code FILE.part}, the stall
 * watchdog, the counters, and the first fatal failure (which stops everyone). Thread-safe.
 */
final class Transfer {
  /** Bytes a worker reads from a response before writing them to the file. */
  static final int BUFFER_BYTES = 256 << 10;

  final Http http;
  final FetchOptions options;
  final FileChannel channel;
  final Watchdog watchdog;
  final AtomicInteger requests = new AtomicInteger();
  final AtomicInteger retries = new AtomicInteger();
  private final AtomicReference<IOException> failure = new AtomicReference<>();
  private final CountDownLatch aborted = new CountDownLatch(1);

  Transfer(Http http, FetchOptions options, FileChannel channel, Watchdog watchdog) {
    this.http = http;
    this.options = options;
    this.channel = channel;
    this.watchdog = watchdog;
  }

  /** Records the first failure and stops every worker (closes their bodies, ends backoffs). */
  void abort(IOException e) {
    if (failure.compareAndSet(null, e)) {
      aborted.countDown();
      watchdog.cancelAll();
    }
  }

  boolean aborted() {
    return failure.get() != null;
  }

  IOException failure() {
    return failure.get();
  }

  /**
   * Copies a response body into {@code seg} until the body ends or the segment is full.
   *
   * @return true when the segment is full (the rest of the body, if any, is not wanted)
   * @throws FetchException RETRY when the connection breaks or stalls
   */
  boolean copy(URI uri, InputStream in, Segment seg, byte[] buf, Watchdog.Watch watch)
      throws IOException {
    boolean full;
    watch.arm(in);
    try {
      full = copyLoop(in, seg, buf, watch);
    } catch (IOException e) {
      boolean stalled = watch.disarm();
      if (aborted()) {
        throw failure();
      }
      if (stalled) {
        throw stalled(uri, seg);
      }
      throw new FetchException(
          Kind.RETRY,
          "connection lost at byte " + seg.pos() + ": " + uri + " (" + Http.rootMessage(e) + ")",
          e);
    }
    // A body closed by the watchdog or by an abort may read as a clean end: not taken for one.
    boolean stalled = watch.disarm();
    if (aborted()) {
      throw failure();
    }
    if (stalled && !full) {
      throw stalled(uri, seg);
    }
    return full;
  }

  private boolean copyLoop(InputStream in, Segment seg, byte[] buf, Watchdog.Watch watch)
      throws IOException {
    ByteBuffer bb = ByteBuffer.wrap(buf);
    while (true) {
      int n = in.read(buf, 0, buf.length);
      if (n < 0) {
        return seg.done();
      }
      // Take what has already arrived, without blocking, so that writes are large.
      while (n < buf.length && in.available() > 0) {
        int m = in.read(buf, n, buf.length - n);
        if (m < 0) {
          break;
        }
        n += m;
      }
      watch.touch();
      bb.clear().limit(n);
      int wrote = seg.write(channel, bb);
      options.listener.transferred(wrote);
      if (wrote < n || seg.done()) {
        return true;
      }
    }
  }

  private FetchException stalled(URI uri, Segment seg) {
    return new FetchException(
        Kind.RETRY,
        "no data for " + Http.seconds(options.stallTimeout) + " at byte " + seg.pos() + ": " + uri);
  }

  /**
   * Handles a failed attempt: rethrows what cannot be retried, or waits the backoff.
   *
   * @param failures consecutive failures without progress, including this one
   * @throws IOException the failure itself when it is fatal, when retries are used up (with "gave
   *     up after N attempts"), or when the download was aborted meanwhile
   */
  void retryOrThrow(FetchException e, int failures) throws IOException {
    if (aborted()) {
      throw failure();
    }
    if (e.kind() != Kind.RETRY) {
      throw e;
    }
    if (failures > options.retries) {
      throw new FetchException(
          Kind.FATAL, e.getMessage() + " (gave up after " + failures + " attempts)", e);
    }
    long base = options.retryWait.toMillis() << Math.min(20, failures - 1);
    long delay = Math.min(options.maxRetryWait.toMillis(), base);
    // Jitter, so that parallel connections hit by the same hiccup do not come back in step.
    delay = delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
    if (e.retryAfterMillis() >= 0) {
      delay = Math.max(delay, Math.min(e.retryAfterMillis(), options.maxRetryWait.toMillis()));
    }
    retries.incrementAndGet();
    options.listener.notice(
        e.getMessage() + "; retry " + failures + " of " + options.retries + " in " + delay + " ms");
    try {
      if (aborted.await(delay, TimeUnit.MILLISECONDS)) {
        throw failure();
      }
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
  }
}
