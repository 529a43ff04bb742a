/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.Loader;
import io.spindex.stage.StageException;
import io.spindex.stage.StageOptions;
import io.spindex.stage.StageResult;
import io.spindex.stage.StageSource;
import io.spindex.stage.Stager;
import io.spindex.text.Clip;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code spindex stage SRC DST}: verified, idempotent, concurrency-safe local copy. */
@Command(
    name = "stage",
    mixinStandardHelpOptions = true,
    description = {
      "Copy an index (or any file) to a local path the fastest way (FileChannel.transferTo),"
          + " verify the copy (an index: every section checksum), and rename it into place."
          + " Copies nothing when DST already holds the same content; safe when several"
          + " processes stage the same DST at once (lock file .DST.lock beside it)."
    })
final class StageCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "SRC", description = "Local file to copy.")
  Path source;

  @Parameters(
      index = "1",
      paramLabel = "DST",
      description = "Destination file, or an existing directory to copy into.")
  Path destination;

  @Option(
      names = "--check",
      paramLabel = "WHAT",
      defaultValue = "checksums",
      description =
          "checksums (index: header, every section CRC32C and the structural checks every"
              + " loader makes at open; other files: length), deep"
              + " (index only: everything 'spindex verify' checks) or size (default"
              + " ${DEFAULT-VALUE}).")
  String check;

  @Option(names = "--force", description = "Copy even if DST is already current.")
  boolean force;

  @Option(
      names = "--allow-empty",
      description =
          "Stage SRC even when it is empty (0 bytes, or an index with no entries); without it"
              + " such a SRC fails (exit 1) and DST stays as it was.")
  boolean allowEmpty;

  @Option(
      names = "--lock-timeout",
      paramLabel = "SECONDS",
      defaultValue = "600",
      description = "Wait this long for another process staging DST (default ${DEFAULT-VALUE}).")
  long lockTimeoutSeconds;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    StageOptions.Check what;
    try {
      what = StageOptions.Check.valueOf(check.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--check: unknown '" + check + "': expected checksums, deep or size");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!Files.isRegularFile(source)) {
      return FetchCommand.fail(
          err, source + (Files.exists(source) ? ": not a regular file" : ": no such file"));
    }
    Path dst =
        Files.isDirectory(destination) ? destination.resolve(source.getFileName()) : destination;
    String empty = allowEmpty ? null : empty(source);
    if (empty != null) {
      return FetchCommand.fail(
          err,
          Clip.of(source.toString(), 80)
              + ": "
              + empty
              + ", not staged to "
              + Clip.of(dst.toString(), 80)
              + (Files.exists(dst) ? " (left as it was" : " (")
              + (Files.exists(dst) ? "; " : "")
              + "--allow-empty stages it)");
    }
    StageResult r;
    try (Progress progress = new Progress("stage", Files.size(source))) {
      StageOptions options =
          StageOptions.defaults()
              .check(what)
              .force(force)
              .lockTimeout(Duration.ofSeconds(lockTimeoutSeconds))
              .progress(progress.counter()::add);
      r = Stager.stage(StageSource.local(source), dst, options);
    } catch (StageException | CorruptIndexException e) {
      return FetchCommand.fail(err, e.getMessage());
    } catch (NoSuchFileException e) {
      return FetchCommand.fail(err, e.getFile() + ": no such file");
    } catch (FileSystemException e) {
      return FetchCommand.fail(err, FetchCommand.describe(e));
    }
    out.println((r.copied() ? "staged " : "already staged ") + r.source() + " -> " + dst);
    out.print(r.format());
    out.flush();
    return 0;
  }

  /**
   * Why a source holds nothing worth replacing a file with: 0 bytes (a failed download), or an
   * index with no entries; null otherwise (any other file, an index that holds something).
   */
  static String empty(Path source) throws IOException {
    if (Files.size(source) == 0) {
      return "0 bytes";
    }
    try {
      IndexHeader h = Loader.readHeader(source);
      return h.rowCount() == 0 ? "an index with no entries" : null;
    } catch (CorruptIndexException e) {
      return null; // not an index (or a damaged one: the copy's check names it)
    }
  }
}
