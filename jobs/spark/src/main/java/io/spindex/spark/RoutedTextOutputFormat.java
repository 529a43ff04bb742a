/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Writes each {@link Text} value as one line to the file of its {@link Route}, all inside the
 * task's work directory, so that the output committer commits (or discards) every route of a task
 * together: a retried task never leaves a half rejects file behind. Files are opened on first use;
 * a task with no rejects writes no rejects file. Honours the usual output compression settings.
 */
public final class RoutedTextOutputFormat extends FileOutputFormat<Route, Text> {
  @Override
  public RecordWriter<Route, Text> getRecordWriter(TaskAttemptContext ctx) throws IOException {
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

  private static final class Writer extends RecordWriter<Route, Text> {
    private final TaskAttemptContext ctx;
    private final Path work;
    private final String name;
    private final CompressionCodec codec;
    private final Map<Route, DataOutputStream> open = new EnumMap<>(Route.class);

    Writer(TaskAttemptContext ctx, Path work, String name, CompressionCodec codec) {
      this.ctx = ctx;
      this.work = work;
      this.name = name;
      this.codec = codec;
    }

    @Override
    public void write(Route route, Text line) throws IOException {
      DataOutputStream out = open.get(route);
      if (out == null) {
        Path file = new Path(work, route.dir + name);
        FileSystem fs = file.getFileSystem(ctx.getConfiguration());
        FSDataOutputStream raw = fs.create(file, false);
        out = codec == null ? raw : new DataOutputStream(codec.createOutputStream(raw));
        open.put(route, out);
      }
      out.write(line.getBytes(), 0, line.getLength());
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
