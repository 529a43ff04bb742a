/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.KeptVersions;
import io.spindex.index.load.Loader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One job or query answers from one version of an index: the driver pins the side file to the
 * version it checked, and a task that finds another (the file was replaced by rename while the job
 * ran) answers from the pinned version still, held in its JVM or read from the copy {@code spindex
 * update} keeps; only when neither has it does the task fail, naming the file, instead of answering
 * some rows from each.
 */
class PinnedVersionTest {
  @TempDir Path dir;

  @AfterEach
  void clear() {
    IndexHolder.clear();
  }

  private Path build(String name, String label) throws IOException {
    Path text =
        Files.write(
            dir.resolve(name + ".txt"),
            ("1.0.0.0|1.0.0.255|" + label + "\n").getBytes(StandardCharsets.UTF_8));
    Path out = dir.resolve(name + ".spx");
    new IpRangeBuilder().build(List.of(text), out);
    return out;
  }

  /** A task side over local paths, as on one machine. */
  private static final class Local implements TaskSide {
    @Override
    public String source() {
      return "test";
    }

    @Override
    public Path local(SideFile f) {
      return Path.of(f.location());
    }

    @Override
    public void loaded(IndexHolder.Acquired acquired, String loader) {}
  }

  @Test
  void aPinnedTaskAnswersFromItsVersionWhateverTheFileIsNow() throws IOException {
    Path live = build("live", "v1");
    Path next = build("next", "v2");
    IndexHeader checked = Loader.readHeader(live);
    SideFile pinned =
        new SideFile("live.spx", SideFile.Ship.LOCAL, live.toString(), -1, -1).pinned(checked);
    assertEquals("v1", new Local().index(pinned, "nio").asRanges().label(0x01000001));

    Files.move(next, live, StandardCopyOption.REPLACE_EXISTING); // replaced by rename mid-job
    assertEquals(
        "v1",
        new Local().index(pinned, "nio").asRanges().label(0x01000001),
        "a task of the same job, in a JVM that holds the version, answers from it");
    SideFile unpinned = new SideFile("live.spx", SideFile.Ship.LOCAL, live.toString(), -1, -1);
    assertEquals(
        "v2",
        new Local().index(unpinned, "nio").asRanges().label(0x01000001),
        "the next job, pinned to nothing (or to the new version), answers from it");
    assertEquals("v1", new Local().index(pinned, "nio").asRanges().label(0x01000001));
  }

  @Test
  void aJvmWithoutTheVersionReadsItsKeptCopyOrFailsNamingTheFile() throws IOException {
    Path live = build("live", "v1");
    IndexHeader checked = Loader.readHeader(live);
    SideFile pinned =
        new SideFile("live.spx", SideFile.Ship.LOCAL, live.toString(), -1, -1).pinned(checked);
    Path next = build("next", "v2");
    Path kept = Files.createDirectories(KeptVersions.dir(live));
    Files.copy(live, kept.resolve(KeptVersions.fileName(Instant.now(), checked.headerCrc32c())));
    Files.move(next, live, StandardCopyOption.REPLACE_EXISTING);

    // A new executor (nothing held) that starts after the rename: the kept copy answers.
    assertEquals("v1", new Local().index(pinned, "nio").asRanges().label(0x01000001));

    IndexHolder.clear();
    deleteRecursively(kept);
    CorruptIndexException e =
        assertThrows(CorruptIndexException.class, () -> new Local().index(pinned, "nio"));
    assertTrue(
        e.getMessage()
            .startsWith(
                live.toAbsolutePath()
                    + String.format(
                        ": changed while in use: the job started on the version with header"
                            + " checksum %08x, this task found ",
                        checked.headerCrc32c())),
        e.getMessage());
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (java.util.stream.Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }
}
