/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import io.spindex.hadoop.HadoopDriver;
import io.spindex.hadoop.HadoopIo;
import io.spindex.hadoop.LineChunk;
import io.spindex.hadoop.LineChunkInputFormat;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.LineJob;
import io.spindex.job.LoaderCompareDefinition;
import io.spindex.job.Settings;
import io.spindex.job.SideFile;
import io.spindex.job.UsageException;
import io.spindex.lookup.Report;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.LazyOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.apache.hadoop.util.Tool;

/**
 * Runs a {@link LineJob} on MapReduce as a {@link Tool}: the job's plan on the client, its record
 * loop in every map task ({@link LineJobMapper}), its summary after. The plan travels in the job
 * configuration (serialized); side data in the distributed cache; counts as counters of the {@value
 * #GROUP} group, named as the job names them. Count mode sums per-key counts with a combiner and
 * reducers. Exit codes: 0 ok, 1 bad input / I/O / counts that do not reconcile, 2 usage (0 for
 * {@code --help}); a user's mistake is one line, never a stack trace.
 *
 * @param <P> the job's plan
 */
class LineJobTool<P extends LineJob.Plan> extends Configured implements Tool {
  /** The counter group of every line job's counts. */
  public static final String GROUP = "Spindex";

  /**
   * The counter group of the index versions tasks answered from: one counter a version (index name,
   * header checksum, source SHA-256 prefix, when the index was built and when its source was),
   * counting the tasks.
   */
  public static final String VERSIONS_GROUP = "Spindex index versions";

  /** Prefix of Spindex's settings in the Hadoop configuration. */
  static final String CONF_PREFIX = "spindex.";

  /**
   * The MapReduce settings: {@code spindex.<option>} for every option of every job (the index too:
   * {@code -D spindex.index=PATH}), and {@code spindex.versions}. Any other {@code spindex.} key is
   * refused before a job starts.
   */
  static final Settings SETTINGS =
      Settings.of(
          CONF_PREFIX,
          union(
              Settings.optionNames(
                  Arrays.asList(
                      new IpLookupDefinition().options(),
                      LoaderCompareDefinition.OPTIONS,
                      new EpTransformDefinition().options(),
                      new EpDiffDefinition().options())),
              "versions"),
          Collections.emptyList());

  /**
   * The prefix of what the tool writes for its tasks into the job's configuration: Hadoop's per-job
   * namespace, which no user sets, never the users' {@code spindex.}.
   */
  static final String INTERNAL_PREFIX = "mapreduce.job.spindex.";

  /** The job definition's class, for the tasks. */
  static final String CONF_JOB = INTERNAL_PREFIX + "definition";

  /** The serialized plan, for the tasks. */
  static final String CONF_PLAN = INTERNAL_PREFIX + "plan";

  static final String HINT =
      "Generic options (-D, -conf, -files, -libjars) go before these; defaults can also be set as"
          + " -D spindex.<option>=<value>.";

  private static Set<String> union(Set<String> names, String... more) {
    names.addAll(Arrays.asList(more));
    return names;
  }

  /** Where count mode's reducers write the summed counts before the client sorts them. */
  static final String COUNTS_DIR = "_partial-counts";

  final LineJob<P> definition;

  /** The finished job, its counters and its summary (for callers that run the tool in-process). */
  Job job;

  Counters counters;
  Report report;

  /** The map task's class: {@link LineJobMapper}, or in tests one that injects a fault. */
  Class<? extends Mapper<LongWritable, LineChunk, Writable, Writable>> mapperClass =
      LineJobMapper.class;

  LineJobTool(LineJob<P> definition) {
    this.definition = definition;
  }

  /**
   * Parses {@code args} against {@code options} with the settings of {@code conf} ({@link
   * #SETTINGS}): an unknown {@code spindex.} key is a usage error, {@code spindex.<option>} a
   * default. Every MapReduce job (line jobs and loader-compare) reads its options here.
   */
  static JobArgs parse(String job, List<JobOption<?>> options, String[] args, Configuration conf) {
    List<String> keys = new ArrayList<>();
    for (Map.Entry<String, String> e : conf) {
      keys.add(e.getKey());
    }
    return SETTINGS.parse(job, options, args, conf::get, keys, HINT);
  }

  @Override
  public final int run(String[] args) throws Exception {
    Configuration conf = new Configuration(getConf());
    try {
      JobArgs a = parse(definition.name(), definition.options(), args, conf);
      HadoopIo.requireNoOutput(conf, a.get(LineJob.OUTPUT));
      HadoopIo.inputFiles(conf, a.get(LineJob.INPUT));
      MrDriver driver = new MrDriver(conf);
      P plan = definition.plan(a, driver);
      return run(a, plan, driver, conf);
    } catch (UsageException | IOException e) {
      return io.spindex.job.Dispatcher.failed(definition.name(), e, System.out, System.err);
    }
  }

