/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.job.LineTask;
import io.spindex.job.RecordSink;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chunks of whole lines give every split exactly the lines (and byte offsets) that Hadoop's own
 * {@code TextInputFormat} gives it: seeded random files with empty lines, CR LF, lines longer than
 * a chunk and a last line with or without LF, cut into splits of many sizes, plain and gzip.
 */
class LineChunkInputFormatTest {
  @TempDir Path dir;

  @Test
  void everySplitReadsTheLinesTextInputFormatReads() throws Exception {
    long seed = 20261123L;
    Random r = new Random(seed);
    for (int round = 0; round < 8; round++) {
      byte[] data = randomLines(r, 1 + r.nextInt(600));
      Path file = dir.resolve("in-" + round + ".txt");
      Files.write(file, data);
      for (long split : new long[] {7, 64, 1000, 4096, 1 << 20}) {
        for (int chunk : new int[] {1, 16, 300, 1 << 16}) {
          assertEquals(
              reference(file, split),
              chunked(file, split, chunk),
              "seed " + seed + " round " + round + " split " + split + " chunk " + chunk);
        }
      }
    }
  }

  @Test
  void aCompressedFileIsOneSplitReadThroughItsCodec() throws Exception {
    byte[] data = randomLines(new Random(5), 5000);
    Path file = dir.resolve("in.txt.gz");
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(file))) {
      o.write(data);
    }
    List<String> want = reference(file, 1000);
    assertEquals(want, chunked(file, 1000, 100));
    assertTrue(want.size() > 1000);
  }

  private static byte[] randomLines(Random r, int lines) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int i = 0; i < lines; i++) {
      int len = r.nextInt(20) == 0 ? r.nextInt(700) : r.nextInt(40);
      for (int j = 0; j < len; j++) {
        b.write('a' + r.nextInt(26));
      }
      if (i < lines - 1 || r.nextBoolean()) {
        if (r.nextInt(5) == 0) {
          b.write('\r');
        }
        b.write('\n');
      }
    }
    return b.toByteArray();
  }

  private static Job job(Path file, long split) throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("fs.file.impl", "org.apache.hadoop.fs.LocalFileSystem");
    conf.setLong(FileInputFormat.SPLIT_MAXSIZE, split);
    conf.setLong(FileInputFormat.SPLIT_MINSIZE, 1);
    Job job = Job.getInstance(conf);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(file.toUri()));
    return job;
  }

  private static TaskAttemptContext context(Job job) {
    return new TaskAttemptContextImpl(job.getConfiguration(), new TaskAttemptID());
  }

  /** {@code split:offset:line} for every line of every split, as Hadoop reads them. */
  private static List<String> reference(Path file, long splitBytes) throws Exception {
    Job job = job(file, splitBytes);
    List<String> out = new ArrayList<>();
    TextInputFormat f = new TextInputFormat();
    List<InputSplit> splits = f.getSplits(job);
    for (int s = 0; s < splits.size(); s++) {
      try (RecordReader<LongWritable, Text> rr =
          f.createRecordReader(splits.get(s), context(job))) {
        rr.initialize(splits.get(s), context(job));
        while (rr.nextKeyValue()) {
          out.add(s + ":" + rr.getCurrentKey().get() + ":" + rr.getCurrentValue());
        }
      }
    }
    return out;
  }

  private static List<String> chunked(Path file, long splitBytes, int chunkBytes) throws Exception {
    Job job = job(file, splitBytes);
    List<String> out = new ArrayList<>();
    LineChunkInputFormat f = new LineChunkInputFormat();
    List<InputSplit> splits = f.getSplits(job);
    for (int s = 0; s < splits.size(); s++) {
      int split = s;
      LineTask collect =
          new LineTask() {
            @Override
            public void line(byte[] b, int from, int to, long offset, RecordSink sink) {
              out.add(
                  split
                      + ":"
                      + offset
                      + ":"
                      + new String(b, from, to - from, StandardCharsets.UTF_8));
            }

            @Override
            public void finish(RecordSink sink) {}

            @Override
            public Map<String, Long> counts() {
              return Collections.emptyMap();
            }
          };
      try (LineChunkInputFormat.Reader rr = new LineChunkInputFormat.Reader(chunkBytes)) {
        rr.initialize(splits.get(s), context(job));
        while (rr.nextKeyValue()) {
          LineChunk c = rr.getCurrentValue();
          assertEquals(rr.getCurrentKey().get(), c.offset());
          c.lines(collect, null);
        }
      }
    }
    return out;
  }
}
