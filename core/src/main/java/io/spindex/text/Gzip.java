/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import io.spindex.annotations.Internal;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Gzip input, recognised by content: a file whose first two bytes are gzip's magic number ({@code
 * 1f 8b}) is read decompressed whatever its name, and one without them is read as it is even when
 * its name ends in {@code .gz} (a download saved under another name, a {@code .gz} that is plain
 * text). Text never starts with {@code 1f 8b}: 0x1f is a control character and 0x8b no UTF-8 start
 * byte. Stateless.
 */
@Internal
public final class Gzip {
  private static final int BUFFER = 1 << 16;

  private Gzip() {}

  /** Whether {@code file} starts with the gzip magic number {@code 1f 8b}. */
  public static boolean is(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return in.read() == 0x1f && in.read() == 0x8b;
    }
  }

  /** The content of {@code file}: decompressed when it is gzip ({@link #is}), else as stored. */
  public static InputStream open(Path file) throws IOException {
    InputStream raw = new BufferedInputStream(Files.newInputStream(file), BUFFER);
    if (!is(file)) {
      return raw;
    }
    try {
      return new GZIPInputStream(raw, BUFFER);
    } catch (IOException e) {
      raw.close();
      throw incomplete(file.toString(), e);
    }
  }

  /**
   * What a gzip file that ends too early or holds damaged data says, for every reader of one:
   * {@code FILE: not a complete gzip file (Unexpected end of ZLIB input stream)}.
   */
  public static InputException incomplete(String file, IOException e) {
    String why =
        e.getMessage() != null
            ? e.getMessage()
            : e instanceof java.io.EOFException
                ? "it ends too early"
                : e.getClass().getSimpleName();
    return new InputException(file + ": not a complete gzip file (" + Clip.of(why) + ")");
  }
}
