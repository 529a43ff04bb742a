/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.job.LineJob;
import io.spindex.job.LoaderCompareDefinition;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * loader-compare's map task: {@link LoaderCompareDefinition#measure} (the first task of the run in
 * a JVM times every loader), one line per load to the output ({@link
 * LoaderCompareDefinition.Sample#toLine}), the counts to the {@code Spindex} counter group.
 */
final class LoaderCompareMapper extends Mapper<IntWritable, NullWritable, NullWritable, Text> {
  @Override
  protected void map(IntWritable task, NullWritable none, Context context)
      throws IOException, InterruptedException {
    LoaderCompareDefinition.Plan plan =
        (LoaderCompareDefinition.Plan)
            LineJobTool.deserialize(context.getConfiguration().get(LineJobTool.CONF_PLAN));
    List<LoaderCompareDefinition.Sample> samples =
        LoaderCompareDefinition.measure(
            plan,
            new LineJobMapper.MrTaskSide("", context),
            "task " + context.getTaskAttemptID().getTaskID().getId());
    Text out = new Text();
    for (LoaderCompareDefinition.Sample s : samples) {
      out.set(s.toLine());
      context.write(NullWritable.get(), out);
    }
    for (Map.Entry<String, Long> c : LoaderCompareDefinition.counts(samples).entrySet()) {
      context.getCounter(LineJobTool.GROUP, c.getKey()).increment(c.getValue());
    }
    context.getCounter(LineJobTool.GROUP, LineJob.TASKS).increment(1);
  }
}
