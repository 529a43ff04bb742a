/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.index.IndexHeader;
import io.spindex.index.IndexVerifier;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code spindex verify}: the deep check; exit 1 with the first problem found. */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = {
      "Deep-check index files: header, bounds, every checksum, keys sorted and unique, ranges"
          + " sorted and non-overlapping, label ids and offsets in bounds, the prefix table."
    })
final class VerifyCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "INDEX", description = "Index files.")
  List<Path> files;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    for (Path f : files) {
      IndexHeader h = IndexVerifier.verify(f);
      spec.commandLine()
          .getOut()
          .printf(
              Locale.ROOT,
              "%s: ok (%s, %,d rows, %,d bytes)%n",
              f,
              h.kind(),
              h.rowCount(),
              h.fileLength());
    }
    spec.commandLine().getOut().flush();
    return 0;
  }
}
