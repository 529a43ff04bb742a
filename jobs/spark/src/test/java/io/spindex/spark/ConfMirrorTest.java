/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.LineJob;
import io.spindex.job.UsageException;
import io.spindex.spark.side.SpindexConf;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/** conf/spindex-jobs.conf lists every option of every job with its default. */
class ConfMirrorTest {
  @Test
  void everyOptionIsInTheCommentedDefaults() throws Exception {
    Path conf = SparkTests.repo("conf", "spindex-jobs.conf");
    String text = new String(Files.readAllBytes(conf), StandardCharsets.UTF_8);
    Map<String, String> all = new LinkedHashMap<>();
    for (LineJob<?> job :
        Arrays.asList(
            new IpLookupDefinition(), new EpTransformDefinition(), new EpDiffDefinition())) {
      for (JobOption<?> o : job.options()) {
        all.put(o.name(), o.defaultValue());
      }
    }
    for (List<JobOption<?>> options :
        Arrays.asList(io.spindex.job.LoaderCompareDefinition.OPTIONS, GenLogsJob.OPTIONS)) {
      for (JobOption<?> o : options) {
        all.putIfAbsent(o.name(), o.defaultValue());
      }
    }
    for (Map.Entry<String, String> k : all.entrySet()) {
      String key = "# " + SpindexConf.jobKey(k.getKey()) + " ";
      assertTrue(text.contains(key), key);
      String def = k.getValue();
      if (def != null && !def.isEmpty()) {
        assertTrue(
            text.matches(
                    "(?s).*"
                        + java.util.regex.Pattern.quote(key)
                        + " *"
                        + java.util.regex.Pattern.quote(def)
                        + "\\b.*")
                || text.contains(key.trim() + " " + def),
            k.getKey() + " default " + def);
      }
    }
  }

  @Test
  void usageNamesEveryOption() {
    IpLookupDefinition job = new IpLookupDefinition();
    String usage = job.usage(SparkLineJobs.HINT);
    for (JobOption<?> o : job.options()) {
      assertTrue(usage.contains("--" + o.name()), usage);
    }
  }

  /**
   * The jobs' default --index is spark.spindex.job.index; the old spark.spindex.index still works,
   * with one deprecation line; a SQL index name (spark.spindex.index.NAME) is not a job default.
   */
  @Test
  void theJobsIndexHasAKeyOfItsOwnAndTheOldOneStillWorks() {
    IpLookupDefinition job = new IpLookupDefinition();
    assertEquals(
        "new.spx", jobIndex(new SparkConf(false).set(SpindexConf.JOB_INDEX, "new.spx"), ""));
    assertEquals(
        "old.spx",
        jobIndex(
            new SparkConf(false).set("spark.spindex.index", "old.spx"),
            "spark.spindex.index is deprecated: use spark.spindex.job.index\n"));
    assertEquals(
        "new.spx",
        jobIndex(
            new SparkConf(false)
                .set("spark.spindex.index", "old.spx")
                .set("spark.spindex.job.index", "new.spx"),
            "spark.spindex.index is deprecated: use spark.spindex.job.index (set too:"
                + " spark.spindex.index is ignored)\n"));
    UsageException e =
        assertThrows(
            UsageException.class,
            () ->
                SparkLineJobs.parse(
                    new SparkConf(false).set("spark.spindex.index.geo", "geo.spx"),
                    job.name(),
                    job.options(),
                    new String[] {"--input", "in", "--output", "out"},
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().contains("option --index is required"), e.getMessage());
    assertTrue(SparkLineJobs.HINT.contains(SpindexConf.JOB_INDEX), SparkLineJobs.HINT);
  }

  /** ip-lookup's --index from {@code conf}, checking what went to stderr. */
  private static String jobIndex(SparkConf conf, String wantErr) {
    IpLookupDefinition job = new IpLookupDefinition();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    JobArgs a =
        SparkLineJobs.parse(
            conf,
            job.name(),
            job.options(),
            new String[] {"--input", "in", "--output", "out"},
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(
        wantErr.replace("\n", System.lineSeparator()),
        new String(err.toByteArray(), StandardCharsets.UTF_8));
    return a.get(IpLookupDefinition.INDEX_OPTION);
  }
}
