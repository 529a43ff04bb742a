/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.hadoop;

import io.spindex.annotations.Internal;
import io.spindex.ep.feed.EpHeader;
import io.spindex.ep.feed.EpSplitLines;
import io.spindex.job.LineJob;
import io.spindex.lookup.Report;
import io.spindex.text.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * The Hadoop file work both engines do around a job, on any Hadoop file system: naming a split's
 * file, listing inputs, reading a header through the file's codec, merging count and part files,
 * writing the summary. Stateless.
 */
@Internal
public final class HadoopIo {
  /** The summary every job writes next to its output. */
  public static final String SUMMARY = "_summary.json";

  private HadoopIo() {}

  /** The file a split reads, as rejects name it (its qualified path). */
  public static String splitName(InputSplit split) {
    return split instanceof FileSplit ? ((FileSplit) split).getPath().toString() : split.toString();
  }

  /**
   * The input files of a path or glob, in name order, as the input formats list them: a directory
   * stands for its files, less the hidden ones ({@code _}, {@code .}).
   *
   * @throws InputException when nothing matches, and for a directory inside an input directory (the
   *     input formats read one level: name the files, or a glob that matches them)
   */
  public static List<FileStatus> inputFiles(Configuration conf, String input) throws IOException {
    List<FileStatus> out = new ArrayList<>();
    for (String one : input.split(",")) {
      Path p = new Path(one);
      FileSystem fs = p.getFileSystem(conf);
      FileStatus[] st = fs.globStatus(p);
      for (FileStatus s : st == null ? new FileStatus[0] : st) {
        if (s.isDirectory()) {
          for (FileStatus c : fs.listStatus(s.getPath())) {
            String n = c.getPath().getName();
            if (n.startsWith("_") || n.startsWith(".")) {
              continue;
            }
            if (!c.isFile()) {
              throw new InputException(
                  shown(c.getPath())
                      + ": a directory inside the input directory "
                      + shown(s.getPath())
                      + " (an input directory stands for its files, one level: name the files,"
                      + " or a glob such as "
                      + shown(new Path(s.getPath(), "*/*"))
                      + ")");
            }
            out.add(c);
          }
        } else {
          out.add(s);
        }
      }
    }
    out.sort((a, b) -> a.getPath().toString().compareTo(b.getPath().toString()));
    if (out.isEmpty()) {
      throw new InputException(input + ": no input files (nothing matches)");
    }
    return out;
  }

  /**
   * Removes the output directory of a job that failed: it did not exist when the job started
   * ({@link #requireNoOutput}), so what is there is the failed run's, and a rerun must not find it.
   */
  public static void removeFailedOutput(Configuration conf, String output) {
    try {
      Path out = new Path(output);
      out.getFileSystem(conf).delete(out, true);
    } catch (IOException | RuntimeException e) {
      // The job's own failure is what the user must see; a leftover directory is named by a rerun.
    }
  }

  /** A path as a user wrote it: a local file without {@code file:}, any other with its scheme. */
  static String shown(Path p) {
    return "file".equals(p.toUri().getScheme()) ? p.toUri().getPath() : p.toString();
  }

  /**
   * Checks, before a job starts, that its output directory does not exist yet.
   *
   * @throws org.apache.hadoop.fs.FileAlreadyExistsException naming it
   */
  public static void requireNoOutput(Configuration conf, String output) throws IOException {
    Path out = new Path(output);
    if (out.getFileSystem(conf).exists(out)) {
      throw new org.apache.hadoop.fs.FileAlreadyExistsException(
          "output " + output + " already exists");
    }
  }

  /** Opens {@code file}, decompressing it when its codec is known by its name. */
  public static InputStream open(Configuration conf, Path file) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(file);
    InputStream raw = fs.open(file);
    try {
      return codec == null ? raw : codec.createInputStream(raw);
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  /** The EP header line of the first input file of {@code input}. */
  public static EpHeader firstEpHeader(Configuration conf, String input) throws IOException {
    Path first = inputFiles(conf, input).get(0).getPath();
    try (InputStream in = open(conf, first)) {
      return EpSplitLines.readHeader(in, first.toString());
    }
  }

  /** Writes {@code text} to {@code file}, replacing it. */
  public static void writeText(Configuration conf, Path file, String text) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    try (OutputStream out = fs.create(file, true)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Writes {@code r} as {@code OUT/_summary.json}. */
  public static void writeSummary(Configuration conf, String output, Report r) throws IOException {
    writeText(conf, new Path(output, SUMMARY), r.toJson());
  }

  /**
   * Count mode's output: writes the summed counts as {@code OUT/part-00000}, {@code key<TAB>count}
   * per line, most first, ties by key.
   *
   * @return the rows written, as {key, count}
   */
  public static List<Object[]> writeCounts(
      Configuration conf, String output, Map<String, Long> sums) throws IOException {
    List<Object[]> rows = LineJob.countRows(sums);
    Path file = new Path(output, "part-00000");
    try (OutputStream out = file.getFileSystem(conf).create(file, false)) {
      out.write(LineJob.countFile(rows));
    }
    return rows;
  }

  /**
   * Reads {@code key<TAB>count} lines of every part file in {@code dir} and sums them by key, then
   * deletes {@code dir}.
   */
  public static Map<String, Long> readCounts(Configuration conf, Path dir) throws IOException {
    Map<String, Long> sums = new java.util.HashMap<>();
    FileSystem fs = dir.getFileSystem(conf);
    if (!fs.exists(dir)) {
      return sums;
    }
    for (FileStatus s : fs.listStatus(dir, p -> p.getName().startsWith("part-"))) {
      try (InputStream in = fs.open(s.getPath())) {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        for (String line : text.split("\n")) {
          int tab = line.lastIndexOf('\t');
          if (tab >= 0) {
            sums.merge(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)), Long::sum);
          }
        }
      }
    }
    fs.delete(dir, true);
    return sums;
  }

  /**
   * The {@code --single-file} merge: writes {@code header} and then the part files of {@code dir}
   * whose names start with one of {@code prefixes} (in that order, each group in name order) into
   * {@code dir/name}, then deletes those parts. Parts hold rows only, no header.
   */
  public static Path mergeParts(
      Configuration conf, String dir, byte[] header, String name, List<String> prefixes)
      throws IOException {
    Path d = new Path(dir);
    FileSystem fs = d.getFileSystem(conf);
    List<Path> parts = new ArrayList<>();
    for (String prefix : prefixes) {
      FileStatus[] st = fs.listStatus(d, p -> p.getName().startsWith(prefix));
      Arrays.sort(st, (a, b) -> a.getPath().getName().compareTo(b.getPath().getName()));
      for (FileStatus s : st) {
        if (!parts.contains(s.getPath())) {
          parts.add(s.getPath());
        }
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

  /**
   * Moves the files of {@code from} whose names start with {@code fromPrefix} into {@code to}, each
   * renamed {@code toPrefix} + its number ({@code part-r-00003} becomes {@code part-d-00003}).
   */
  public static void moveParts(
      Configuration conf, Path from, String fromPrefix, Path to, String toPrefix)
      throws IOException {
    FileSystem fs = from.getFileSystem(conf);
    for (FileStatus s : fs.listStatus(from, p -> p.getName().startsWith(fromPrefix))) {
      String n = s.getPath().getName();
      String number = n.substring(n.lastIndexOf('-') + 1);
      fs.rename(s.getPath(), new Path(to, toPrefix + number));
    }
  }
}
