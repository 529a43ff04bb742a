/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import io.spindex.fetch.FetchException.Kind;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ScheduledFuture;

/**
 * One call of {@link Fetcher#fetch}: decides between resuming, a range download and one stream, and
 * starts over when the server's copy changes. Runs on the caller's thread; the range workers run on
 * their own. When {@link #run} returns or throws, the last state is saved and nothing of this
 * session writes {@code FILE.part} or the state file any more: the workers are joined (or, when the
 * caller is interrupted, can only write through the channel the caller closes), the watchdog's
 * timer has stopped, and a checkpoint after the last save does nothing. Not reusable.
 */
final class Session {
  /** Times a download starts over because the content changed before giving up. */
  static final int MAX_RESTARTS = 3;

  /** What the download did, for {@link FetchResult}. */
  static final class Outcome {
    URI finalUri;
    long bytes;
    boolean ranges;
    int connections;
    int requests;
    int retries;
    int restarts;
    long resumedBytes;

    /** When the first response arrived, in System.nanoTime() terms; 0 before. */
    long firstResponseAt;
  }

  private final FetchOptions options;
  private final URI uri;
  private final FileChannel ch;
  private final Path stateFile;
  private final Http http;
  private final Object checkpointLock = new Object();
  private boolean finished;

  Session(FetchOptions options, URI uri, FileChannel ch, Path stateFile) {
    this.options = options;
    this.uri = uri;
    this.ch = ch;
    this.stateFile = stateFile;
    this.http = new Http(options);
  }

  Outcome run() throws IOException {
    PartState state = options.resume ? PartState.load(stateFile) : null;
    if (state != null && !state.url.equals(uri.toString())) {
      options.listener.notice("ignoring " + stateFile + ": it is for " + state.url);
      state = null;
    }
    if (state != null && ch.size() < state.keptEnd()) {
      // FILE.part was deleted or truncated behind the state's back: its "kept" bytes are gone.
      options.listener.notice(
          "ignoring " + stateFile + ": " + targetName() + ".part is shorter than it records");
      state = null;
    }
    if (state == null) {
      reset();
    }
    Outcome o = new Outcome();
    while (true) {
      long stallNanos = options.stallTimeout.toNanos();
      long tickMillis = Math.max(10, Math.min(1000, stallNanos / 4_000_000));
      try (Watchdog dog = new Watchdog(stallNanos, tickMillis)) {
        Transfer t = new Transfer(http, options, ch, dog);
        try {
          attempt(state, t, o);
          return o;
        } finally {
          o.requests += t.requests.get();
          o.retries += t.retries.get();
        }
      } catch (FetchException e) {
        if (e.kind() != Kind.CHANGED) {
          throw e;
        }
        if (++o.restarts > MAX_RESTARTS) {
          throw new FetchException(
              Kind.FATAL, e.getMessage() + " (gave up after " + MAX_RESTARTS + " restarts)", e);
        }
        options.listener.notice(e.getMessage() + "; starting over");
        state = null;
        reset();
      }
    }
  }

  /** Forgets the partial download: empty {@code FILE.part}, no state file. */
  private void reset() throws IOException {
    ch.truncate(0);
    Files.deleteIfExists(stateFile);
  }

