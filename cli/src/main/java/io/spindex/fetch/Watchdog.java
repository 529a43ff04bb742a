/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Drops response bodies that stop delivering bytes. {@link java.net.http.HttpClient}'s request
 * timeout ends when the headers arrive; a body that stalls after that would block a reader forever.
 * Closing the body from here makes the blocked read return, and the worker retries. Also runs the
 * periodic resume checkpoint, so one timer thread serves a whole download. Thread-safe.
 */
final class Watchdog implements AutoCloseable {
  private final ScheduledExecutorService timer;
  private final List<Watch> watches = new CopyOnWriteArrayList<>();
  private final long stallNanos;

  Watchdog(long stallNanos, long tickMillis) {
    this.stallNanos = stallNanos;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "spindex-fetch-timer");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(this::check, tickMillis, tickMillis, TimeUnit.MILLISECONDS);
  }

  /** Runs {@code task} every {@code millis} on the timer thread until cancelled. */
  ScheduledFuture<?> every(long millis, Runnable task) {
    return timer.scheduleWithFixedDelay(task, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** One worker's body under watch. */
  final class Watch {
    private volatile Closeable body;
    private volatile long lastNanos;
    private volatile boolean stalled;

    /** Starts watching {@code body}. */
    void arm(Closeable body) {
      this.stalled = false;
      this.lastNanos = System.nanoTime();
      this.body = body;
    }

    /** Bytes arrived. */
    void touch() {
      lastNanos = System.nanoTime();
    }

    /** Stops watching; returns whether the body was dropped for stalling. */
    boolean disarm() {
      body = null;
      return stalled;
    }

    /** Closes the body now (the download is being abandoned). */
    void cancel() {
      closeQuietly(body);
    }

    void check(long now) {
      Closeable b = body;
      if (b != null && now - lastNanos > stallNanos) {
        stalled = true;
        closeQuietly(b);
      }
    }
  }

  Watch watch() {
    Watch w = new Watch();
    watches.add(w);
    return w;
  }

  /** Closes every watched body: the download is being abandoned. */
  void cancelAll() {
    for (Watch w : watches) {
      w.cancel();
    }
  }

  private void check() {
    long now = System.nanoTime();
    for (Watch w : watches) {
      w.check(now);
    }
  }

  private static void closeQuietly(Closeable c) {
    if (c != null) {
      try {
        c.close();
      } catch (IOException e) {
        // Dropping the connection is the point; a failure to close it changes nothing.
      }
    }
  }

  /**
   * Stops the timer and waits for a task it is running to end, so that no stall check or checkpoint
   * of this download runs after it. The task is not interrupted: an interrupt during a checkpoint's
   * {@code force} would close {@code FILE.part}'s channel.
   */
  @Override
  public void close() {
    timer.shutdown(); // cancels the periodic tasks; one that is running finishes
    try {
      while (!timer.awaitTermination(10, TimeUnit.SECONDS)) {
        // A checkpoint on a slow disk: wait on.
      }
    } catch (InterruptedException e) {
      timer.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
