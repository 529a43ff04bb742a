/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import io.spindex.fetch.FetchException.Kind;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Downloads the missing ranges of a file with {@code parallel} worker threads, each with its own
 * connection and a 256 KiB buffer, writing at the ranges' offsets in {@code FILE.part}. Memory is
 * bounded by the workers, not the file. Not reusable: one instance per attempt.
 */
final class RangeDownload {
  private final Transfer t;
  private final URI uri;
  private final Validator validator;
  private final Plan plan;
  private final AtomicInteger connections = new AtomicInteger();

  RangeDownload(Transfer t, URI uri, Validator validator, Plan plan) {
    this.t = t;
    this.uri = uri;
    this.validator = validator;
    this.plan = plan;
  }

  /** Connections that sent at least one request. */
  int connections() {
    return connections.get();
  }

  /**
   * Runs the workers until every range is written.
   *
   * @param probe the open response to {@code Range: bytes=S-} where S is the first missing byte;
   *     the first worker reads the first piece from it instead of asking again
   * @throws FetchException FATAL, CHANGED, or RETRY turned FATAL when retries ran out
   */
  void run(Http.Response probe) throws IOException {
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < t.options.parallel; i++) {
      Http.Response first = i == 0 ? probe : null;
      Segment seg = i == 0 ? plan.takeFirst() : null;
      Thread th = new Thread(() -> work(first, seg), "spindex-fetch-" + i);
      th.setDaemon(true);
      threads.add(th);
      th.start();
    }
    try {
      for (Thread th : threads) {
        th.join();
      }
    } catch (InterruptedException e) {
      InterruptedIOException ie = new InterruptedIOException("download interrupted");
      t.abort(ie);
      Thread.currentThread().interrupt();
      throw ie;
    }
    if (t.aborted()) {
      throw t.failure();
    }
  }

  private void work(Http.Response probe, Segment first) {
    byte[] buf = new byte[Transfer.BUFFER_BYTES];
    Watchdog.Watch watch = t.watchdog.watch();
    Segment seg = first;
    Http.Response pending = probe;
    boolean counted = false;
    try {
      if (seg == null) {
        seg = plan.next(null);
      }
      while (seg != null && !t.aborted()) {
        if (!counted) {
          counted = true;
          connections.incrementAndGet();
        }
        fill(seg, pending, buf, watch);
        pending = null;
        seg = plan.next(seg);
      }
    } catch (IOException e) {
      t.abort(e);
    } catch (RuntimeException | Error e) {
      t.abort(new IOException("internal error in download worker: " + e, e));
    } finally {
      if (pending != null) {
        pending.close();
      }
    }
  }

  /** Downloads one segment to its end, retrying as allowed. */
  private void fill(Segment seg, Http.Response pending, byte[] buf, Watchdog.Watch watch)
      throws IOException {
    int failures = 0;
    Http.Response r = pending;
    while (!seg.done()) {
      long before = seg.pos();
      try {
        if (r == null) {
          r = t.http.get(uri, before, seg.end() - 1, validator);
          t.requests.incrementAndGet();
          check(r, before);
        }
        boolean full = t.copy(uri, r.body(), seg, buf, watch);
        if (!full && seg.pos() == before) {
          throw new FetchException(
              Kind.RETRY, "empty response to Range: bytes=" + before + "-: " + uri);
        }
        // A server may answer with less than was asked: the loop asks for the rest.
      } catch (FetchException e) {
        failures = seg.pos() > before ? 1 : failures + 1;
        t.retryOrThrow(e, failures);
      } finally {
        if (r != null) {
          r.close();
          r = null;
        }
      }
    }
  }

  /** A range response must be a 206 for the bytes asked, of the same content. */
  private void check(Http.Response r, long from) throws FetchException {
    if (r.status() != 206) {
      // With If-Range, a 200 is how a server says the content changed.
      throw new FetchException(
          Kind.CHANGED,
          "server answered Range: bytes=" + from + "- with HTTP " + r.status() + ": " + uri);
    }
    long[] cr = r.contentRangeFrom(from, uri);
    String etag = r.header("ETag");
    String lastModified = r.header("Last-Modified");
    if (cr[2] != validator.length
        || (etag != null && !Objects.equals(etag, validator.etag))
        || (lastModified != null && !Objects.equals(lastModified, validator.lastModified))) {
      Validator now =
          new Validator(
              etag == null ? validator.etag : etag,
              lastModified == null ? validator.lastModified : lastModified,
              cr[2]);
      throw new FetchException(
          Kind.CHANGED,
          "content changed during the download (" + now.differenceFrom(validator) + "): " + uri);
    }
  }
}
