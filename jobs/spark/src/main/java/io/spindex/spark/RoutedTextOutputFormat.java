/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.annotations.Internal;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Writes each record as one line to the file of its directory (a {@link io.spindex.job.Route}'s, or
 * the partial counts), all inside the task's work directory, so that the output committer commits
 * (or discards) every route of a task together: a retried task never leaves a half rejects file
 * behind. Files are opened on first use; a task with no rejects writes no rejects file. Honours the
 * usual output compression settings.
 */
@Internal
public final class RoutedTextOutputFormat extends FileOutputFormat<String, SplitRecords.Record> {
  @Override
  public RecordWriter<String, SplitRecords.Record> getRecordWriter(TaskAttemptContext ctx)
      throws IOException {
    FileOutputCommitter committer = (FileOutputCommitter) getOutputCommitter(ctx);
    CompressionCodec codec = null;
    String ext = "";
    if (getCompressOutput(ctx)) {
      Class<? extends CompressionCodec> c = getOutputCompressorClass(ctx, GzipCodec.class);
      codec = ReflectionUtils.newInstance(c, ctx.getConfiguration());
      ext = codec.getDefaultExtension();
    }
    return new Writer(ctx, committer.getWorkPath(), getUniqueFile(ctx, "part", ext), codec);
  }

  private static final class Writer extends RecordWriter<String, SplitRecords.Record> {
    private final TaskAttemptContext ctx;
    private final Path work;
    private final String name;
    private final CompressionCodec codec;
    private final Map<String, DataOutputStream> open = new HashMap<>();

    Writer(TaskAttemptContext ctx, Path work, String name, CompressionCodec codec) {
      this.ctx = ctx;
      this.work = work;
      this.name = name;
      this.codec = codec;
    }

    @Override
    public void write(String dir, SplitRecords.Record line) throws IOException {
      DataOutputStream out = open.get(dir);
      if (out == null) {
        Path file = new Path(work, dir + name);
        FileSystem fs = file.getFileSystem(ctx.getConfiguration());
        FSDataOutputStream raw = fs.create(file, false);
        out = codec == null ? raw : new DataOutputStream(codec.createOutputStream(raw));
        open.put(dir, out);
      }
      out.write(line.b, line.off, line.len);
      out.write('\n');
    }

    @Override
    public void close(TaskAttemptContext context) throws IOException {
      IOException first = null;
      for (DataOutputStream out : open.values()) {
        try {
          out.close();
        } catch (IOException e) {
          if (first == null) {
            first = e;
          }
        }
      }
      if (first != null) {
        throw first;
      }
    }
  }
}
