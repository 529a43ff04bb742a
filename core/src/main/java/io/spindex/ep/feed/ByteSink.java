/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep.feed;

import io.spindex.annotations.Internal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte buffer that output rows are written into. Not thread-safe. */
@Internal
public final class ByteSink implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  public byte[] buf;
  public int len;

  public ByteSink(int capacity) {
    buf = new byte[Math.max(16, capacity)];
  }

  /** Shrinks the buffer to what it holds. */
  public void trim() {
    buf = Arrays.copyOf(buf, len);
  }

  /** Makes room for {@code n} more bytes. */
  public void ensure(int n) {
    if (len + n > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
    }
  }

  public void write(byte[] b, int from, int to) {
    int n = to - from;
    ensure(n);
    System.arraycopy(b, from, buf, len, n);
    len += n;
  }

  public void write(byte b) {
    ensure(1);
    buf[len++] = b;
  }

  public void write(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    write(b, 0, b.length);
  }

  /** The bytes written so far are {@code array()[0, length())}. */
  public byte[] array() {
    return buf;
  }

  public int length() {
    return len;
  }

  public void clear() {
    len = 0;
  }

  /** A copy of the bytes written. */
  public byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }
}
