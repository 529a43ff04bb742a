/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static io.spindex.job.BuildIndexDefinition.NAME;

import io.spindex.builder.Assembled;
import io.spindex.builder.IpListPart;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.SplitParser;
import io.spindex.builder.SplitPart;
import io.spindex.hadoop.HadoopIo;
import io.spindex.hadoop.IndexBuild;
import io.spindex.hadoop.KeyFiles;
import io.spindex.hadoop.LineChunk;
import io.spindex.hadoop.LineChunkInputFormat;
import io.spindex.job.BuildIndexDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.LineJob;
import io.spindex.lookup.Report;
import io.spindex.spark.side.HadoopConf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * build-index on Spark ({@link BuildIndexDefinition}): builds an index from text side data on the
 * cluster, for inputs that do not fit one machine. The executors parse their splits exactly as
 * {@code spindex build ips} parses its files and group each split's addresses by /16 block; the
 * groups are range-partitioned by block through a Spark shuffle (boundaries from the merged /16
 * histogram, so partitions hold equal shares), sorted and deduplicated per partition and written as
 * key files, which the driver streams in order into the index writer. The file equals the
 * one-machine build of the same input byte for byte, creation time aside, and is written atomically
 * to its final path (local or any Hadoop file system, {@link IndexBuild}). Every rejected line goes
 * to {@code OUT.build/_rejects/} with its reason and byte position; the summary to {@code
 * OUT.build/_summary.json}.
 */
final class BuildIndexJob {
  private BuildIndexJob() {}

  static JobResult run(SparkSession spark, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    JobArgs o = SparkLineJobs.parse(sc, NAME, BuildIndexDefinition.OPTIONS, args);
    // Every usage mistake before anything is read or created.
    String kind = BuildIndexDefinition.kind(o);
    IpRangeBuilder rangeBuilder =
        kind.equals("ranges") ? BuildIndexDefinition.rangeBuilder(o) : null;
    Run r = new Run(sc, new IndexBuild(sc.hadoopConfiguration(), o));
    double splitMb = o.get(LineJob.SPLIT_MB);
    if (splitMb > 0) {
      r.b.conf.setLong(FileInputFormat.SPLIT_MAXSIZE, (long) (splitMb * (1 << 20)));
    }
    @SuppressWarnings("unchecked")
    JavaNewHadoopRDD<LongWritable, LineChunk> in =
        (JavaNewHadoopRDD<LongWritable, LineChunk>)
            sc.newAPIHadoopFile(
                o.get(LineJob.INPUT),
                LineChunkInputFormat.class,
                LongWritable.class,
                LineChunk.class,
                r.b.conf);
    if (kind.equals("ranges")) {
      return BuildRangesJob.build(r, rangeBuilder, in);
    }
    if (kind.equals("products")) {
      return BuildProductsJob.build(r, in);
    }
    JavaRDD<IpListPart> parts =
        r.parts(in, (file, name, start, length) -> new IpListPart.Parser(name, length))
            .persist(StorageLevel.MEMORY_AND_DISK());
    try {
      return build(r, parts);
    } finally {
      parts.unpersist(false);
    }
  }

  /** Makes the parser of one split: its input's index and name, its first byte and its size. */
  interface Parsers<P> extends java.io.Serializable {
    SplitParser<P> parser(int file, String name, long start, long length) throws IOException;
  }

  /** One build on Spark: its {@link IndexBuild} and the Spark half, the splits parsed as RDDs. */
  static final class Run {
    final JavaSparkContext sc;
    final IndexBuild b;

    Run(JavaSparkContext sc, IndexBuild b) {
      this.sc = sc;
      this.b = b;
    }

