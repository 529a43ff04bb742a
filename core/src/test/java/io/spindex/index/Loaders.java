/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Every binary loader strategy, for tests that must hold for all of them. */
public final class Loaders {
  private Loaders() {}

  public static List<IndexLoader> all() {
    List<IndexLoader> l = new ArrayList<>(List.of(Loader.values()));
    l.add(Loader.mappedUnchecked());
    return l;
  }

  /** For {@code @MethodSource}. */
  public static Stream<IndexLoader> stream() {
    return all().stream();
  }

  /**
   * Every loader that checks at open (all but {@code mappedUnchecked}) and {@code spindex verify}
   * refuse the file with exactly this message.
   */
  public static void rejectedAtOpen(Path file, String message) {
    for (IndexLoader l : Loader.values()) {
      CorruptIndexException e = assertThrows(CorruptIndexException.class, () -> l.load(file));
      assertEquals(message, e.getMessage(), l.loaderName());
    }
    CorruptIndexException e =
        assertThrows(CorruptIndexException.class, () -> IndexVerifier.verify(file));
    assertEquals(message, e.getMessage(), "verify");
  }
}
