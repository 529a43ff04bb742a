/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.TextLoader;
import io.spindex.index.IndexKind;
import io.spindex.index.IndexLoader;
import io.spindex.index.Loader;
import io.spindex.index.SpindexIndex;
import io.spindex.job.SideFile;
import io.spindex.lookup.AnswerDigest;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.spark.SparkEnv;

/**
 * The executor side of loader-compare: the first task of a run on each JVM times every loader;
 * later tasks on the same JVM return nothing. Each load is checked by a fixed set of lookups whose
 * digest must be the same for every loader.
 */
final class LoadTimings implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final ConcurrentMap<String, Boolean> CLAIMED = new ConcurrentHashMap<>();

  /** The baseline: build the index from its source text in memory. */
  static final String TEXT = "text";

  private final String runId;
  private final SideFile ref;
  private final SideFile source;
  private final HadoopConf conf;
  private final List<String> loaders;
  private final int rounds;

  LoadTimings(
      String runId,
      SideFile ref,
      SideFile source,
      HadoopConf conf,
      List<String> loaders,
      int rounds) {
    this.runId = runId;
    this.ref = ref;
    this.source = source;
    this.conf = conf;
    this.loaders = new ArrayList<>(loaders);
    this.rounds = rounds;
  }

  /** One timed load. */
  static final class Sample implements Serializable {
    private static final long serialVersionUID = 1L;
    final String executorId;
    final String host;
    final long pid;
    final String loader;
    final int round;
    final long nanos;
    final long bytes;
    final long answerDigest;

    Sample(String loader, int round, long nanos, long bytes, long answerDigest) {
      SparkEnv env = SparkEnv.get();
      this.executorId = env == null ? "?" : env.executorId();
      String h;
      try {
        h = java.net.InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        h = "?";
      }
      this.host = h;
      this.pid = ProcessHandle.current().pid();
      this.loader = loader;
      this.round = round;
      this.nanos = nanos;
      this.bytes = bytes;
      this.answerDigest = answerDigest;
    }
  }

  List<Sample> measureOncePerJvm() throws IOException {
    if (CLAIMED.putIfAbsent(runId, Boolean.TRUE) != null) {
      return Collections.emptyList();
    }
    SparkLineJobs.SparkTaskSide side = new SparkLineJobs.SparkTaskSide("", conf);
    Path file = side.local(ref);
    long bytes = Files.size(file);
    Path text = source == null ? null : side.local(source);
    boolean ranges = Loader.readHeader(file).kind() == IndexKind.IPV4_RANGES;
    List<Sample> out = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < loaders.size(); i++) {
        String name = loaders.get((i + r) % loaders.size());
        IndexLoader loader =
            !name.equals(TEXT)
                ? Loader.forOption(name)
                : ranges ? TextLoader.ranges(new IpRangeBuilder()) : TextLoader.ips();
        long t0 = System.nanoTime();
        SpindexIndex index = loader.load(name.equals(TEXT) ? text : file);
        long nanos = System.nanoTime() - t0;
        out.add(new Sample(name, r, nanos, bytes, digest(index)));
      }
    }
    return out;
  }

  /** See {@link AnswerDigest#of}. */
  static long digest(SpindexIndex index) {
    return AnswerDigest.of(index);
  }
}
