/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.arch;

import org.junit.jupiter.api.Test;

/** The core's main code has no package cycle ({@link PackageCycles}). */
class PackageCyclesTest {
  @Test
  void noPackageCycles() {
    PackageCycles.assertNone(io.spindex.Spindex.class);
  }
}
