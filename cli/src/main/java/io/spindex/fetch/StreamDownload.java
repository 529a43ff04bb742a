/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import io.spindex.fetch.FetchException.Kind;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One stream from byte 0 to the end, for a server that does not serve ranges or does not say how
 * long the content is. A failed attempt starts again from byte 0 (there is no way to ask for the
 * rest), so nothing is resumable. {@code --max-size} is enforced while reading, for bodies of
 * unknown length. Not reusable.
 */
final class StreamDownload {
  private final Transfer t;
  private final URI uri;
  private final Path beside;

  StreamDownload(Transfer t, URI uri, Path beside) {
    this.t = t;
    this.uri = uri;
    this.beside = beside;
  }

  /**
   * Reads {@code first} (a 200 response) to the end into {@code FILE.part}.
   *
   * @return the number of bytes written
   */
  long run(Http.Response first) throws IOException {
    byte[] buf = new byte[Transfer.BUFFER_BYTES];
    Watchdog.Watch watch = t.watchdog.watch();
    long max = t.options.maxBytes;
    long cap = max == Long.MAX_VALUE ? max : max + 1;
    Http.Response r = first;
    int failures = 0;
    while (true) {
      try {
        if (r == null) {
          r = t.http.get(uri, -1, -1, null);
          t.requests.incrementAndGet();
          if (r.status() != 200) {
            throw new FetchException(
                Kind.FATAL, "HTTP " + r.status() + " instead of content: " + r.uri);
          }
        }
        long length = r.contentLength();
        if (length >= 0) {
          Limits.checkSize(t.options, length, uri);
          Limits.checkSpace(beside, length);
        }
        t.channel.truncate(0);
        t.options.listener.started(length, 0);
        Segment seg = new Segment(0, cap);
        if (t.copy(uri, r.body(), seg, buf, watch)) {
          throw new FetchException(
              Kind.FATAL,
              String.format(
                  Locale.ROOT, "more than the maximum of %,d bytes (--max-size): %s", max, uri));
        }
        if (length >= 0 && seg.pos() != length) {
          throw new FetchException(
              Kind.RETRY,
              String.format(
                  Locale.ROOT,
                  "connection closed after %,d of %,d bytes: %s",
                  seg.pos(),
                  length,
                  uri));
        }
        return seg.pos();
      } catch (FetchException e) {
        t.retryOrThrow(e, ++failures);
      } finally {
        if (r != null) {
          r.close();
          r = null;
        }
      }
    }
  }
}
