/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;

/**
 * Count mode's reducer: sums each key's counts into {@code OUT/_partial-counts/part-r-*} ({@code
 * key<TAB>count}), which the client sorts into {@code OUT/part-00000} (most first, as on Spark).
 */
final class CountSumReducer extends Reducer<Text, LongWritable, Writable, Writable> {
  private MultipleOutputs<Writable, Writable> mos;
  private final Text line = new Text();

  @Override
  protected void setup(Context context) {
    mos = new MultipleOutputs<>(context);
  }

  @Override
  protected void reduce(Text key, Iterable<LongWritable> counts, Context context)
      throws IOException, InterruptedException {
    long sum = 0;
    for (LongWritable c : counts) {
      sum += c.get();
    }
    line.set(key);
    byte[] tail = ("\t" + sum).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    line.append(tail, 0, tail.length);
    mos.write(LineJobMapper.OUTPUT, NullWritable.get(), line, LineJobTool.COUNTS_DIR + "/part");
  }

  @Override
  protected void cleanup(Context context) throws IOException, InterruptedException {
    mos.close();
  }
}
