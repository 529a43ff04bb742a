/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.index.IndexHeader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.text.Clip;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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

  /** Checks every file given, reporting each; exit 1 when any is not a valid index. */
  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int bad = 0;
    for (Path f : files) {
      try {
        if (Files.isDirectory(f)) {
          throw new IOException(f + ": a directory, not an index file");
        }
        IndexHeader h = IndexVerifier.verify(f);
        out.printf(
            Locale.ROOT,
            "%s: ok (%s, %,d rows, %,d bytes)%n",
            f,
            h.kind().displayName(),
            h.rowCount(),
            h.fileLength());
      } catch (NoSuchFileException e) {
        bad++;
        err.println(Clip.message("spindex: " + f + ": no such file"));
      } catch (IOException e) {
        bad++;
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        err.println(Clip.message("spindex: " + (m.startsWith(f.toString()) ? m : f + ": " + m)));
      }
      out.flush();
      err.flush();
    }
    if (bad > 0 && files.size() > 1) {
      err.println("spindex: " + bad + " of " + files.size() + " files are not valid indexes");
      err.flush();
    }
    return bad == 0 ? 0 : SpindexCli.EXIT_FAILURE;
  }
}
