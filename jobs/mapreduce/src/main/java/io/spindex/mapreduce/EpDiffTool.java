/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.ep.SeenRows;
import io.spindex.hadoop.HadoopIo;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.LineTask;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * ep-diff on MapReduce. The map tasks diff their splits (I and U rows, rejects) and send each
 * reducer its slice of the rows they saw (a bitmap, no ids); reducer {@code k} ORs the slices of
 * its range of index rows and writes their D rows, which end up as {@code OUT/part-d-*}, as on
 * Spark.
 */
final class EpDiffTool extends LineJobTool<EpDiffDefinition.Plan> {
  static final String DELETES_DIR = "_deletes";

  public EpDiffTool() {
    super(new EpDiffDefinition());
    mapperClass = SeenRowsMapper.class;
  }

  @Override
  void configure(Job job, EpDiffDefinition.Plan plan) throws IOException {
    int splits = new io.spindex.hadoop.LineChunkInputFormat().getSplits(job).size();
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(BytesWritable.class);
    job.setReducerClass(DeletesReducer.class);
    job.setNumReduceTasks(plan.deleteTasks(splits));
  }

  @Override
  void finishOutputs(Job job, EpDiffDefinition.Plan plan) throws IOException {
    Path out = org.apache.hadoop.mapreduce.lib.output.FileOutputFormat.getOutputPath(job);
    Path deletes = new Path(out, DELETES_DIR);
    HadoopIo.moveParts(job.getConfiguration(), deletes, "part-", out, "part-d-");
    deletes.getFileSystem(job.getConfiguration()).delete(deletes, true);
  }

  /** The diff's map task: after its split, each reducer's slice of the seen rows. */
  static final class SeenRowsMapper extends LineJobMapper {
    @Override
    protected void finished(LineTask task, Context context)
        throws IOException, InterruptedException {
      EpDiffDefinition.Plan plan = (EpDiffDefinition.Plan) plan(context.getConfiguration());
      SeenRows seen = EpDiffDefinition.seen(task);
      int parts = context.getNumReduceTasks();
      for (int k = 0; k < parts; k++) {
        int[] w = EpDiffDefinition.deleteWords(plan, k, parts);
        ByteArrayOutputStream b = new ByteArrayOutputStream(8 * (w[1] - w[0]));
        try (DataOutputStream out = new DataOutputStream(b)) {
          seen.writeWords(w[0], w[1], out);
        }
        context.write(new IntWritable(k), new BytesWritable(b.toByteArray()));
      }
    }
  }

  /** Reducer {@code k}: the merged slice, then the D rows of its index rows. */
  static final class DeletesReducer
      extends Reducer<IntWritable, BytesWritable, Writable, Writable> {
    @Override
    protected void reduce(IntWritable part, Iterable<BytesWritable> slices, Context context)
        throws IOException, InterruptedException {
      EpDiffDefinition.Plan plan =
          (EpDiffDefinition.Plan) LineJobMapper.plan(context.getConfiguration());
      int parts = context.getNumReduceTasks();
      int[] w = EpDiffDefinition.deleteWords(plan, part.get(), parts);
      SeenRows seen = new SeenRows(plan.rows());
      for (BytesWritable s : slices) {
        seen.orWords(
            w[0],
            w[1],
            new DataInputStream(new java.io.ByteArrayInputStream(s.getBytes(), 0, s.getLength())));
      }
      TaskOutputs sink = new TaskOutputs(context, DELETES_DIR + "/part");
      try {
        long d =
            EpDiffDefinition.writeDeletes(
                plan,
                new LineJobMapper.MrTaskSide("delete stage", context),
                seen,
                part.get(),
                parts,
                sink);
        context.getCounter(GROUP, EpDiffDefinition.DELETED).increment(d);
      } catch (UncheckedIOException e) {
        throw TaskOutputs.rethrow(e);
      } finally {
        sink.mos.close();
      }
    }
  }
}
