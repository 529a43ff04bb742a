/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.index.IndexLoader;
import io.spindex.index.Loader;
import io.spindex.index.SpindexIndex;
import io.spindex.lookup.AnswerDigest;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * loader-compare's map task: loads the index from the distributed cache with every loader, {@code
 * rounds} times (the order rotates each round so no loader always goes first), and writes one line
 * per load: {@code task host pid loader round ms bytes} (tab-separated). Every load's answers to
 * 4096 fixed lookups ({@link AnswerDigest}) must equal the first load's, else {@code
 * ANSWER_MISMATCHES} counts it. Loads bypass the per-JVM holder on purpose: each one is timed.
 */
public final class LoaderCompareMapper
    extends Mapper<IntWritable, NullWritable, NullWritable, Text> {
  private Counter tasks;
  private Counter bytesLoaded;
  private Counter mismatches;

  @Override
  protected void setup(Context context) {
    tasks = context.getCounter(SpindexCounter.TASKS);
    bytesLoaded = context.getCounter(SpindexCounter.INDEX_BYTES);
    mismatches = context.getCounter(SpindexCounter.ANSWER_MISMATCHES);
  }

  @Override
  protected void map(IntWritable task, NullWritable none, Context context)
      throws IOException, InterruptedException {
    Path file = Paths.get(context.getConfiguration().get(LoaderCompareTool.CONF_INDEX_NAME));
    List<String> loaders =
        Arrays.asList(context.getConfiguration().getStrings(LoaderCompareTool.CONF_LOADERS));
    int rounds = context.getConfiguration().getInt(LoaderCompareTool.CONF_ROUNDS, 1);
    long bytes = Files.size(file);
    String host = InetAddress.getLocalHost().getHostName();
    long pid = ProcessHandle.current().pid();
    Long first = null;
    Text out = new Text();
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < loaders.size(); i++) {
        String name = loaders.get((i + r) % loaders.size());
        IndexLoader loader = Loader.forOption(name);
        long t0 = System.nanoTime();
        SpindexIndex index = loader.load(file);
        long nanos = System.nanoTime() - t0;
        long digest = AnswerDigest.of(index);
        if (first == null) {
          first = digest;
        } else if (first != digest) {
          mismatches.increment(1);
        }
        context.getCounter(SpindexCounter.loads(name)).increment(1);
        context.getCounter(SpindexCounter.loadMicros(name)).increment(nanos / 1000);
        bytesLoaded.increment(bytes);
        out.set(
            String.format(
                Locale.ROOT,
                "%d\t%s\t%d\t%s\t%d\t%.3f\t%d",
                task.get(),
                host,
                pid,
                name,
                r,
                nanos / 1e6,
                bytes));
        context.write(NullWritable.get(), out);
      }
    }
    tasks.increment(1);
  }
}
