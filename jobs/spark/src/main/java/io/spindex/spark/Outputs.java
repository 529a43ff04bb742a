/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Small driver-side writes next to a job's output (summaries, tables), on any Hadoop FS. */
final class Outputs {
  private Outputs() {}

  static void writeText(Configuration conf, String path, String text) throws IOException {
    Path p = new Path(path);
    FileSystem fs = p.getFileSystem(conf);
    try (OutputStream out = fs.create(p, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
