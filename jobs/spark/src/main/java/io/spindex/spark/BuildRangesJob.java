/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.builder.Assembled;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.RangePart;
import io.spindex.hadoop.HadoopIo;
import io.spindex.hadoop.LineChunk;
import io.spindex.index.LabelSchema;
import io.spindex.job.BuildIndexDefinition;
import io.spindex.job.UsageException;
import io.spindex.mmdb.MmdbFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.spark.api.java.JavaNewHadoopRDD;

/** build-index {@code --kind ranges}: the range index of {@code spindex build ranges}, on Spark. */
final class BuildRangesJob {
  private BuildRangesJob() {}

  /**
   * Ranges: the executors parse their splits with the command's own line sink, each told what its
   * file's first lines settled (delimiter, header); the driver appends the parts in input order,
   * flattens overlaps by the policy and writes the index. Range tables are small next to IP lists
   * (millions of rows, not billions), and the overlap policies and the label dictionary follow
   * input order, so the rows meet on the driver, as in the command.
   */
  static JobResult build(
      BuildIndexJob.Run r, IpRangeBuilder builder, JavaNewHadoopRDD<LongWritable, LineChunk> in)
      throws IOException {
    java.nio.file.Path copies = Files.createTempDirectory("spindex-mmdb-");
    try {
      List<java.nio.file.Path> databases = databases(r, copies);
      if (!databases.isEmpty()) {
        Assembled index = builder.assembleDatabases(databases);
        r.b.phase("read ms");
        return r.finish(index, new TreeMap<>(), r.b.report(0));
      }
    } finally {
      deleteAll(copies);
    }
    List<String> sources = new ArrayList<>();
    List<RangePart.FileStart> starts = new ArrayList<>();
    List<RangePart.FileStart> firstLines = new ArrayList<>();
    byte delimiter = (byte) r.b.o.get(BuildIndexDefinition.DELIMITER).charValue();
    CompressionCodecFactory codecs = new CompressionCodecFactory(r.b.conf);
    for (FileStatus f : r.b.files) {
      String name = f.getPath().toString();
      sources.add(name);
      RangePart.FileStart first;
      try (InputStream head = HadoopIo.open(r.b.conf, f.getPath())) {
        first = RangePart.FileStart.read(head, name, delimiter);
      } catch (java.io.EOFException e) {
        first = RangePart.FileStart.NONE; // a damaged compressed file: its split names it
      }
      firstLines.add(first);
      // A compressed file is read whole by one split, which needs nothing from its first lines.
      starts.add(codecs.getCodec(f.getPath()) != null ? RangePart.FileStart.NONE : first);
    }
    Map<String, Long> rejectCounts = new TreeMap<>();
    LabelSchema schema = builder.declaredSchema();
    int labelFields = builder.headerLabelFields(firstLines);
    List<RangePart> parts =
        r.inOrder(
            in,
            (file, name, start, length) ->
                new RangePart.Parser(
                    file, name, delimiter, starts.get(file), start, schema, labelFields),
            RangePart.EXPECTED,
            rejectCounts);
    Assembled index = builder.assembleParts(parts, sources, r.b.sourceBytes, r.b.sourceDigest());
    r.b.phase("sort ms");
    return r.finish(index, rejectCounts, r.b.report(parts.size()));
  }

  /**
   * The inputs copied to {@code dir} when they are MaxMind DB files (their names kept, for {@code
   * --field NAME=FILE:PATH} and the index's source information), or none when they are text. A
   * database is read whole by the driver: its networks are a tree, not lines to split. Some of each
   * is a usage error.
   */
  private static List<java.nio.file.Path> databases(BuildIndexJob.Run r, java.nio.file.Path dir)
      throws IOException {
    List<java.nio.file.Path> out = new ArrayList<>();
    int i = 0;
    for (FileStatus f : r.b.files) {
      FileSystem fs = f.getPath().getFileSystem(r.b.conf);
      boolean binary;
      try (InputStream head = fs.open(f.getPath())) {
        binary = MmdbFile.mayBeDatabase(head);
      }
      if (!binary) {
        continue;
      }
      java.nio.file.Path local = dir.resolve(Integer.toString(i++)).resolve(f.getPath().getName());
      Files.createDirectories(local.getParent());
      try (InputStream in = fs.open(f.getPath())) {
        Files.copy(in, local);
      }
      if (MmdbFile.isMmdb(local)) {
        out.add(local);
      }
    }
    if (!out.isEmpty() && out.size() != r.b.files.size()) {
      throw new UsageException(
          BuildIndexDefinition.NAME
              + ": "
              + out.size()
              + " of "
              + r.b.files.size()
              + " inputs are MaxMind DB files: give databases or text range files, not both");
    }
    return out;
  }

  private static void deleteAll(java.nio.file.Path dir) throws IOException {
    try (java.util.stream.Stream<java.nio.file.Path> s = Files.walk(dir)) {
      for (java.nio.file.Path p :
          (Iterable<java.nio.file.Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
