/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.arch.PackageCycles;
import org.junit.jupiter.api.Test;

/** This module's main code has no package cycle ({@link PackageCycles}). */
class PackageCyclesTest {
  @Test
  void noPackageCycles() {
    PackageCycles.assertNone(SpindexCli.class);
  }
}