  private void attempt(PartState state, Transfer t, Outcome o) throws IOException {
    boolean complete = state != null && state.missing.isEmpty();
    long from = state == null || complete ? 0 : state.missing.get(0)[0];
    if (state != null) {
      options.listener.notice(
          String.format(
              Locale.ROOT,
              "resuming: %,d of %,d bytes already in %s",
              state.validator.length - state.missingBytes(),
              state.validator.length,
              targetName() + ".part"));
    }
    Http.Response r;
    try {
      r = probe(t, from, complete ? 0 : -1);
    } catch (FetchException e) {
      if (e.status() != 416) {
        throw e;
      }
      if (state != null) {
        throw new FetchException(
            Kind.CHANGED,
            "server refuses Range: bytes=" + from + "- (416): the content is shorter than before");
      }
      // Every range of an empty file is unsatisfiable: ask for the whole (empty) content.
      r = probe(t, -1, -1);
    }
    o.finalUri = r.uri;
    if (o.firstResponseAt == 0) {
      o.firstResponseAt = System.nanoTime();
    }
    if (r.status() == 206) {
      long[] cr = r.contentRangeFrom(from, r.uri);
      if (cr[2] >= 0) {
        ranges(state, t, o, r, r.validator(cr[2]), complete);
        return;
      }
      // "Content-Range: bytes 0-99/*": ranges, but no length to plan them with.
      r.close();
      r = probe(t, -1, -1);
    }
    if (r.status() != 200) {
      r.close();
      throw new FetchException(Kind.FATAL, "HTTP " + r.status() + " instead of content: " + r.uri);
    }
    if (state != null) {
      options.listener.notice("server sent the whole content instead of a range; starting over");
      reset();
    }
    o.resumedBytes = 0;
    o.connections = 1;
    o.ranges = false;
    o.bytes = new StreamDownload(t, r.uri, stateFile).run(r);
  }

  private Http.Response probe(Transfer t, long from, long to) throws IOException {
    int failures = 0;
    while (true) {
      try {
        Http.Response r = http.get(uri, from, to, null);
        t.requests.incrementAndGet();
        return r;
      } catch (FetchException e) {
        t.retryOrThrow(e, ++failures);
      }
    }
  }

  private void ranges(
      PartState state, Transfer t, Outcome o, Http.Response r, Validator v, boolean complete)
      throws IOException {
    if (state != null && !v.equals(state.validator)) {
      r.close();
      throw new FetchException(
          Kind.CHANGED,
          "server copy changed since the interrupted download ("
              + v.differenceFrom(state.validator)
              + ")");
    }
    try {
      Limits.checkSize(options, v.length, r.uri);
      if (!complete) {
        Limits.checkSpace(stateFile, state == null ? v.length : state.missingBytes());
      }
    } catch (IOException | RuntimeException e) {
      r.close();
      throw e;
    }
    List<long[]> missing =
        state == null ? Collections.singletonList(new long[] {0, v.length}) : state.missing;
    long need = 0;
    for (long[] m : missing) {
      need += m[1] - m[0];
    }
    o.ranges = true;
    o.bytes = v.length;
    o.resumedBytes = v.length - need;
    if (complete || need == 0) {
      r.close();
      o.connections = 1;
      return;
    }
    synchronized (checkpointLock) {
      finished = false;
    }
    options.listener.started(v.length, v.length - need);
    Plan plan = new Plan(missing, options.parallel, options.minSplitBytes);
    RangeDownload d = new RangeDownload(t, r.uri, v, plan);
    String url = uri.toString();
    // The state file is written first, so that a crash even before the first checkpoint resumes.
    checkpoint(new PartState(url, v, plan.missing()));
    ScheduledFuture<?> cp =
        t.watchdog.every(
            options.checkpointInterval.toMillis(),
            () -> checkpoint(new PartState(url, v, plan.missing())));
    try {
      d.run(r);
    } finally {
      cp.cancel(false);
      synchronized (checkpointLock) {
        // First, so that no checkpoint follows this last save, even when the save fails.
        finished = true;
        List<long[]> left = plan.missing();
        if (left.isEmpty()) {
          Files.deleteIfExists(stateFile);
        } else if (!(t.failure() instanceof FetchException
            && ((FetchException) t.failure()).kind() == Kind.CHANGED)) {
          saveState(new PartState(url, v, left));
        }
      }
      o.connections = d.connections();
    }
  }

  /** Saves the resume state on the timer thread; a failure waits for the next checkpoint. */
  private void checkpoint(PartState s) {
    synchronized (checkpointLock) {
      if (finished) {
        return;
      }
      try {
        saveState(s);
      } catch (IOException e) {
        // Not fatal: the download goes on, a later checkpoint or the final save may succeed.
      }
    }
  }

  /** Forces the bytes the state counts as done to disk, then replaces the state file. */
  private void saveState(PartState s) throws IOException {
    ch.force(false);
    s.save(stateFile);
  }

  private String targetName() {
    String n = stateFile.getFileName().toString();
    return n.substring(0, n.length() - ".part.state".length());
  }
}