  private int run(JobArgs a, P plan, MrDriver driver, Configuration conf) throws Exception {
    double splitMb = a.get(LineJob.SPLIT_MB);
    if (splitMb > 0) {
      conf.setLong(FileInputFormat.SPLIT_MAXSIZE, (long) (splitMb * (1 << 20)));
    }
    conf.set(CONF_JOB, definition.getClass().getName());
    conf.set(CONF_PLAN, serialize(plan));
    String output = a.get(LineJob.OUTPUT);
    Job job = Job.getInstance(conf, "spindex " + definition.name());
    job.setJarByClass(LineJobTool.class);
    for (URI u : driver.cacheFiles) {
      job.addCacheFile(u);
    }
    job.setInputFormatClass(LineChunkInputFormat.class);
    FileInputFormat.addInputPaths(job, a.get(LineJob.INPUT));
    FileOutputFormat.setOutputPath(job, new Path(output));
    LazyOutputFormat.setOutputFormatClass(job, TextOutputFormat.class);
    job.setMapperClass(mapperClass);
    for (String named : LineJobMapper.NAMED_OUTPUTS) {
      MultipleOutputs.addNamedOutput(
          job, named, TextOutputFormat.class, NullWritable.class, Text.class);
    }
    if (plan.gzip()) {
      FileOutputFormat.setCompressOutput(job, true);
      FileOutputFormat.setOutputCompressorClass(job, GzipCodec.class);
    }
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(Text.class);
    if (plan.countsByKey()) {
      job.setMapOutputKeyClass(Text.class);
      job.setMapOutputValueClass(LongWritable.class);
      job.setCombinerClass(LongSumReducer.class);
      job.setReducerClass(CountSumReducer.class);
      int reducers = plan.countTasks();
      job.setNumReduceTasks(reducers);
    }
    configure(job, plan);

    long t0 = System.nanoTime();
    boolean ok = job.waitForCompletion(true);
    this.job = job;
    counters = job.getCounters();
    if (!ok || counters == null) {
      String why = TaskFailures.userMessage(job, output);
      HadoopIo.removeFailedOutput(conf, output);
      System.err.println(
          "spindex "
              + definition.name()
              + ": "
              + (why != null
                  ? why
                  : "job " + job.getJobID() + " failed: " + job.getStatus().getFailureInfo()));
      return 1;
    }
    Configuration jc = job.getConfiguration();
    // An attempt that failed on its input and was retried with success left its message.
    Path failures = new Path(output, TaskFailures.DIR);
    failures.getFileSystem(jc).delete(failures, true);
    List<Object[]> countRows = Collections.emptyList();
    if (plan.countsByKey()) {
      countRows =
          HadoopIo.writeCounts(jc, output, HadoopIo.readCounts(jc, new Path(output, COUNTS_DIR)));
    }
    finishOutputs(job, plan);
    if (plan.singleFile() != null) {
      HadoopIo.mergeParts(
          jc, output, plan.singleFileHeader(), plan.singleFile(), plan.singleFileParts());
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    Report r = new Report(definition.name());
    r.put("job", job.getJobID().toString());
    r.put("input", a.get(LineJob.INPUT)).put("output", output).put("seconds", seconds);
    boolean balanced = definition.summarize(plan, a, totals(counters), countRows, r);
    System.out.print(r.toText());
    HadoopIo.writeSummary(jc, output, r);
    report = r;
    return balanced ? 0 : 1;
  }

  /** A job's extra set-up (ep-diff's delete reducers). */
  void configure(Job job, P plan) throws IOException {}

  /** A job's extra output work after it finished (ep-diff's D parts). */
  void finishOutputs(Job job, P plan) throws IOException {}

  /** The counts of every task, by name. */
  static Map<String, Long> totals(Counters counters) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (Counter c : counters.getGroup(GROUP)) {
      m.put(c.getName(), c.getValue());
    }
    return m;
  }

  static String serialize(java.io.Serializable plan) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(plan);
    }
    return Base64.getEncoder().encodeToString(b.toByteArray());
  }

  static Object deserialize(String text) throws IOException {
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
      return in.readObject();
    } catch (ClassNotFoundException e) {
      throw new IOException("job plan: " + e.getMessage(), e);
    }
  }

  /**
   * The MapReduce client: files given with {@code -files} (ToolRunner puts them in {@code
   * tmpfiles}), or added to the distributed cache as {@code uri#name}; a staged Hadoop path goes
   * through the cache too, so the node manager localises it once per node.
   */
  static final class MrDriver extends HadoopDriver {
    final List<URI> cacheFiles = new ArrayList<>();

    MrDriver(Configuration conf) {
      super(conf);
    }

    @Override
    protected URI shipped(String path) {
      for (String f : conf.getTrimmedStrings("tmpfiles")) {
        URI u = URI.create(f);
        String name = u.getFragment() != null ? u.getFragment() : new Path(u.getPath()).getName();
        boolean samePath =
            "file".equals(u.getScheme())
                && Paths.get(path).toAbsolutePath().toUri().getPath().equals(u.getPath());
        if (name.equals(path) || samePath) {
          return u;
        }
      }
      return null;
    }

    @Override
    protected String ship(java.nio.file.Path file) throws IOException {
      String name = file.getFileName().toString();
      cacheFiles.add(withName(file.toUri(), name));
      return name;
    }

    @Override
    protected void staged(SideFile f) {
      try {
        cacheFiles.add(withName(new URI(f.location()), new Path(f.location()).getName()));
      } catch (URISyntaxException | IOException e) {
        throw new IllegalArgumentException(f.location() + ": " + e.getMessage(), e);
      }
    }

    private static URI withName(URI u, String name) throws IOException {
      try {
        return new URI(u.getScheme(), u.getAuthority(), u.getPath(), null, name);
      } catch (URISyntaxException e) {
        throw new IOException(u + ": " + e.getMessage(), e);
      }
    }
  }
}