    /** Each split parsed on the executors into one part. */
    <P> JavaRDD<P> parts(JavaNewHadoopRDD<LongWritable, LineChunk> in, Parsers<P> parsers) {
      Map<String, Integer> fileIndex = new HashMap<>();
      for (FileStatus f : b.files) {
        fileIndex.put(f.getPath().toString(), fileIndex.size());
      }
      return in.mapPartitionsWithInputSplit(
          (split, chunks) -> {
            String name = HadoopIo.splitName(split);
            Integer file = fileIndex.get(name);
            if (file == null) {
              throw new IllegalStateException("a split of no input file: " + name);
            }
            FileSplit f = (FileSplit) split;
            SplitParser<P> p = parsers.parser(file, name, f.getStart(), f.getLength());
            while (chunks.hasNext()) {
              LineChunk c = chunks.next()._2();
              p.lines(c.bytes(), 0, c.length(), c.offset());
            }
            return Collections.singletonList(p.finish()).iterator();
          },
          true);
    }

    /**
     * Parses every split, for the builds whose rows meet on the driver: the parts in input order
     * (file, then offset) without their reject records, which go to {@code OUT.build/_rejects/}
     * from the executors (or the first fails a strict build); their counts by reason into {@code
     * rejectCounts}.
     */
    <P extends SplitPart> List<P> inOrder(
        JavaNewHadoopRDD<LongWritable, LineChunk> in,
        Parsers<P> parsers,
        String expected,
        Map<String, Long> rejectCounts)
        throws IOException {
      JavaRDD<P> parts = parts(in, parsers).persist(StorageLevel.MEMORY_AND_DISK());
      try {
        List<P> ordered = new ArrayList<>(parts.map(p -> p.<P>withoutRejectRecords()).collect());
        ordered.sort(Comparator.comparingInt((P p) -> p.file).thenComparingLong(p -> p.start));
        b.phase("parse ms");
        long rejected = 0;
        String firstReject = null;
        for (P p : ordered) {
          p.rejectCounts.forEach((k, v) -> rejectCounts.merge(k, v, Long::sum));
          rejected += p.rejected();
          firstReject = firstReject == null ? p.firstReject : firstReject;
        }
        BuildIndexDefinition.strict(b.o, rejected, firstReject, expected);
        if (rejected > 0) {
          writeRejects(parts.map(SplitPart::rejectRecordsWithoutLastLf));
        }
        return ordered;
      } finally {
        parts.unpersist(false);
      }
    }

    /** Writes the reject records of every split to {@code OUT.build/_rejects/}. */
    void writeRejects(JavaRDD<byte[]> records) {
      records
          .filter(r -> r.length > 0)
          .mapToPair(r -> new Tuple2<>(NullWritable.get(), new Text(r)))
          .saveAsNewAPIHadoopFile(
              b.rejects().toString(),
              NullWritable.class,
              Text.class,
              TextOutputFormat.class,
              sc.hadoopConfiguration());
    }

    /** Writes the index and the summary ({@link IndexBuild#finish}); the job's result. */
    JobResult finish(Assembled index, Map<String, Long> rejectCounts, Report r) throws IOException {
      b.finish(index, rejectCounts, r);
      return new JobResult(
          r, new TreeMap<>(index.counts), Collections.emptyList(), Collections.emptyMap(), true);
    }
  }

