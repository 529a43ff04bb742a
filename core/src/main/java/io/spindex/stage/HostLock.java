/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Mutual exclusion for staging one destination, across threads and across processes on a host: a
 * lock per path inside the JVM (file locks are held per process, so two threads of one JVM cannot
 * exclude each other with them), then an OS file lock on {@code .NAME.lock} beside the destination.
 * The lock file stays behind: deleting it would let a third process lock a file that a second one
 * has just unlinked. The OS releases the file lock when a process dies. The holder writes who it is
 * into the lock file, so that a waiter can say who holds it.
 */
@Internal
public final class HostLock implements AutoCloseable {
  /** One entry per destination path ever staged in this JVM: a few, in practice. */
  private static final ConcurrentHashMap<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

  private static final long POLL_MILLIS = 20;

  private final ReentrantLock jvmLock;
  private final FileChannel channel;
  private final FileLock fileLock;

  private HostLock(ReentrantLock jvmLock, FileChannel channel, FileLock fileLock) {
    this.jvmLock = jvmLock;
    this.channel = channel;
    this.fileLock = fileLock;
  }

  static Path lockFile(Path dst) {
    return dst.resolveSibling("." + dst.getFileName() + ".lock");
  }

  /**
   * Waits up to {@code timeout} for the lock on {@code dst} (absolute, normalised).
   *
   * @throws IOException naming the lock file when the wait times out
   */
  static HostLock acquire(Path dst, Duration timeout) throws IOException {
    return acquire(lockFile(dst), timeout, null);
  }

  /**
   * Waits up to {@code timeout} for the lock file {@code lockFile} (absolute, normalised).
   *
   * @param waiting told once, with the holder's description, when the lock is held by another
   *     process; {@code null} to wait silently
   * @throws IOException naming the lock file and its holder when the wait times out
   */
  public static HostLock acquire(
      Path lockFile, Duration timeout, java.util.function.Consumer<String> waiting)
      throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    ReentrantLock jvm = JVM_LOCKS.computeIfAbsent(lockFile, k -> new ReentrantLock());
    try {
      if (!jvm.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        throw timedOut(lockFile, timeout, "another thread of this JVM");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for " + lockFile);
    }
    FileChannel ch = null;
    try {
      ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      boolean told = false;
      while (true) {
        FileLock fl;
        try {
          fl = ch.tryLock();
        } catch (OverlappingFileLockException e) {
          fl = null; // the same file under another name, locked by another thread here
        }
        if (fl != null) {
          ch.truncate(0);
          ch.write(java.nio.ByteBuffer.wrap(me().getBytes(StandardCharsets.UTF_8)), 0);
          return new HostLock(jvm, ch, fl);
        }
        if (System.nanoTime() > deadline) {
          throw timedOut(lockFile, timeout, holder(lockFile));
        }
        if (!told && waiting != null) {
          waiting.accept(holder(lockFile));
          told = true;
        }
        Thread.sleep(POLL_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close(ch);
      jvm.unlock();
      throw new InterruptedIOException("interrupted waiting for " + lockFile);
    } catch (IOException | RuntimeException | Error e) {
      close(ch);
      jvm.unlock();
      throw e;
    }
  }

  private static IOException timedOut(Path lockFile, Duration timeout, String holder) {
    return new IOException(
        String.format(
            Locale.ROOT,
            "%s: still locked by %s after %.1f s",
            lockFile,
            holder,
            timeout.toMillis() / 1000.0));
  }

  /** This process, as a holder describes itself: {@code pid 123 on host since 2026-...Z}. */
  private static String me() {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "an unknown host";
    }
    return "pid "
        + ProcessHandle.current().pid()
        + " on "
        + host
        + " since "
        + java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
  }

  /** Who holds {@code lockFile}, as it wrote itself there, or "another process". */
  private static String holder(Path lockFile) {
    try {
      String s = new String(Files.readAllBytes(lockFile), StandardCharsets.UTF_8).trim();
      return s.isEmpty() || s.length() > 200 ? "another process" : s;
    } catch (IOException e) {
      return "another process";
    }
  }

  private static void close(FileChannel ch) {
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException e) {
        // Closing releases the lock; nothing else to do.
      }
    }
  }

  @Override
  public void close() throws IOException {
    try {
      fileLock.release();
      channel.close();
    } finally {
      jvmLock.unlock();
    }
  }
}
