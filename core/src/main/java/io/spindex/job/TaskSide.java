/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexHeader;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.KeptVersions;
import io.spindex.index.load.Loader;
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
   * Told of every index version a task answers from, each time it asks for it; an engine may count
   * them (MapReduce: a counter per version), so that an output can be traced to its database.
   */
  default void answeredFrom(SideFile f, IndexHeader version) {}

  /**
   * The index {@code f}, loaded once per JVM with the loader {@code loader} names ({@link
   * Loader#forOption}); the load is reported to the engine by the task that made it. A file {@link
   * SideFile#pinned} to a version is read at that version, whatever the file is now ({@link
   * IndexHolder#acquire(Path, IndexLoader, int)}), so that one job, query or micro-batch never
   * answers from two versions.
   */
  default SpindexIndex index(SideFile f, String loader) throws IOException {
    IndexLoader l = Loader.forOption(loader);
    Path local = local(f);
    if (f.ship() != SideFile.Ship.LOCAL || !KeptVersions.publishedOf(local).equals(local)) {
      // The engine's own copy, or a version spindex update keeps (immutable): mapped as it is. A
      // user's file in place gets a snapshot.
      Loader.privateCopy(local);
    }
    IndexHolder.Acquired a =
        f.headerCrc() >= 0
            ? IndexHolder.acquire(
                local, l, KeptVersions.publishedOf(f.given()), (int) f.headerCrc())
            : IndexHolder.acquire(local, l);
    if (a.loadedByThisCall()) {
      loaded(a, loader);
    }
    answeredFrom(f, a.index().header());
    return a.index();
  }
}
