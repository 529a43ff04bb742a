/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

/**
 * The small state file beside {@code FILE.part} that makes a range download resumable: the URL, the
 * server's validator, and the byte ranges still missing. Written as a properties file (a temporary
 * file renamed over the old one, so it is never half-written), only after the bytes it counts as
 * done have been forced to {@code FILE.part}. Immutable.
 */
final class PartState {
  private static final String FORMAT = "spindex-fetch-state-1";

  final String url;
  final Validator validator;

  /**
   * Missing ranges as {start, end (exclusive)}, in file order, with a kept byte between any two:
   * adjacent ranges are merged.
   */
  final List<long[]> missing;

  /**
   * @param missing ranges {start, end} in file order, not overlapping; adjacent ones are merged
   *     (the pieces of a range download adjoin, and a piece that got no bytes leaves its whole
   *     range)
   */
  PartState(String url, Validator validator, List<long[]> missing) {
    this.url = url;
    this.validator = validator;
    this.missing = Collections.unmodifiableList(merged(missing));
  }

  private static List<long[]> merged(List<long[]> ranges) {
    List<long[]> m = new ArrayList<>();
    for (long[] r : ranges) {
      long[] last = m.isEmpty() ? null : m.get(m.size() - 1);
      if (last != null && last[1] == r[0]) {
        last[1] = r[1];
      } else {
        m.add(new long[] {r[0], r[1]});
      }
    }
    return m;
  }

  long missingBytes() {
    long n = 0;
    for (long[] r : missing) {
      n += r[1] - r[0];
    }
    return n;
  }

  /**
   * The end of the last byte the state counts as kept: FILE.part must be at least this long. With
   * adjacent missing ranges merged, that is the start of the last one when it reaches the end.
   */
  long keptEnd() {
    if (missing.isEmpty()) {
      return validator.length;
    }
    long[] last = missing.get(missing.size() - 1);
    return last[1] == validator.length ? last[0] : validator.length;
  }

  /**
   * Reads a state file; null when there is none, or when it is unreadable or malformed (then the
   * download starts over, which is always safe).
   */
  static PartState load(Path file) {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
    try {
      if (!FORMAT.equals(p.getProperty("format"))) {
        return null;
      }
      long length = Long.parseLong(p.getProperty("length"));
      List<long[]> missing = new ArrayList<>();
      String m = p.getProperty("missing", "").trim();
      long last = 0;
      for (String range : m.isEmpty() ? new String[0] : m.split(",")) {
        String[] se = range.split("-");
        long s = Long.parseLong(se[0]);
        long e = Long.parseLong(se[1]);
        if (s < last || e <= s || e > length) {
          return null;
        }
        missing.add(new long[] {s, e});
        last = e;
      }
      Validator v = new Validator(p.getProperty("etag"), p.getProperty("lastModified"), length);
      String url = p.getProperty("url");
      return url == null ? null : new PartState(url, v, missing);
    } catch (RuntimeException e) {
      return null;
    }
  }

  void save(Path file) throws IOException {
    Properties p = new Properties();
    p.setProperty("format", FORMAT);
    p.setProperty("url", url);
    p.setProperty("length", Long.toString(validator.length));
    if (validator.etag != null) {
      p.setProperty("etag", validator.etag);
    }
    if (validator.lastModified != null) {
      p.setProperty("lastModified", validator.lastModified);
    }
    StringBuilder sb = new StringBuilder();
    for (long[] r : missing) {
      sb.append(sb.length() > 0 ? "," : "").append(r[0]).append('-').append(r[1]);
    }
    p.setProperty("missing", sb.toString());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (OutputStream out = Files.newOutputStream(tmp)) {
      p.store(out, "spindex fetch: resume state of the .part file beside it");
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
