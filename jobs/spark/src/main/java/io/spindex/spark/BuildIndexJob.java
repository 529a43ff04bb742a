/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.build.IpListPart;
import io.spindex.build.IpSetBuilder;
import io.spindex.hadoop.HadoopIo;
import io.spindex.hadoop.LineChunk;
import io.spindex.hadoop.LineChunkInputFormat;
import io.spindex.index.IndexHeader;
import io.spindex.index.IndexWriter;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.LineJob;
import io.spindex.lookup.Report;
import io.spindex.text.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * build-index: builds an index from text side data on the cluster, for inputs that do not fit one
 * machine. The executors parse their splits exactly as {@code spindex build ips} parses its files
 * and group each split's addresses by /16 block; the groups are range-partitioned by block through
 * a Spark shuffle (boundaries from the merged /16 histogram, so partitions hold equal shares),
 * sorted and deduplicated per partition and written as key files, which the driver streams in order
 * into the index writer. The file equals the one-machine build of the same input byte for byte,
 * creation time aside, and is written atomically to its final path (local or any Hadoop file
 * system). Every rejected line goes to {@code OUT.build/_rejects/} with its reason and byte
 * position; the summary to {@code OUT.build/_summary.json}.
 */
final class BuildIndexJob {
  static final String NAME = "build-index";

  static final JobOption<String> KIND =
      JobOption.choice(
          "kind",
          null,
          "what to build: ips (the text of 'spindex build ips'; docs/FORMAT.md)",
          "ips");
  static final JobOption<String> OUTPUT =
      JobOption.text(
          "output", null, "index file to write (any Hadoop path), replaced atomically when done");
  static final JobOption<Boolean> STRICT =
      JobOption.bool("strict", "false", "fail on the first rejected line, before writing");
  static final JobOption<Boolean> PREFIX_TABLE =
      JobOption.bool("prefix-table", "true", "write the /16 prefix table (as the CLI does)");
  static final JobOption<Long> PARTITIONS =
      JobOption.integer(
          "partitions", "0", "sort partitions (0: as many as input splits)", 0, 1_000_000);

  static final List<JobOption<?>> OPTIONS =
      Arrays.asList(
          KIND, LineJob.INPUT, OUTPUT, STRICT, PREFIX_TABLE, PARTITIONS, LineJob.SPLIT_MB);

  /** Beside the index: the summary and the rejects of its last build. */
  static final String WORK_SUFFIX = ".build";

  private BuildIndexJob() {}

