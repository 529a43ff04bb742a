/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.hadoop;

import io.spindex.annotations.Internal;
import io.spindex.job.LineTask;
import io.spindex.job.RecordSink;

/**
 * Whole lines of a split, as {@link LineChunkInputFormat} reads them: bytes {@code [0, length)} of
 * a buffer that starts at byte {@link #offset()} of its (decompressed) file, each line ended by LF
 * except perhaps the file's last. A view: the reader refills the same buffer for the next chunk.
 */
@Internal
public final class LineChunk {
  byte[] bytes = new byte[0];
  int length;
  long offset;

  /** The buffer; bytes {@code [0, length())} are this chunk's. */
  public byte[] bytes() {
    return bytes;
  }

  public int length() {
    return length;
  }

  /** Byte offset of {@code bytes()[0]} in the file. */
  public long offset() {
    return offset;
  }

  /** Hands the chunk's lines to {@code task} ({@link LineTask#lines}). */
  public void lines(LineTask task, RecordSink sink) {
    task.lines(bytes, 0, length, offset, sink);
  }
}
