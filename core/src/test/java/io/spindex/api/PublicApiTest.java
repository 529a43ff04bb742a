/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.api;

import org.junit.jupiter.api.Test;

/**
 * The API of the core jar, against {@code public-api.txt}: the public classes not marked {@code
 * Internal}, without leaks ({@link PublicApi}).
 */
class PublicApiTest {
  @Test
  void thePublicClassesAreTheListedOnes() throws Exception {
    PublicApi.assertListed(io.spindex.Spindex.class, "/public-api.txt");
  }
}
