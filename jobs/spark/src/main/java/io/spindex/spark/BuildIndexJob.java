/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import io.spindex.builder.Assembled;
import io.spindex.builder.IpListPart;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.builder.OverlapPolicy;
import io.spindex.builder.SplitParser;
import io.spindex.builder.SplitPart;
import io.spindex.ep.TransformSpec;
import io.spindex.hadoop.HadoopIo;
import io.spindex.hadoop.LineChunk;
import io.spindex.hadoop.LineChunkInputFormat;
import io.spindex.index.IndexHeader;
import io.spindex.index.IndexWriter;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.LineJob;
import io.spindex.job.UsageException;
import io.spindex.lookup.Report;
import io.spindex.spark.side.HadoopConf;
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
import java.util.Comparator;
import java.util.HashMap;
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
          "what to build: ips, ranges or products (the texts of 'spindex build"
              + " ips|ranges|products')",
          "ips",
          "ranges",
          "products");
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

  static final JobOption<Character> DELIMITER =
      JobOption.of(
          "delimiter",
          "detect",
          "ranges: field delimiter, one character or 'tab' (detect: tab, '|' or ',' per file)",
          BuildRangesJob::delimiter);
  static final JobOption<OverlapPolicy> ON_OVERLAP =
      JobOption.of(
          "on-overlap",
          "fail",
          "ranges: fail (names both lines), narrowest, first or last (by input order)",
          OverlapPolicy::parse);
  static final JobOption<List<String>> LABEL_FIELDS =
      JobOption.of(
          "label-fields",
          "none",
          "ranges: the fields a label is made of, e.g. country,region,city,isp",
          v -> v.trim().equals("none") ? List.of() : Arrays.asList(v.split(",", -1)));
  static final JobOption<Boolean> LABEL_FIELDS_FROM_HEADER =
      JobOption.bool(
          "label-fields-from-header", "false", "ranges: take the label fields from the header");
  static final JobOption<String> LABEL_DELIMITER =
      JobOption.text("label-delimiter", "|", "ranges: what separates the label fields");

  static final JobOption<List<String>> INT_FIELD =
      JobOption.of(
          "int-field",
          "none",
          "products: fields also stored as int columns, comma-separated (e.g. review_count)",
          v -> v.trim().equals("none") ? List.of() : Arrays.asList(v.split(",", -1)));
  static final JobOption<Long> MAX_LINE_BYTES =
      JobOption.integer(
          "max-line-bytes",
          String.valueOf(TransformSpec.DEFAULT_MAX_LINE_BYTES),
          "products: longest accepted line in bytes",
          1,
          io.spindex.text.LineReader.MAX_LINE_BYTES);

  static final List<JobOption<?>> OPTIONS =
      Arrays.asList(
          KIND,
          LineJob.INPUT,
          OUTPUT,
          STRICT,
          PREFIX_TABLE,
          PARTITIONS,
          LineJob.SPLIT_MB,
          DELIMITER,
          ON_OVERLAP,
          LABEL_FIELDS,
          LABEL_FIELDS_FROM_HEADER,
          LABEL_DELIMITER,
          INT_FIELD,
          MAX_LINE_BYTES);

  /** The options only one kind takes, by kind. */
  private static final Map<String, List<JobOption<?>>> KIND_OPTIONS =
      Map.of(
          "ips",
          List.of(),
          "ranges",
          List.of(DELIMITER, ON_OVERLAP, LABEL_FIELDS, LABEL_FIELDS_FROM_HEADER, LABEL_DELIMITER),
          "products",
          List.of(INT_FIELD, MAX_LINE_BYTES));

  /** Beside the index: the summary and the rejects of its last build. */
  static final String WORK_SUFFIX = ".build";

  private BuildIndexJob() {}

  static JobResult run(SparkSession spark, String[] args) throws Exception {
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    JobArgs o = SparkLineJobs.parse(sc, NAME, OPTIONS, args);
    String kind = o.get(KIND);
    // Every usage mistake before anything is read or created.
    KIND_OPTIONS.forEach(
        (k, options) -> {
          for (JobOption<?> opt : k.equals(kind) ? List.<JobOption<?>>of() : options) {
            if (!o.text(opt).equals(opt.defaultValue())) {
              throw new UsageException(NAME + ": --" + opt.name() + " is for --kind " + k);
            }
          }
        });
    IpRangeBuilder rangeBuilder = kind.equals("ranges") ? BuildRangesJob.builder(o) : null;
    Run r = new Run(sc, o);
    double splitMb = o.get(LineJob.SPLIT_MB);
    if (splitMb > 0) {
      r.conf.setLong(FileInputFormat.SPLIT_MAXSIZE, (long) (splitMb * (1 << 20)));
    }
    @SuppressWarnings("unchecked")
    JavaNewHadoopRDD<LongWritable, LineChunk> in =
        (JavaNewHadoopRDD<LongWritable, LineChunk>)
            sc.newAPIHadoopFile(
                o.get(LineJob.INPUT),
                LineChunkInputFormat.class,
                LongWritable.class,
                LineChunk.class,
                r.conf);
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

  /**
   * What every kind of build shares: the options, the inputs (their files in name order, total size
   * and digest, which the driver reads while the executors parse), the output and its work
   * directory beside it, and the times of the phases.
   */
  static final class Run {
    final JavaSparkContext sc;
    final JobArgs o;
    final Configuration conf;
    final List<FileStatus> files;
    final long sourceBytes;
    final CompletableFuture<byte[]> digest;
    final Path out;
    final Path work;
    final long t0 = System.nanoTime();
    final Map<String, Long> phases = new LinkedHashMap<>();
    private long lastPhase = t0;

    Run(JavaSparkContext sc, JobArgs o) throws IOException {
      this.sc = sc;
      this.o = o;
      this.conf = new Configuration(sc.hadoopConfiguration());
      Path target = new Path(o.get(OUTPUT));
      FileSystem outFs = target.getFileSystem(conf);
      this.out = outFs.makeQualified(target);
      this.work = new Path(out.getParent(), out.getName() + WORK_SUFFIX);
      this.files = HadoopIo.inputFiles(conf, o.get(LineJob.INPUT));
      long bytes = 0;
      for (FileStatus f : files) {
        if (f.getPath().equals(out)) {
          throw new UsageException(
              NAME + ": --output " + out + " is also an input; write the index elsewhere");
        }
        bytes += f.getLen();
      }
      this.sourceBytes = bytes;
      outFs.delete(work, true); // what an earlier build of this index left
      outFs.mkdirs(out.getParent());
      // The source digest, as the CLI records it: SHA-256 of the stored bytes in input order. It
      // reads every byte once on the driver, while the executors parse.
      this.digest =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return sha256(conf, files);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
    }

    /** Each split parsed on the executors into one part. */
    <P> JavaRDD<P> parts(JavaNewHadoopRDD<LongWritable, LineChunk> in, Parsers<P> parsers) {
      Map<String, Integer> fileIndex = new HashMap<>();
      for (FileStatus f : files) {
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
        phase("parse ms");
        long rejected = 0;
        String firstReject = null;
        for (P p : ordered) {
          p.rejectCounts.forEach((k, v) -> rejectCounts.merge(k, v, Long::sum));
          rejected += p.rejected();
          firstReject = firstReject == null ? p.firstReject : firstReject;
        }
        strict(rejected, firstReject, expected);
        if (rejected > 0) {
          writeRejects(parts.map(SplitPart::rejectRecordsWithoutLastLf));
        }
        return ordered;
      } finally {
        parts.unpersist(false);
      }
    }

    /** Ends a phase: its time in ms goes to the summary under {@code name}. */
    void phase(String name) {
      long now = System.nanoTime();
      phases.put(name, (now - lastPhase) / 1_000_000);
      lastPhase = now;
    }

    /** Fails a strict build on its first rejected line, before anything is written. */
    void strict(long rejected, String firstReject, String expected) throws InputException {
      if (o.get(STRICT) && rejected > 0) {
        throw new InputException(
            "rejected line (--strict): " + firstReject + " (" + expected + ")");
      }
    }

    /** Writes the reject records of every split to {@code OUT.build/_rejects/}. */
    void writeRejects(JavaRDD<byte[]> records) {
      records
          .filter(b -> b.length > 0)
          .mapToPair(b -> new Tuple2<>(NullWritable.get(), new Text(b)))
          .saveAsNewAPIHadoopFile(
              new Path(work, "_rejects").toString(),
              NullWritable.class,
              Text.class,
              TextOutputFormat.class,
              sc.hadoopConfiguration());
    }

    /**
     * Writes the index atomically and the summary beside it; the build reconciles when every line
     * read was skipped, accepted or rejected.
     */
    JobResult finish(Assembled index, Map<String, Long> rejectCounts, Report r) throws IOException {
      IndexHeader header = write(index, out, sc.hadoopConfiguration());
      phase("write ms");
      index.counts.forEach(r::put);
      rejectCounts.forEach((k, v) -> r.put("rejected: " + k, v));
      r.put("output", out.toString()).put("index bytes", header.fileLength());
      r.put("source sha256", header.sourceDigestHex());
      long rejected = index.counts.get("rejected");
      if (rejected > 0) {
        r.put("rejects", new Path(work, "_rejects").toString());
      }
      phases.forEach(r::put);
      r.put("seconds", (System.nanoTime() - t0) / 1e9);
      Map<String, Long> c = index.counts;
      boolean reconciles =
          c.get("lines") == c.get("skipped") + c.get("accepted") + c.get("rejected");
      r.put("reconciles", reconciles ? "yes" : "NO: lines != skipped + accepted + rejected");
      HadoopIo.writeText(sc.hadoopConfiguration(), new Path(work, HadoopIo.SUMMARY), r.toJson());
      Map<String, Long> totals = new TreeMap<>(index.counts);
      return new JobResult(r, totals, Collections.emptyList(), Collections.emptyMap(), reconciles);
    }

    Report report(int splits) {
      return new Report(NAME)
          .put("kind", o.get(KIND))
          .put("input", o.get(LineJob.INPUT))
          .put("files", files.size())
          .put("splits", splits);
    }
  }

  private static JobResult build(Run run, JavaRDD<IpListPart> parts) throws IOException {
    JavaSparkContext sc = run.sc;
    // Parse (the first action) and bring the counts, rejects' first line and IPv6 keys home.
    List<IpListPart> counts = parts.map(IpListPart::withoutKeys).collect();
    run.phase("parse ms");
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
    run.strict(rejected, firstReject, IpListPart.EXPECTED);
    if (rejected > 0) {
      run.writeRejects(parts.map(IpListPart::rejectRecordsWithoutLastLf));
    }

    // Range partitioning: cut the /16 blocks where the running count passes each equal share.
    int[] histogram = parts.map(IpListPart::histogram).reduce(BuildIndexJob::add);
    int partitions = run.o.get(PARTITIONS) > 0 ? run.o.get(PARTITIONS).intValue() : counts.size();
    int[] cuts = cuts(histogram, Math.max(1, partitions));
    int n = cuts.length + 1;
    Path keysDir = new Path(run.work, "_keys");
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
    run.phase("sort ms");
    long[] hi6 = new long[count6];
    long[] lo6 = new long[count6];
    int at6 = 0;
    for (IpListPart p : counts) {
      System.arraycopy(p.hi6, 0, hi6, at6, p.count6);
      System.arraycopy(p.lo6, 0, lo6, at6, p.count6);
      at6 += p.count6;
    }
    try (KeyFiles keys = new KeyFiles(sc.hadoopConfiguration(), keysDir, partRows)) {
      IpSetBuilder b = new IpSetBuilder().prefixTable(run.o.get(PREFIX_TABLE));
      Long created = createdMillis();
      if (created != null) {
        b.createdMillis(created);
      }
      Assembled index =
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
              run.sourceBytes,
              get(run.digest));
      return run.finish(
          index, rejectCounts, run.report(counts.size()).put("partitions", cuts.length + 1));
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
  static Long createdMillis() {
    String epoch = System.getenv("SOURCE_DATE_EPOCH");
    return epoch == null || epoch.trim().isEmpty() ? null : Long.parseLong(epoch.trim()) * 1000;
  }

  /**
   * Writes the index atomically to {@code out}: directly on the local file system (the writer
   * renames a temporary file in the same directory); elsewhere, written locally, copied beside the
   * target under a hidden name and renamed over it.
   */
  private static IndexHeader write(Assembled index, Path out, Configuration conf)
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

  static byte[] get(CompletableFuture<byte[]> f) throws IOException {
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
