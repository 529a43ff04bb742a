/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import io.spindex.annotations.Internal;
import java.nio.file.Path;
import java.util.Locale;

/** What one {@link Stager#stage} call did. Immutable. */
@Internal
public final class StageResult {
  private final String source;
  private final Path destination;
  private final long bytes;
  private final boolean copied;
  private final boolean index;
  private final int headerCrc32c;
  private final String checked;
  private final long elapsedNanos;
  private final long copyNanos;

  StageResult(
      String source,
      Path destination,
      long bytes,
      boolean copied,
      boolean index,
      int headerCrc32c,
      String checked,
      long elapsedNanos,
      long copyNanos) {
    this.source = source;
    this.destination = destination;
    this.bytes = bytes;
    this.copied = copied;
    this.index = index;
    this.headerCrc32c = headerCrc32c;
    this.checked = checked;
    this.elapsedNanos = elapsedNanos;
    this.copyNanos = copyNanos;
  }

  /** {@link StageSource#name()} of the source. */
  public String source() {
    return source;
  }

  /** The staged file (absolute). */
  public Path destination() {
    return destination;
  }

  /** Its length in bytes. */
  public long bytes() {
    return bytes;
  }

  /**
   * True when this call copied the file; false when the destination was already current (staged
   * earlier, or by another thread or process that held the lock first).
   */
  public boolean copied() {
    return copied;
  }

  /** Whether the file is a Spindex index. */
  public boolean index() {
    return index;
  }

  /** The index's header checksum (its content identity); 0 when not an index. */
  public int headerCrc32c() {
    return headerCrc32c;
  }

  /** What was checked, e.g. "header + 5 section CRC32Cs", or "current (header CRC32C)". */
  public String checked() {
    return checked;
  }

  /** Wall time of the call, including waiting for a lock, in nanoseconds. */
  public long elapsedNanos() {
    return elapsedNanos;
  }

  /** Time spent copying alone (0 when nothing was copied), in nanoseconds. */
  public long copyNanos() {
    return copyNanos;
  }

  /** A human-readable summary table, like the build summaries. */
  public String format() {
    StringBuilder sb = new StringBuilder();
    row(sb, "bytes", String.format(Locale.ROOT, "%,d", bytes));
    row(sb, "copied", copied ? "yes" : "no (already current)");
    row(
        sb,
        "index",
        index ? String.format(Locale.ROOT, "yes (header crc %08x)", headerCrc32c) : "no");
    row(sb, "checked", checked);
    if (copied) {
      row(sb, "copy s", String.format(Locale.ROOT, "%.3f", copyNanos / 1e9));
      row(
          sb,
          "copy MB/s",
          String.format(Locale.ROOT, "%.1f", bytes / 1e6 / Math.max(1e-9, copyNanos / 1e9)));
    }
    row(sb, "elapsed s", String.format(Locale.ROOT, "%.3f", elapsedNanos / 1e9));
    return sb.toString();
  }

  private static void row(StringBuilder sb, String name, String value) {
    sb.append(String.format(Locale.ROOT, "%-22s %15s%n", name, value));
  }
}
