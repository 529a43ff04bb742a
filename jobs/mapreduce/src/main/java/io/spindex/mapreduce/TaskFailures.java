/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.hadoop.HadoopIo;
import io.spindex.index.CorruptIndexException;
import io.spindex.text.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * Why a failed job's tasks failed, in the words a Spark driver prints: a task that stopped on bad
 * input (an {@link InputException} or {@link CorruptIndexException}, whose messages name the user's
 * file) writes its message to {@code OUT/_failures/ATTEMPT}, which the client reads before it
 * removes the failed output. The job's own failure info is often just {@code NA}, and the local
 * runner keeps no task diagnostics (on YARN they are the fallback).
 */
final class TaskFailures {
  /** Where tasks write the messages of their failures, under the output directory. */
  static final String DIR = "_failures";

  /** How the exceptions whose messages are written for the user start in a diagnostic. */
  private static final List<String> USER_FACING =
      List.of(InputException.class.getName() + ": ", CorruptIndexException.class.getName() + ": ");

  private TaskFailures() {}

  /** In a task: records {@code e}'s message when one of its causes is bad input. */
  static void record(TaskInputOutputContext<?, ?, ?, ?> context, Throwable e) {
    String message = null;
    for (Throwable t = e;
        t != null && message == null;
        t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof InputException || t instanceof CorruptIndexException) {
        message = t.getMessage();
      }
    }
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
        Arrays.sort(files);
        for (FileStatus f : files) {
          try (InputStream in = fs.open(f.getPath())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // Then the diagnostics.
    }
    return fromDiagnostics(job);
  }

  private static String fromDiagnostics(Job job) {
    try {
      int from = 0;
      TaskCompletionEvent[] events;
      do {
        events = job.getTaskCompletionEvents(from, 100);
        for (TaskCompletionEvent e : events) {
          if (e.getStatus() == TaskCompletionEvent.Status.FAILED
              || e.getStatus() == TaskCompletionEvent.Status.TIPFAILED) {
            for (String d : job.getTaskDiagnostics(e.getTaskAttemptId())) {
              String m = userMessage(d);
              if (m != null) {
                return m;
              }
            }
          }
        }
        from += events.length;
      } while (events.length > 0);
    } catch (IOException | RuntimeException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return null;
  }

  /** The user's message in one task diagnostic (a stack trace as text), or null. */
  static String userMessage(String diagnostic) {
    for (String marker : USER_FACING) {
      int at = diagnostic.indexOf(marker);
      if (at >= 0) {
        int from = at + marker.length();
        int nl = diagnostic.indexOf('\n', from);
        return diagnostic.substring(from, nl < 0 ? diagnostic.length() : nl).trim();
      }
    }
    return null;
  }
}
