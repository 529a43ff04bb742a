/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Temporary-file-and-rename, the way every Spindex output is written: the temporary file lies
 * beside the target (same file system, so the rename is atomic), its name starts with a dot and
 * ends in {@code .tmp}, and nothing reads it.
 */
@Internal
public final class AtomicFiles {
  private AtomicFiles() {}

  /**
   * Creates the temporary file for {@code target}. Readable by all like an ordinary new file
   * ({@code rw-r--r--}; {@link Files#createTempFile} alone gives {@code rw-------}, which breaks
   * indexes meant for other users, e.g. executors running as another account).
   */
  public static Path createTemp(Path target) throws IOException {
    Path abs = target.toAbsolutePath();
    Files.createDirectories(abs.getParent());
    Path tmp;
    try {
      tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName() + ".", ".tmp");
    } catch (java.nio.file.FileSystemException e) {
      // The failure names the temporary file, which the user never named: name the target.
      throw new java.nio.file.FileSystemException(
          target.toString(),
          null,
          "cannot create a file in " + abs.getParent() + " (" + why(e) + ")");
    }
    try {
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: the default permissions are all there is.
    }
    return tmp;
  }

  private static String why(java.nio.file.FileSystemException e) {
    if (e.getReason() != null) {
      return e.getReason();
    }
    return e instanceof java.nio.file.NoSuchFileException
        ? "No such file or directory"
        : e instanceof java.nio.file.AccessDeniedException
            ? "Permission denied"
            : e.getClass().getSimpleName();
  }

  /** Renames {@code tmp} over {@code target} atomically. */
  public static void commit(Path tmp, Path target) throws IOException {
    Files.move(
        tmp,
        target.toAbsolutePath(),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }
}
