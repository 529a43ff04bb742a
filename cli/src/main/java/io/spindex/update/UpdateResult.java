/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import io.spindex.annotations.Internal;
import io.spindex.text.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one database's update did: its status, its sources, the versions before and after, and how
 * long it took. {@link #json} is the one line {@code spindex update --json} prints for it; {@link
 * #text} the lines without it. Messages never hold credentials (no source or URL holds them).
 */
@Internal
public final class UpdateResult {
  /** How an update ended. */
  public enum Status {
    /** A new version was built, verified and published. */
    UPDATED,
    /** No source changed: the published version is current. */
    UNCHANGED,
    /** Nothing was published; the previous version (if any) still serves. */
    FAILED,
    /** A dry run: what {@link #message} says would be done. */
    PLANNED,
    /** A rollback published an earlier version. */
    ROLLED_BACK;

    /** The word {@code --json} prints. */
    public String word() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /** One source's line. */
  static final class SourceLine {
    final String source;
    final UpdateSource.Outcome outcome;

    SourceLine(String source, UpdateSource.Outcome outcome) {
      this.source = source;
      this.outcome = outcome;
    }
  }

  final String output;
  Status status;
  String message = "";
  final List<SourceLine> sources = new ArrayList<>();

  /** The published version before and after: header checksum (hex), source digest, bytes. */
  String oldCrc;

  String oldDigest;
  long oldBytes = -1;
  String newCrc;
  String newDigest;
  long newBytes = -1;
  long rows = -1;

  long downloadNanos;
  long buildNanos;
  long totalNanos;

  UpdateResult(String output) {
    this.output = output;
  }

  public Status status() {
    return status;
  }

  public String message() {
    return message;
  }

  /** The exit code of a run with only this database: 0 current, 1 failed. */
  public int exitCode() {
    return status == Status.FAILED ? 1 : 0;
  }

  /** One JSON object on one line. */
  public String json() {
    StringBuilder sb = new StringBuilder("{");
    field(sb, "database", output);
    field(sb, "status", status.word());
    if (!message.isEmpty()) {
      field(sb, "message", message);
    }
    sb.append(",\"sources\":[");
    for (int i = 0; i < sources.size(); i++) {
      SourceLine s = sources.get(i);
      sb.append(i == 0 ? "{" : ",{");
      sb.append("\"source\":").append(Json.quote(s.source));
      field(sb, "changed", s.outcome.changed);
      field(sb, "downloaded", s.outcome.downloaded);
      field(sb, "old_sha256", s.outcome.oldSha256);
      field(sb, "new_sha256", s.outcome.newSha256);
      if (s.outcome.bytes >= 0) {
        sb.append(",\"bytes\":").append(s.outcome.bytes);
      }
      sb.append('}');
    }
    sb.append(']');
    version(sb, "old", oldCrc, oldDigest, oldBytes);
    version(sb, "new", newCrc, newDigest, newBytes);
    if (rows >= 0) {
      sb.append(",\"rows\":").append(rows);
    }
    sb.append(",\"seconds\":{");
    sb.append("\"download\":").append(seconds(downloadNanos));
    sb.append(",\"build\":").append(seconds(buildNanos));
    sb.append(",\"total\":").append(seconds(totalNanos));
    return sb.append("}}").toString();
  }

  private static void version(StringBuilder sb, String name, String crc, String digest, long b) {
    if (crc == null) {
      sb.append(",\"").append(name).append("\":null");
      return;
    }
    sb.append(",\"").append(name).append("\":{\"header_crc\":").append(Json.quote(crc));
    sb.append(",\"source_sha256\":").append(Json.quote(digest));
    sb.append(",\"bytes\":").append(b).append('}');
  }

  private static void field(StringBuilder sb, String name, String value) {
    if (sb.length() > 1) {
      sb.append(',');
    }
    sb.append('"').append(name).append("\":").append(value == null ? "null" : Json.quote(value));
  }

  private static void field(StringBuilder sb, String name, boolean value) {
    sb.append(",\"").append(name).append("\":").append(value);
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
  }

  /** The lines a person reads: the status first, then each source. */
  public String text() {
    StringBuilder sb = new StringBuilder();
    sb.append(output).append(": ").append(status.word());
    if (!message.isEmpty()) {
      sb.append(": ").append(message);
    }
    sb.append('\n');
    for (SourceLine s : sources) {
      UpdateSource.Outcome o = s.outcome;
      String what =
          o.plan != null
              ? "would " + o.plan
              : o.downloaded ? "downloaded" : o.changed ? "changed" : "unchanged";
      sb.append("  ").append(s.source).append(": ").append(what);
      if (o.bytes >= 0 && o.plan == null) {
        sb.append(String.format(Locale.ROOT, ", %,d bytes", o.bytes));
      }
      sb.append('\n');
    }
    if (status == Status.UPDATED || status == Status.ROLLED_BACK) {
      sb.append(String.format(Locale.ROOT, "  version %s -> %s", oldCrc, newCrc));
      if (rows >= 0) {
        sb.append(String.format(Locale.ROOT, ", %,d rows", rows));
      }
      sb.append(String.format(Locale.ROOT, ", %.1f s%n", totalNanos / 1e9));
    }
    return sb.toString();
  }
}
