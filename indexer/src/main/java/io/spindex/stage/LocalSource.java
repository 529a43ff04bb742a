/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.stage;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/** A file on a local file system. Immutable and thread-safe. */
final class LocalSource implements StageSource {
  private final Path file;
  private final CopyMethod method;

  LocalSource(Path file, CopyMethod method) {
    this.file = file.toAbsolutePath().normalize();
    this.method = method;
  }

  @Override
  public String name() {
    return file.toString();
  }

  @Override
  public long length() throws IOException {
    return Files.size(file);
  }

  @Override
  public long lastModifiedMillis() throws IOException {
    return Files.getLastModifiedTime(file).toMillis();
  }

  @Override
  public InputStream open() throws IOException {
    return Files.newInputStream(file);
  }

  @Override
  public long copyTo(Path target, LongConsumer progress) throws IOException {
    return method.copy(file, target, progress);
  }
}
