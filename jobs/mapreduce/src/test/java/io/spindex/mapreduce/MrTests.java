/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;

/** LocalJobRunner configuration and output readers shared by the tests. */
final class MrTests {
  private MrTests() {}

  /** In-process MapReduce on the local file system, polling fast, staging under target/. */
  static Configuration local() {
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", "local");
    conf.set("fs.defaultFS", "file:///");
    conf.setInt("mapreduce.client.completion.pollinterval", 100);
    // Surefire runs in target/ (see the pom): staging and temp stay in the build directory.
    String target = Path.of("").toAbsolutePath().toString();
    conf.set("mapreduce.jobtracker.staging.root.dir", target + "/mr-staging");
    conf.set("hadoop.tmp.dir", target + "/hadoop-tmp");
    return conf;
  }

  /** Lines of every {@code part-*} file directly in {@code dir} (gzip-aware), in file order. */
  static List<String> readParts(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    List<Path> parts = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().forEach(parts::add);
    }
    for (Path p : parts) {
      try (InputStream raw = Files.newInputStream(p);
          InputStream in = p.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
        lines.addAll(read(in));
      }
    }
    return lines;
  }

  /** Lines of every {@code part-*} file directly under {@code dir} on any Hadoop file system. */
  static List<String> readParts(FileSystem fs, org.apache.hadoop.fs.Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (FileStatus st : fs.listStatus(dir)) {
      if (st.getPath().getName().startsWith("part-")) {
        try (InputStream in = fs.open(st.getPath())) {
          lines.addAll(read(in));
        }
      }
    }
    return lines;
  }

  private static List<String> read(InputStream in) throws IOException {
    List<String> lines = new ArrayList<>();
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    for (String line; (line = r.readLine()) != null; ) {
      lines.add(line);
    }
    return lines;
  }
}
