/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads through mapped windows give the file's bytes, whatever the window and read sizes. */
class MappedFileChannelTest {
  @TempDir Path dir;

  @Test
  void readsTheFileFromItsPositionAcrossWindows() throws Exception {
    SplittableRandom r = new SplittableRandom(3);
    byte[] data = new byte[100_003];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) r.nextInt(256);
    }
    Path f = dir.resolve("f");
    Files.write(f, data);
    for (int window : new int[] {1, 7, 4096, 65_536, 1 << 20}) {
      for (int start : new int[] {0, 1, 4095, 99_999}) {
        try (FileChannel ch = FileChannel.open(f)) {
          ch.position(start);
          MappedFileChannel m = new MappedFileChannel(ch, window);
          ByteArrayOutputStream got = new ByteArrayOutputStream();
          while (true) {
            ByteBuffer b = ByteBuffer.allocate(1 + r.nextInt(30_000));
            b.position(r.nextInt(b.capacity()));
            int want = b.remaining();
            int n = m.read(b);
            if (n < 0) {
              break;
            }
            // A read fills the buffer unless the file ends first.
            assertEquals(Math.min(want, data.length - start - got.size()), n);
            got.write(b.array(), b.position() - n, n);
          }
          assertArrayEquals(
              Arrays.copyOfRange(data, start, data.length),
              got.toByteArray(),
              "window " + window + ", start " + start);
          assertEquals(-1, m.read(ByteBuffer.allocate(1)));
        }
      }
    }
  }

  @Test
  void readAfterCloseFails() throws Exception {
    Path f = dir.resolve("g");
    Files.write(f, new byte[] {1, 2, 3});
    MappedFileChannel m = new MappedFileChannel(FileChannel.open(f));
    m.close();
    assertThrows(ClosedChannelException.class, () -> m.read(ByteBuffer.allocate(1)));
  }
}
