/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexHolder;
import io.spindex.index.IndexLoader;
import io.spindex.index.Loader;
import io.spindex.index.SpindexIndex;
import io.spindex.text.InputException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What a {@link LineTask} asks of the engine where it runs (a Spark task, a map task): the name of
 * its input, the local copy of a side file, and where to report an index load. Each engine has one
 * implementation.
 */
@Internal
public interface TaskSide {
  /** The split's file as rejects name it (a qualified path). */
  String source();

  /** The local file for {@code f}: a shipped file, a per-JVM staged copy, or the path itself. */
  Path local(SideFile f) throws IOException;

  /** Reports a load this task made (the first acquire of an index in this JVM). */
  void loaded(IndexHolder.Acquired acquired, String loader);

  /**
   * The index {@code f}, loaded once per JVM with the loader {@code loader} names ({@link
   * Loader#forOption}); the load is reported to the engine by the task that made it. A file {@link
   * SideFile#pinned} to a version must still be that version: else an {@link InputException} naming
   * it, so that one job or query never answers from two versions.
   */
  default SpindexIndex index(SideFile f, String loader) throws IOException {
    IndexLoader l = Loader.forOption(loader);
    Path local = local(f);
    if (f.ship() != SideFile.Ship.LOCAL) {
      // The engine's own copy: mapped as it is (a user's file in place gets a snapshot).
      Loader.privateCopy(local);
    }
    IndexHolder.Acquired a = IndexHolder.acquire(local, l);
    if (a.loadedByThisCall()) {
      loaded(a, loader);
    }
    long found = Integer.toUnsignedLong(a.index().header().headerCrc32c());
    if (f.headerCrc() >= 0 && found != f.headerCrc()) {
      throw new InputException(
          String.format(
              "%s: changed while in use: the job started on the version with header checksum %08x,"
                  + " this task found %08x; replace indexes by renaming, between jobs or queries",
              f.given(), f.headerCrc(), found));
    }
    return a.index();
  }
}
