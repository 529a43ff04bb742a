/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import io.spindex.annotations.Internal;

/**
 * Receives what a download is doing. Methods are called from the download's worker threads, several
 * at once: implementations must be thread-safe and quick (no I/O that can block).
 */
@Internal
public interface FetchListener {
  /** A listener that ignores everything. */
  FetchListener NONE = new FetchListener() {};

  /**
   * The download starts (again, after a restart).
   *
   * @param totalBytes the content length, or -1 when the server did not say
   * @param resumedBytes bytes already in {@code FILE.part} from an earlier run, not fetched again
   */
  default void started(long totalBytes, long resumedBytes) {}

  /** {@code bytes} more bytes were written to {@code FILE.part}. */
  default void transferred(long bytes) {}

  /** Something a person should know: a retry, a resume, a restart because the content changed. */
  default void notice(String message) {}
}
