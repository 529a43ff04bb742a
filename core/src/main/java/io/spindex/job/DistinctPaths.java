/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Refuses, before anything is written, an output that is the same file as an input or as another
 * output: writing it would destroy the input (or one output would overwrite the other). Files are
 * compared by identity ({@link Files#isSameFile}: symbolic and hard links, {@code ./x} and {@code
 * x} included) when both exist, else by their real directory and name. Also refuses an output whose
 * directory does not exist: no command creates one (a mistyped path, or a volume that is not
 * mounted, would silently get a new directory tree).
 */
@Internal
public final class DistinctPaths {
  private final Map<String, Path> inputs = new LinkedHashMap<>();
  private final Map<String, Path> outputs = new LinkedHashMap<>();

  public DistinctPaths input(String what, Path p) {
    if (p != null) {
      inputs.put(what + " " + p, p);
    }
    return this;
  }

  public DistinctPaths inputs(List<Path> ps) {
    for (Path p : ps) {
      input("input", p);
    }
    return this;
  }

  public DistinctPaths output(String what, Path p) {
    if (p != null) {
      outputs.put(what + " " + p, p);
    }
    return this;
  }

  /**
   * @throws IllegalArgumentException (a usage error, exit 2) naming both paths, or an output that
   *     is a directory
   * @throws java.nio.file.FileSystemException (exit 1) for an output whose directory does not
   *     exist: outputs are written into existing directories only
   */
  public void check() throws IOException {
    List<Map.Entry<String, Path>> outs = new ArrayList<>(outputs.entrySet());
    for (int i = 0; i < outs.size(); i++) {
      Map.Entry<String, Path> o = outs.get(i);
      Path dir = o.getValue().toAbsolutePath().getParent();
      if (dir != null && !Files.isDirectory(dir)) {
        // A typo, or a volume not mounted: creating the directories would hide it.
        throw new java.nio.file.FileSystemException(
            o.getKey(),
            null,
            Files.exists(dir)
                ? dir + " is not a directory"
                : "no directory " + dir + " (Spindex creates none: create it first)");
      }
      if (Files.isDirectory(o.getValue())) {
        throw new IllegalArgumentException(o.getKey() + " is a directory: name a file to write");
      }
      for (Map.Entry<String, Path> in : inputs.entrySet()) {
        if (same(o.getValue(), in.getValue())) {
          throw new IllegalArgumentException(
              o.getKey() + " is the same file as " + in.getKey() + ": it would be overwritten");
        }
      }
      for (int j = 0; j < i; j++) {
        if (same(o.getValue(), outs.get(j).getValue())) {
          throw new IllegalArgumentException(
              o.getKey() + " is the same file as " + outs.get(j).getKey());
        }
      }
    }
  }

  static boolean same(Path a, Path b) throws IOException {
    if (Files.exists(a) && Files.exists(b)) {
      return Files.isSameFile(a, b);
    }
    return resolved(a).equals(resolved(b));
  }

  /** The path with its existing directory resolved to its real path (links followed). */
  private static Path resolved(Path p) throws IOException {
    Path abs = p.toAbsolutePath().normalize();
    Path dir = abs.getParent();
    if (dir != null && Files.isDirectory(dir)) {
      return dir.toRealPath().resolve(abs.getFileName());
    }
    return abs;
  }
}
