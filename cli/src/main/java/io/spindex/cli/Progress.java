/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * A one-line progress display on stderr (percent, MB, MB/s), redrawn five times a second, shown
 * only when stderr is a terminal (system property {@code spindex.progress}, set by the launcher).
 * Kept to these few lines rather than a library: it draws one number.
 */
final class Progress implements AutoCloseable {
  private final LongAdder done = new LongAdder();
  private final Thread thread;
  private final PrintStream out = System.err;

  Progress(String what, long total) {
    // The launcher knows whether stderr is a terminal ([ -t 2 ]); Java 11 cannot ask.
    String flag = System.getProperty("spindex.progress");
    boolean show = flag != null ? Boolean.parseBoolean(flag) : System.console() != null;
    if (!show) {
      thread = null;
      return;
    }
    long t0 = System.nanoTime();
    thread =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                draw(what, total, t0);
                try {
                  Thread.sleep(200);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "spindex-progress");
    thread.setDaemon(true);
    thread.start();
  }

  LongAdder counter() {
    return done;
  }

  private void draw(String what, long total, long t0) {
    long n = done.sum();
    double secs = Math.max(1e-9, (System.nanoTime() - t0) / 1e9);
    out.print(
        String.format(
            Locale.ROOT,
            "\r%s %5.1f%%  %,.0f MB  %,.0f MB/s ",
            what,
            total > 0 ? 100.0 * n / total : 0,
            n / 1e6,
            n / 1e6 / secs));
    out.flush();
  }

  @Override
  public void close() {
    if (thread != null) {
      thread.interrupt();
      out.print("\r\033[K");
      out.flush();
    }
  }
}
