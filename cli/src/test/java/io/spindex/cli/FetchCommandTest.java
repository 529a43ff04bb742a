/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** The fetch command's small parsers. */
class FetchCommandTest {
  @Test
  void sizes() {
    assertEquals(123, FetchCommand.parseSize("123"));
    assertEquals(500L << 20, FetchCommand.parseSize("500M"));
    assertEquals(64L << 30, FetchCommand.parseSize("64g"));
    assertEquals(2L << 40, FetchCommand.parseSize("2T"));
    assertEquals(1024, FetchCommand.parseSize("1K"));
    for (String bad : new String[] {"", "M", "-1", "1.5G", "9999999999T", "12Q"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> FetchCommand.parseSize(bad), bad);
      assertEquals(
          "--max-size: not a size: '" + bad + "' (expected e.g. 1048576, 500M, 64G)",
          e.getMessage());
    }
  }

  @Test
  void defaultFileName() {
    assertEquals("ips.txt.gz", FetchCommand.defaultName(URI.create("https://h/data/ips.txt.gz")));
    assertEquals("a b.tsv", FetchCommand.defaultName(URI.create("http://h/x/a%20b.tsv?x=1")));
    assertEquals("download", FetchCommand.defaultName(URI.create("http://h/")));
    assertEquals("download", FetchCommand.defaultName(URI.create("http://h")));
    assertEquals("download", FetchCommand.defaultName(URI.create("http://h/a/..")));
    assertEquals("download", FetchCommand.defaultName(URI.create("http://h/a%2Fb")));
  }
}
