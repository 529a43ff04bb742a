/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.build.InputException;
import io.spindex.ep.EpHeader;
import io.spindex.ep.EpSplitLines;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;

/** Driver-side file work of the EP jobs: the input's header, the single-file merge. */
final class EpSparkIo {
  private EpSparkIo() {}

  /** The input files of a path or glob, in name order (as Hadoop lists them). */
  static List<FileStatus> files(Configuration conf, String input) throws IOException {
    Path p = new Path(input);
    FileSystem fs = p.getFileSystem(conf);
    FileStatus[] st = fs.globStatus(p);
    List<FileStatus> out = new ArrayList<>();
    if (st != null) {
      for (FileStatus s : st) {
        if (s.isDirectory()) {
          for (FileStatus c : fs.listStatus(s.getPath())) {
            String n = c.getPath().getName();
            if (c.isFile() && !n.startsWith("_") && !n.startsWith(".")) {
              out.add(c);
            }
          }
        } else {
          out.add(s);
        }
      }
    }
    out.sort((a, b) -> a.getPath().toString().compareTo(b.getPath().toString()));
    if (out.isEmpty()) {
      throw new InputException(input + ": no input files");
    }
    return out;
  }

  /** The header (first line) of {@code file}, decompressed when its codec is known. */
  static EpHeader header(Configuration conf, Path file) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(file);
    try (InputStream raw = fs.open(file);
        InputStream in = codec == null ? raw : codec.createInputStream(raw)) {
      return EpSplitLines.readHeader(in, file.toString());
    }
  }

  /**
   * The {@code --single-file} merge: writes {@code header} and then the part files of {@code dir}
   * whose names start with one of {@code prefixes} (in that order, each group in name order) into
   * {@code dir/name}, then deletes those parts. Parts hold rows only, no header.
   */
  static Path mergeParts(
      Configuration conf, String dir, byte[] header, String name, String... prefixes)
      throws IOException {
    Path d = new Path(dir);
    FileSystem fs = d.getFileSystem(conf);
    List<Path> parts = new ArrayList<>();
    for (String prefix : prefixes) {
      FileStatus[] st = fs.listStatus(d, p -> p.getName().startsWith(prefix));
      Arrays.sort(st, (a, b) -> a.getPath().getName().compareTo(b.getPath().getName()));
      for (FileStatus s : st) {
        parts.add(s.getPath());
      }
    }
    Path target = new Path(d, name);
    byte[] buf = new byte[1 << 16];
    try (OutputStream out = fs.create(target, false)) {
      out.write(header);
      for (Path p : parts) {
        try (InputStream in = fs.open(p)) {
          int n;
          while ((n = in.read(buf)) > 0) {
            out.write(buf, 0, n);
          }
        }
      }
    }
    for (Path p : parts) {
      fs.delete(p, false);
    }
    return target;
  }
}