  private static JobResult build(Run run, JavaRDD<IpListPart> parts) throws IOException {
    JavaSparkContext sc = run.sc;
    // Parse (the first action) and bring the counts, rejects' first line and IPv6 keys home.
    List<IpListPart> counts = parts.map(IpListPart::withoutKeys).collect();
    run.b.phase("parse ms");
    long lines = 0;
    long skipped = 0;
    long accepted = 0;
    int count6 = 0;
    Map<String, Long> rejectCounts = new TreeMap<>();
    String firstReject = null;
    for (IpListPart p : counts) {
      lines += p.lines;
      skipped += p.skipped;
      accepted += p.accepted;
      count6 = Math.addExact(count6, p.count6);
      p.rejectCounts.forEach((k, v) -> rejectCounts.merge(k, v, Long::sum));
      if (firstReject == null) {
        firstReject = p.firstReject;
      }
    }
    long rejected = rejectCounts.values().stream().mapToLong(Long::longValue).sum();
    BuildIndexDefinition.strict(run.b.o, rejected, firstReject, IpListPart.EXPECTED);
    if (rejected > 0) {
      run.writeRejects(parts.map(IpListPart::rejectRecordsWithoutLastLf));
    }

    // Range partitioning: cut the /16 blocks where the running count passes each equal share.
    int[] histogram = parts.map(IpListPart::histogram).reduce(BuildIndexJob::add);
    long asked = run.b.o.get(BuildIndexDefinition.PARTITIONS);
    int partitions = asked > 0 ? (int) asked : counts.size();
    int[] cuts = BuildIndexDefinition.cuts(histogram, Math.max(1, partitions));
    int n = cuts.length + 1;
    Path keysDir = new Path(run.b.work, "_keys");
    String keysUri = keysDir.toString();
    HadoopConf hadoopConf = new HadoopConf(sc.hadoopConfiguration());
    // Each partition's keys, sorted, go to a file of their own; the driver gets each partition's
    // /16 block counts (of its own blocks only) and streams the files into the index in order.
    List<int[]> blocks =
        parts
            .flatMapToPair(p -> slices(p, cuts))
            .partitionBy(new Exact(n))
            .values()
            .mapPartitionsWithIndex(
                (r, it) -> {
                  List<byte[]> slices = new ArrayList<>();
                  it.forEachRemaining(slices::add);
                  int from = r == 0 ? 0 : cuts[r - 1];
                  int to = r == cuts.length ? 65536 : cuts[r];
                  int[] keys = IpListPart.merge(slices, from, to);
                  KeyFiles.write(hadoopConf.get(), KeyFiles.part(new Path(keysUri), r), keys);
                  int[] perBlock = IpListPart.blockCounts(keys, keys.length);
                  return Collections.singletonList(Arrays.copyOfRange(perBlock, from, to))
                      .iterator();
                },
                true)
            .collect();
    int[] blockCounts = new int[65536];
    long[] partRows = new long[n];
    for (int r = 0, block = 0; r < n; r++) {
      for (int c : blocks.get(r)) {
        blockCounts[block++] = c;
        partRows[r] += c;
      }
    }
    run.b.phase("sort ms");
    long[] hi6 = new long[count6];
    long[] lo6 = new long[count6];
    int at6 = 0;
    for (IpListPart p : counts) {
      System.arraycopy(p.hi6, 0, hi6, at6, p.count6);
      System.arraycopy(p.lo6, 0, lo6, at6, p.count6);
      at6 += p.count6;
    }
    try (KeyFiles keys = new KeyFiles(sc.hadoopConfiguration(), keysDir, partRows)) {
      Assembled index =
          BuildIndexDefinition.setBuilder(run.b.o)
              .assembleMerged(
                  keys,
                  blockCounts,
                  hi6,
                  lo6,
                  count6,
                  lines,
                  skipped,
                  accepted,
                  rejected,
                  run.b.sourceBytes,
                  run.b.sourceDigest());
      return run.finish(
          index, rejectCounts, run.b.report(counts.size()).put("partitions", cuts.length + 1));
    } finally {
      keysDir.getFileSystem(sc.hadoopConfiguration()).delete(keysDir, true);
    }
  }

  /** A part's keys cut at {@code cuts} into one slice per partition, as (partition, keys). */
  static Iterator<Tuple2<Integer, byte[]>> slices(IpListPart p, int[] cuts) {
    List<Tuple2<Integer, byte[]>> out = new ArrayList<>(cuts.length + 1);
    for (int r = 0; r <= cuts.length; r++) {
      byte[] slice = p.blocks(r == 0 ? 0 : cuts[r - 1], r == cuts.length ? 65536 : cuts[r]);
      if (slice.length > 0) {
        out.add(new Tuple2<>(r, slice));
      }
    }
    return out.iterator();
  }

  private static int[] add(int[] a, int[] b) {
    for (int i = 0; i < a.length; i++) {
      a[i] += b[i];
    }
    return a;
  }

  /** Sends record key {@code r} to partition {@code r}. */
  static final class Exact extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final int n;

    Exact(int n) {
      this.n = n;
    }

    @Override
    public int numPartitions() {
      return n;
    }

    @Override
    public int getPartition(Object key) {
      return (Integer) key;
    }
  }
}
