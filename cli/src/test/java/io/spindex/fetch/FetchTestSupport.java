/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/** Content, independent SHA-256 references and a recording listener for the fetch tests. */
final class FetchTestSupport {
  private FetchTestSupport() {}

  static byte[] content(int length, long seed) {
    byte[] b = new byte[length];
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < length; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }

  /** SHA-256 with MessageDigest over the whole array: independent of the code under test. */
  static String sha256(byte[] bytes) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(bytes);
      StringBuilder sb = new StringBuilder();
      for (byte x : d) {
        sb.append(String.format(Locale.ROOT, "%02x", x & 0xFF));
      }
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  static String sha256(Path file) throws IOException {
    return sha256(Files.readAllBytes(file));
  }

  /** Quick options for tests: short backoffs and timeouts. */
  static FetchOptions.Builder quick(Notes notes) {
    return FetchOptions.builder()
        .retryWait(Duration.ofMillis(5), Duration.ofMillis(20))
        .stallTimeout(Duration.ofSeconds(10))
        .listener(notes);
  }

  /** Records notices and the last progress state. */
  static final class Notes implements FetchListener {
    private final List<String> notices = new ArrayList<>();
    volatile long total = -2;
    volatile long resumed = -1;

    @Override
    public void started(long totalBytes, long resumedBytes) {
      total = totalBytes;
      resumed = resumedBytes;
    }

    @Override
    public synchronized void notice(String message) {
      notices.add(message);
    }

    synchronized List<String> notices() {
      return new ArrayList<>(notices);
    }

    synchronized boolean any(String part) {
      for (String n : notices) {
        if (n.contains(part)) {
          return true;
        }
      }
      return false;
    }
  }
}
