/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * An input format without input: {@link #CONF_TASKS} splits of one record each (the task number),
 * for jobs whose map tasks do their work in setup or map without reading files.
 */
final class TaskSplits extends InputFormat<IntWritable, NullWritable> {
  /** How many splits: the tool's, written for its job (not the users' {@code spindex.tasks}). */
  static final String CONF_TASKS = LineJobTool.INTERNAL_PREFIX + "tasks";

  @Override
  public List<InputSplit> getSplits(JobContext context) {
    int n = Math.max(1, context.getConfiguration().getInt(CONF_TASKS, 1));
    List<InputSplit> splits = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      splits.add(new Split(i));
    }
    return splits;
  }

  @Override
  public RecordReader<IntWritable, NullWritable> createRecordReader(
      InputSplit split, TaskAttemptContext context) {
    return new RecordReader<IntWritable, NullWritable>() {
      private final IntWritable key = new IntWritable(((Split) split).id);
      private boolean read;

      @Override
      public void initialize(InputSplit s, TaskAttemptContext c) {}

      @Override
      public boolean nextKeyValue() {
        if (read) {
          return false;
        }
        read = true;
        return true;
      }

      @Override
      public IntWritable getCurrentKey() {
        return key;
      }

      @Override
      public NullWritable getCurrentValue() {
        return NullWritable.get();
      }

      @Override
      public float getProgress() {
        return read ? 1 : 0;
      }

      @Override
      public void close() {}
    };
  }

  /** Split number {@code id}: no data, no preferred hosts. */
  static final class Split extends InputSplit implements Writable {
    private int id;

    public Split() {}

    Split(int id) {
      this.id = id;
    }

    @Override
    public long getLength() {
      return 0;
    }

    @Override
    public String[] getLocations() {
      return new String[0];
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(id);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      id = in.readInt();
    }
  }
}