  static JobResult run(SparkSession spark, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    JobArgs o = SparkLineJobs.parse(sc, NAME, OPTIONS, args);
    long t0 = System.nanoTime();
    Configuration conf = new Configuration(sc.hadoopConfiguration());
    String input = o.get(LineJob.INPUT);
    Path out = new Path(o.get(OUTPUT));
    FileSystem outFs = out.getFileSystem(conf);
    out = outFs.makeQualified(out);
    Path work = new Path(out.getParent(), out.getName() + WORK_SUFFIX);
    List<FileStatus> files = HadoopIo.inputFiles(conf, input);
    for (FileStatus f : files) {
      if (f.getPath().equals(out)) {
        throw new io.spindex.job.UsageException(
            NAME + ": --output " + out + " is also an input; write the index elsewhere");
      }
    }
    outFs.delete(work, true); // what an earlier build of this index left
    outFs.mkdirs(out.getParent());
    long sourceBytes = 0;
    for (FileStatus f : files) {
      sourceBytes += f.getLen();
    }
    // The source digest, as the CLI records it: SHA-256 of the stored bytes in input order. It
    // reads every byte once on the driver, while the executors parse.
    CompletableFuture<byte[]> digest =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return sha256(conf, files);
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });

    double splitMb = o.get(LineJob.SPLIT_MB);
    if (splitMb > 0) {
      conf.setLong(FileInputFormat.SPLIT_MAXSIZE, (long) (splitMb * (1 << 20)));
    }
    @SuppressWarnings("unchecked")
    JavaNewHadoopRDD<LongWritable, LineChunk> in =
        (JavaNewHadoopRDD<LongWritable, LineChunk>)
            sc.newAPIHadoopFile(
                input, LineChunkInputFormat.class, LongWritable.class, LineChunk.class, conf);
    JavaRDD<IpListPart> parts =
        in.mapPartitionsWithInputSplit(
                (split, chunks) -> {
                  IpListPart.Parser p =
                      new IpListPart.Parser(HadoopIo.splitName(split), split.getLength());
                  while (chunks.hasNext()) {
                    LineChunk c = chunks.next()._2();
                    p.lines(c.bytes(), 0, c.length(), c.offset());
                  }
                  return Collections.singletonList(p.finish()).iterator();
                },
                true)
            .persist(StorageLevel.MEMORY_AND_DISK());
    try {
      return build(sc, o, parts, files, sourceBytes, digest, out, work, t0);
    } finally {
      parts.unpersist(false);
    }
  }

  private static JobResult build(
      JavaSparkContext sc,
      JobArgs o,
      JavaRDD<IpListPart> parts,
      List<FileStatus> files,
      long sourceBytes,
      CompletableFuture<byte[]> digestFuture,
      Path out,
      Path work,
      long t0)
      throws IOException {
    Map<String, Long> phases = new LinkedHashMap<>();
    // Parse (the first action) and bring the counts, rejects' first line and IPv6 keys home.
    List<IpListPart> counts = parts.map(IpListPart::withoutKeys).collect();
    long t1 = System.nanoTime();
    phases.put("parse ms", (t1 - t0) / 1_000_000);
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
    if (o.get(STRICT) && rejected > 0) {
      throw new InputException(
          "rejected line (--strict): " + firstReject + " (" + IpListPart.EXPECTED + ")");
    }
    if (rejected > 0) {
      parts
          .filter(p -> p.rejectRecords.length > 0)
          .mapToPair(
              p -> new Tuple2<>(NullWritable.get(), new Text(p.rejectRecordsWithoutLastLf())))
          .saveAsNewAPIHadoopFile(
              new Path(work, "_rejects").toString(),
              NullWritable.class,
              Text.class,
              TextOutputFormat.class,
              sc.hadoopConfiguration());
    }

    // Range partitioning: cut the /16 blocks where the running count passes each equal share.
    int[] histogram = parts.map(IpListPart::histogram).reduce(BuildIndexJob::add);
    int partitions = o.get(PARTITIONS) > 0 ? o.get(PARTITIONS).intValue() : counts.size();
    int[] cuts = cuts(histogram, Math.max(1, partitions));
    int n = cuts.length + 1;
    Path keysDir = new Path(work, "_keys");
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
                  writeKeys(hadoopConf.get(), new Path(keysUri, part(r)), keys);
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
    long t2 = System.nanoTime();
    phases.put("sort ms", (t2 - t1) / 1_000_000);
    long[] hi6 = new long[count6];
    long[] lo6 = new long[count6];
    int at6 = 0;
    for (IpListPart p : counts) {
      System.arraycopy(p.hi6, 0, hi6, at6, p.count6);
      System.arraycopy(p.lo6, 0, lo6, at6, p.count6);
      at6 += p.count6;
    }
    try (KeyFiles keys = new KeyFiles(sc.hadoopConfiguration(), keysDir, partRows)) {
      IpSetBuilder b = new IpSetBuilder().prefixTable(o.get(PREFIX_TABLE));
      Long created = createdMillis();
      if (created != null) {
        b.createdMillis(created);
      }
      IpSetBuilder.Assembled index =
          b.assembleMerged(
              keys,
              blockCounts,
              hi6,
              lo6,
              count6,
              lines,
              skipped,
              accepted,
              rejected,
              sourceBytes,
              get(digestFuture));
      IndexHeader header = write(index, out, sc.hadoopConfiguration());
      long t4 = System.nanoTime();
      phases.put("write ms", (t4 - t2) / 1_000_000);

      Report r = new Report(NAME).put("kind", o.get(KIND)).put("input", o.get(LineJob.INPUT));
      r.put("files", files.size()).put("splits", counts.size()).put("partitions", cuts.length + 1);
      index.counts.forEach(r::put);
      rejectCounts.forEach((k, v) -> r.put("rejected: " + k, v));
      r.put("output", out.toString()).put("index bytes", header.fileLength());
      r.put("source sha256", header.sourceDigestHex());
      if (rejected > 0) {
        r.put("rejects", new Path(work, "_rejects").toString());
      }
      phases.forEach(r::put);
      r.put("seconds", (t4 - t0) / 1e9);
      boolean reconciles = lines == skipped + accepted + rejected;
      r.put("reconciles", reconciles ? "yes" : "NO: lines != skipped + accepted + rejected");
      HadoopIo.writeText(sc.hadoopConfiguration(), new Path(work, HadoopIo.SUMMARY), r.toJson());
      Map<String, Long> totals = new TreeMap<>(index.counts);
      return new JobResult(r, totals, Collections.emptyList(), Collections.emptyMap(), reconciles);
    } finally {
      keysDir.getFileSystem(sc.hadoopConfiguration()).delete(keysDir, true);
    }
  }

  private static String part(int r) {
    return String.format(java.util.Locale.ROOT, "part-%05d", r);
  }

  /** Writes {@code keys} little-endian to {@code file}, replacing it (a retried task's). */
  private static void writeKeys(Configuration conf, Path file, int[] keys) throws IOException {
    try (java.io.OutputStream out = file.getFileSystem(conf).create(file, true)) {
      ByteBuffer b = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
      IntBuffer ints = b.asIntBuffer();
      for (int at = 0; at < keys.length; ) {
        int k = Math.min(ints.capacity(), keys.length - at);
        ints.clear();
        ints.put(keys, at, k);
        out.write(b.array(), 0, k * 4);
        at += k;
      }
    }
  }

  /** The sorted partitions' key files, read in order as the index writer asks for keys. */
  private static final class KeyFiles implements IndexWriter.IntRuns, java.io.Closeable {
    private final Configuration conf;
    private final Path dir;
    private final long[] rows;
    private final byte[] buf = new byte[1 << 20];
    private int file = -1;
    private long leftInFile;
    private long next;
    private InputStream in;

    KeyFiles(Configuration conf, Path dir, long[] rows) {
      this.conf = conf;
      this.dir = dir;
      this.rows = rows;
    }

    @Override
    public void fill(long first, int[] into, int n) {
      if (first != next) {
        throw new IllegalStateException("keys read out of order: " + first + ", not " + next);
      }
      try {
        for (int at = 0; at < n; ) {
          while (leftInFile == 0) {
            close();
            Path p = new Path(dir, part(++file));
            in = p.getFileSystem(conf).open(p);
            leftInFile = rows[file];
          }
          int k = (int) Math.min(Math.min(n - at, leftInFile), buf.length / 4);
          org.apache.hadoop.io.IOUtils.readFully(in, buf, 0, k * 4);
          ByteBuffer.wrap(buf, 0, k * 4)
              .order(ByteOrder.LITTLE_ENDIAN)
              .asIntBuffer()
              .get(into, at, k);
          at += k;
          leftInFile -= k;
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      next += n;
    }

    @Override
    public void close() throws IOException {
      if (in != null) {
        in.close();
        in = null;
      }
    }
  }

  /**
   * The first /16 block of each partition after the first: where the running count of {@code
   * histogram} reaches each of {@code partitions} equal shares. Fewer cuts when blocks are few.
   */
  static int[] cuts(int[] histogram, int partitions) {
    long total = 0;
    for (int c : histogram) {
      total += c;
    }
    List<Integer> cuts = new ArrayList<>();
    long running = 0;
    int next = 1;
    for (int block = 0; block < 65536 && next < partitions; block++) {
      if (running >= total * next / partitions && running > 0 && running < total) {
        cuts.add(block);
        while (next < partitions && running >= total * next / partitions) {
          next++;
        }
      }
      running += histogram[block];
    }
    return cuts.stream().mapToInt(Integer::intValue).toArray();
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

  /** SOURCE_DATE_EPOCH (seconds), as the CLI honours it, for reproducible files. */
  private static Long createdMillis() {
    String epoch = System.getenv("SOURCE_DATE_EPOCH");
    return epoch == null || epoch.trim().isEmpty() ? null : Long.parseLong(epoch.trim()) * 1000;
  }

  /**
   * Writes the index atomically to {@code out}: directly on the local file system (the writer
   * renames a temporary file in the same directory); elsewhere, written locally, copied beside the
   * target under a hidden name and renamed over it.
   */
  private static IndexHeader write(IpSetBuilder.Assembled index, Path out, Configuration conf)
      throws IOException {
    FileSystem fs = out.getFileSystem(conf);
    if ("file".equals(fs.getUri().getScheme())) {
      return index.writer.writeTo(java.nio.file.Paths.get(out.toUri()));
    }
    java.nio.file.Path local = Files.createTempFile("spindex-build-", ".spx");
    try {
      IndexHeader h = index.writer.writeTo(local);
      Path tmp = new Path(out.getParent(), "." + out.getName() + "." + UUID.randomUUID() + ".tmp");
      fs.copyFromLocalFile(false, true, new Path(local.toUri()), tmp);
      try {
        FileContext.getFileContext(out.toUri(), conf).rename(tmp, out, Options.Rename.OVERWRITE);
      } catch (IOException e) {
        fs.delete(tmp, false);
        throw e;
      }
      return h;
    } finally {
      Files.deleteIfExists(local);
    }
  }

  private static byte[] sha256(Configuration conf, List<FileStatus> files) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    byte[] buf = new byte[1 << 20];
    for (FileStatus f : files) {
      try (InputStream in = f.getPath().getFileSystem(conf).open(f.getPath())) {
        for (int n; (n = in.read(buf)) >= 0; ) {
          md.update(buf, 0, n);
        }
      }
    }
    return md.digest();
  }

  private static byte[] get(CompletableFuture<byte[]> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof java.io.UncheckedIOException) {
        throw ((java.io.UncheckedIOException) e.getCause()).getCause();
      }
      throw new IOException(e.getCause());
    }
  }
}
