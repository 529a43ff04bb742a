/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import io.spindex.annotations.Internal;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.Invariants;
import io.spindex.index.SectionSource;
import io.spindex.index.SpindexIndex;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The checks behind {@code spindex verify}: everything the loaders check at open (header, bounds,
 * every checksum), through the loaders, and then the {@link Invariants} lookups rely on: keys
 * strictly ascending, rows of ranges with starts strictly ascending and gap rows where a gap can
 * be, label ids and offsets within the dictionary, product id hashes strictly ascending and equal
 * to the hashes of the stored ids, the prefix tables equal to the ones the keys imply, and zero
 * padding between sections. Reads through a mapping, so it needs no heap for the data.
 */
@Internal
public final class IndexVerifier {
  private IndexVerifier() {}

  /**
   * Checks what every loader checks at open: the header, every section's CRC32C and the structural
   * checks (label ids within the dictionary, offsets in order, sub-tables within their sections),
   * over a read-only mapping of the file that nothing keeps (the garbage collector unmaps it). A
   * file that passes is one every loader opens; {@link #verify} checks everything else (order,
   * uniqueness, padding).
   *
   * @return the header of the file
   * @throws CorruptIndexException naming the file, section, offset, expected and found
   */
  public static IndexHeader checksums(Path file) throws IOException {
    return checksums(file, null);
  }

  /**
   * {@link #checksums(Path)} of a copy of a file: messages name {@code shownAs} (the user's path),
   * not the copy ({@code null}: the file itself). The copy must be one nothing writes in place.
   */
  public static IndexHeader checksums(Path file, String shownAs) throws IOException {
    try (FileChannel ch = Loader.open(file)) {
      IndexHeader h = Loader.readHeader(ch, file);
      return SectionSource.assemble(h, "verify", new MapSource(h, ch, true)).header();
    } catch (CorruptIndexException e) {
      throw shown(e, file, shownAs);
    }
  }

  /**
   * The same checks of a user's file, which may be written in place while it is checked: through
   * the {@code mapped} loader's private snapshot of it ({@link Snapshots}), never a mapping of the
   * file itself, so that no fault of a changed file reaches the JVM (the snapshot is the one a
   * local executor then maps). Messages name {@code shownAs}.
   */
  public static IndexHeader opened(Path file, String shownAs) throws IOException {
    try {
      return Loader.MAPPED.load(file).header();
    } catch (CorruptIndexException e) {
      throw shown(e, file, shownAs);
    }
  }

  private static CorruptIndexException shown(CorruptIndexException e, Path file, String shownAs) {
    String prefix = file + ": ";
    if (shownAs == null || !e.getMessage().startsWith(prefix)) {
      return e;
    }
    return new CorruptIndexException(shownAs + ": " + e.getMessage().substring(prefix.length()));
  }

  /**
   * Verifies {@code file}: what every loader checks at open, then the {@link Invariants}.
   *
   * @return the header of the valid index
   * @throws CorruptIndexException naming the file, section, offset, expected and found
   */
  public static IndexHeader verify(Path file) throws IOException {
    SpindexIndex index = Loader.MAPPED.load(file);
    Invariants.check(index);
    return index.header();
  }
}
