/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import io.spindex.annotations.Internal;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongConsumer;

/** How {@link Stager} checks and copies. Immutable and thread-safe; the defaults suit jobs. */
@Internal
public final class StageOptions {
  /** What is checked on the copy before it is renamed into place. */
  public enum Check {
    /**
     * The default. An index: the header and every section's CRC32C (read once through a channel and
     * one 1 MiB buffer, nothing mapped or kept), and the header checksum equal to the source's. Any
     * other file: its length.
     */
    CHECKSUMS,
    /** An index only: everything {@code spindex verify} checks (order, overlaps, bounds) too. */
    DEEP,
    /** The length only, index or not. */
    SIZE
  }

  final Check check;
  final boolean force;
  final Duration lockTimeout;
  final LongConsumer progress;

  private StageOptions(Check check, boolean force, Duration lockTimeout, LongConsumer progress) {
    this.check = check;
    this.force = force;
    this.lockTimeout = lockTimeout;
    this.progress = progress;
  }

  /**
   * Checksums, no forced copy, a 10-minute wait for another process staging the same file, no
   * progress.
   */
  public static StageOptions defaults() {
    return new StageOptions(Check.CHECKSUMS, false, Duration.ofMinutes(10), n -> {});
  }

  /**
   * What to check on the copy before it is renamed into place (default {@link Check#CHECKSUMS}).
   */
  public StageOptions check(Check check) {
    return new StageOptions(Objects.requireNonNull(check), force, lockTimeout, progress);
  }

  /** Copy even when the destination is already current. */
  public StageOptions force(boolean force) {
    return new StageOptions(check, force, lockTimeout, progress);
  }

  /** How long to wait for another thread or process staging the same destination. */
  public StageOptions lockTimeout(Duration timeout) {
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("lock timeout must not be negative: " + timeout);
    }
    return new StageOptions(check, force, timeout, progress);
  }

  /** Called with each number of bytes copied, from the staging thread. */
  public StageOptions progress(LongConsumer progress) {
    return new StageOptions(check, force, lockTimeout, Objects.requireNonNull(progress));
  }
}
