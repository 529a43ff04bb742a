/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.hadoop.HadoopIo;
import io.spindex.job.Dispatcher;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * Why a failed job's tasks failed, in the words a Spark driver prints: a task that stopped on bad
 * input (an {@code InputException} or {@code CorruptIndexException}, whose messages name the user's
 * file) writes its message to {@code OUT/_failures/ATTEMPT}, which the client reads before it
 * removes the failed output. The job's own failure info is often just {@code NA}, and the local
 * runner keeps no task diagnostics.
 */
final class TaskFailures {
  /** Where tasks write the messages of their failures, under the output directory. */
  static final String DIR = "_failures";

  private TaskFailures() {}

  /** In a task: records {@code e}'s message when one of its causes is bad input. */
  static void record(TaskInputOutputContext<?, ?, ?, ?> context, Throwable e) {
    String message = Dispatcher.badInput(e);
    if (message == null) {
      return;
    }
    try {
      Path file =
          new Path(
              new Path(FileOutputFormat.getOutputPath(context), DIR),
              context.getTaskAttemptID().toString());
      HadoopIo.writeText(context.getConfiguration(), file, message);
    } catch (IOException | RuntimeException ignored) {
      // The task fails anyway; the client then says what the engine says.
    }
  }

  /**
   * On the client: the first failed task's message for the user, or null when no task failed on bad
   * input.
   */
  static String userMessage(Job job, String output) {
    try {
      Path dir = new Path(output, DIR);
      FileSystem fs = dir.getFileSystem(job.getConfiguration());
      if (fs.exists(dir)) {
        FileStatus[] files = fs.listStatus(dir);
        if (files.length > 0) {
          Arrays.sort(files);
          try (InputStream in = fs.open(files[0].getPath())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // The job's own failure info is said instead.
    }
    return null;
  }
}
