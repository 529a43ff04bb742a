/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexHeader;
import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;

/**
 * A file a job's tasks read (an index, a transform spec's value map or membership index), as the
 * driver shipped it: small and serializable, so it is all a task carries about side data — never
 * the data itself. Every engine ships and stages side data the same three ways:
 *
 * <ul>
 *   <li>{@link Ship#FILES}: in the task's shipped files ({@code spark-submit --files} or {@code
 *       addFile}; {@code hadoop jar -files} or the distributed cache), found by {@link #location()}
 *       as a name;
 *   <li>{@link Ship#STAGE}: a Hadoop path ({@code hdfs://}, {@code s3a://}); the first task of each
 *       JVM copies it to local disk, checked, and the others use that copy;
 *   <li>{@link Ship#LOCAL}: a path that exists on every node (NFS, pre-distributed), opened in
 *       place.
 * </ul>
 *
 * Immutable.
 */
@Internal
public final class SideFile implements Serializable {
  private static final long serialVersionUID = 1L;

  /** How tasks find the file. */
  public enum Ship {
    FILES,
    STAGE,
    LOCAL;

    /** The option text ({@code files}, {@code stage}, {@code local}). */
    public String optionName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final String given;
  private final Ship ship;
  private final String location;
  private final long length;
  private final long modified;

  /** The header checksum of the version the driver checked (unsigned), or -1 when unknown. */
  private long headerCrc = -1;

  /**
   * @param given the path as the user gave it (messages name it)
   * @param location {@link Ship#FILES}: the shipped name; {@link Ship#STAGE}: the qualified Hadoop
   *     URI; {@link Ship#LOCAL}: the absolute path
   * @param length bytes seen by the driver, or -1
   * @param modified modification time seen by the driver (ms), or -1
   */
  public SideFile(String given, Ship ship, String location, long length, long modified) {
    this.given = Objects.requireNonNull(given, "given");
    this.ship = Objects.requireNonNull(ship, "ship");
    this.location = Objects.requireNonNull(location, "location");
    this.length = length;
    this.modified = modified;
  }

  /** The path as the user gave it. */
  public String given() {
    return given;
  }

  public Ship ship() {
    return ship;
  }

  /** The shipped name, the Hadoop URI or the local path (see {@link Ship}). */
  public String location() {
    return location;
  }

  /** Bytes seen by the driver, or -1. */
  public long length() {
    return length;
  }

  /** Modification time seen by the driver in ms, or -1. */
  public long modified() {
    return modified;
  }

  /**
   * This file pinned to the version the driver checked ({@code header}): a task that loads another
   * version (the file was replaced while the job or query ran) fails naming the file ({@link
   * TaskSide#index}), so that one job or query answers from one version. Equality ignores it.
   */
  public SideFile pinned(IndexHeader header) {
    SideFile f = new SideFile(given, ship, location, length, modified);
    f.headerCrc = Integer.toUnsignedLong(header.headerCrc32c());
    return f;
  }

  /** The header checksum {@link #pinned} to (unsigned), or -1. */
  public long headerCrc() {
    return headerCrc;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SideFile)) {
      return false;
    }
    SideFile f = (SideFile) o;
    return ship == f.ship
        && location.equals(f.location)
        && length == f.length
        && modified == f.modified;
  }

  @Override
  public int hashCode() {
    return Objects.hash(ship, location, length, modified);
  }

  /** {@code files:ranges.spx}, {@code stage:hdfs://nn/idx/ranges.spx}, {@code local:/data/x}. */
  @Override
  public String toString() {
    return ship.optionName() + ":" + location;
  }
}
