/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The versions of an index that {@code spindex update} keeps beside the file it publishes: {@code
 * OUT.spx} is the current version, and {@code OUT.spx.versions/} holds the last few versions as
 * immutable files named {@code yyyyMMdd'T'HHmmss'Z'-CRC.spx} (UTC publication time, then the header
 * checksum as 8 hex digits), the current one among them. A reader that must answer from one version
 * while the file is replaced (a job, a query, a micro-batch) finds it here by its header checksum.
 * Naming only: no file is written by this class.
 */
@Internal
public final class KeptVersions {
  /** The directory's suffix: {@code OUT.spx} keeps its versions in {@code OUT.spx.versions}. */
  public static final String SUFFIX = ".versions";

  private static final Pattern NAME = Pattern.compile("(\\d{8}T\\d{6}Z)-([0-9a-f]{8})\\.spx");
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private KeptVersions() {}

  /** {@code OUT.spx.versions} beside {@code published}. */
  public static Path dir(Path published) {
    Path abs = published.toAbsolutePath().normalize();
    return abs.resolveSibling(abs.getFileName() + SUFFIX);
  }

  /**
   * The published file a kept version belongs to ({@code OUT.spx} for {@code
   * OUT.spx.versions/T-CRC.spx}); any other path is its own.
   */
  public static Path publishedOf(Path file) {
    Path abs = file.toAbsolutePath().normalize();
    Path parent = abs.getParent();
    if (parent == null
        || !NAME.matcher(abs.getFileName().toString()).matches()
        || !parent.getFileName().toString().endsWith(SUFFIX)) {
      return abs;
    }
    String name = parent.getFileName().toString();
    return parent.resolveSibling(name.substring(0, name.length() - SUFFIX.length()));
  }

  /**
   * {@link #publishedOf(Path)} for a path or URI as text ({@code
   * hdfs://nn/geo.spx.versions/T-CRC.spx} gives {@code hdfs://nn/geo.spx}).
   */
  public static String publishedOf(String path) {
    int slash = path.lastIndexOf('/');
    String name = path.substring(slash + 1);
    String parent = slash < 0 ? "" : path.substring(0, slash);
    if (!NAME.matcher(name).matches() || !parent.endsWith(SUFFIX)) {
      return path;
    }
    return parent.substring(0, parent.length() - SUFFIX.length());
  }

  /** The file name of a version published at {@code when} with header checksum {@code crc}. */
  public static String fileName(Instant when, int crc) {
    return STAMP.format(when) + "-" + String.format(Locale.ROOT, "%08x", crc) + ".spx";
  }

  /** The header checksum a version's file name gives, or {@code null} for another name. */
  public static Integer crcOf(String fileName) {
    Matcher m = NAME.matcher(fileName);
    return m.matches() ? Integer.valueOf((int) Long.parseLong(m.group(2), 16)) : null;
  }

  /** The publication time a version's file name gives, or {@code null} for another name. */
  public static Instant timeOf(String fileName) {
    Matcher m = NAME.matcher(fileName);
    return m.matches() ? Instant.from(STAMP.parse(m.group(1))) : null;
  }

  /** The kept versions of {@code published}, oldest first; empty when none are kept. */
  public static List<Path> list(Path published) throws IOException {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> d = Files.newDirectoryStream(dir(published), "*.spx")) {
      for (Path p : d) {
        if (NAME.matcher(p.getFileName().toString()).matches()) {
          out.add(p);
        }
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return Collections.emptyList();
    }
    out.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
    return out;
  }

  /**
   * The kept version of {@code published} whose header checksum is {@code crc}, or {@code null}
   * when none is kept (the newest when several are: the same content published twice).
   */
  public static Path find(Path published, int crc) throws IOException {
    List<Path> all = list(published);
    for (int i = all.size() - 1; i >= 0; i--) {
      Integer c = crcOf(all.get(i).getFileName().toString());
      if (c != null && c == crc) {
        return all.get(i);
      }
    }
    return null;
  }
}
