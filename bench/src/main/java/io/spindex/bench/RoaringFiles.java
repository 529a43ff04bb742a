/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import io.spindex.index.IpSet;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.roaringbitmap.RoaringBitmap;

/** Writes the addresses of a Spindex set as a RoaringBitmap file (its portable serialization). */
final class RoaringFiles {
  private RoaringFiles() {}

  static Path write(IpSet set, Path out) throws IOException {
    int[] addresses = new int[set.size()];
    for (int i = 0; i < addresses.length; i++) {
      addresses[i] = set.address(i); // ascending unsigned order, as RoaringBitmap orders ints
    }
    RoaringBitmap rb = RoaringBitmap.bitmapOf(addresses);
    rb.runOptimize();
    try (DataOutputStream o =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(out), 1 << 20))) {
      rb.serialize(o);
    }
    return out;
  }
}
