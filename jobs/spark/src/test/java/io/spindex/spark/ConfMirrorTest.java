/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.job.BuildIndexDefinition;
import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.Settings;
import io.spindex.job.UsageException;
import io.spindex.spark.side.SpindexConf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/**
 * conf/spindex-jobs.conf lists every Spark setting: every option of every job with its default, and
 * the engine's own settings; it and spark-defaults.conf name no key that is not a setting.
 */
class ConfMirrorTest {
  /** Every job's option table, by job, in the dispatcher's order. */
  static Map<String, List<JobOption<?>>> tables() {
    Map<String, List<JobOption<?>>> t = new LinkedHashMap<>();
    t.put(IpLookupDefinition.NAME, new IpLookupDefinition().options());
    t.put(LoaderCompareJob.NAME, io.spindex.job.LoaderCompareDefinition.OPTIONS);
    t.put(BuildIndexDefinition.NAME, BuildIndexDefinition.OPTIONS);
    t.put(GenLogsJob.NAME, GenLogsJob.OPTIONS);
    t.put(EpTransformDefinition.NAME, new EpTransformDefinition().options());
    t.put(EpDiffDefinition.NAME, new EpDiffDefinition().options());
    return t;
  }

  private static String text(String file) throws Exception {
    return new String(Files.readAllBytes(SparkTests.repo("conf", file)), StandardCharsets.UTF_8);
  }

  @Test
  void theSettingsAreTheJobsOptionsButIndexAndTheEnginesOwn() {
    Map<String, List<JobOption<?>>> tables = tables();
    assertEquals(SpindexSpark.JOBS.names(), new ArrayList<>(tables.keySet()), "every job's table");
    Set<String> want = new TreeSet<>(Settings.optionNames(tables.values()));
    want.remove("index"); // an index is named: spark.spindex.index.NAME
    want.addAll(Arrays.asList("loader", "versions", "sql.batch", "sql.names-only"));
    assertEquals(want, SpindexConf.SETTINGS.names());
    assertEquals(Set.of("index"), SpindexConf.SETTINGS.families());
    for (String k :
        Arrays.asList(
            SpindexConf.LOADER,
            SpindexConf.BATCH,
            SpindexConf.NAMES_ONLY,
            SpindexConf.VERSIONS,
            SpindexConf.INDEX_PREFIX + "geo")) {
      assertTrue(SpindexConf.SETTINGS.known(k), k);
    }
  }

  @Test
  void everySettingIsInTheCommentedDefaults() throws Exception {
    String text = text("spindex-jobs.conf");
    Map<String, String> all = new LinkedHashMap<>();
    for (List<JobOption<?>> options : tables().values()) {
      for (JobOption<?> o : options) {
        all.putIfAbsent(o.name(), o.defaultValue());
      }
    }
    all.remove("index");
    for (Map.Entry<String, String> k : all.entrySet()) {
      String key = "# " + SpindexConf.SETTINGS.key(k.getKey()) + " ";
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
    for (String k :
        Arrays.asList(
            SpindexConf.INDEX_PREFIX + "NAME",
            SpindexConf.BATCH,
            SpindexConf.NAMES_ONLY,
            SpindexConf.VERSIONS)) {
      assertTrue(text.contains("# " + k + " "), k);
    }
  }

  /** What the example files name under spark.spindex. is a setting, spelled as it is. */
  @Test
  void theExampleFilesNameOnlySettings() throws Exception {
    for (String file : Arrays.asList("spindex-jobs.conf", "spark-defaults.conf")) {
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("spark\\.spindex\\.[A-Za-z0-9_.-]*[A-Za-z0-9]")
              .matcher(text(file));
      int keys = 0;
      while (m.find()) {
        String key = m.group().replace(".NAME", ".name");
        assertTrue(SpindexConf.SETTINGS.known(key), file + ": " + m.group());
        keys++;
      }
      assertTrue(keys > 0, file);
    }
  }

  @Test
  void usageNamesEveryOption() {
    IpLookupDefinition job = new IpLookupDefinition();
    String usage = job.usage(SparkLineJobs.HINT);
    for (JobOption<?> o : job.options()) {
      assertTrue(usage.contains("--" + o.name()), usage);
    }
    assertTrue(usage.contains("spark.spindex.index.NAME"), usage);
  }

  /**
   * --index takes a path or a name: spark.spindex.index.NAME=PATH, the name the SQL functions take
   * too. There is no default index: the keys of the pre-release builds (spark.spindex.index,
   * spark.spindex.job.index) are unknown settings, refused in one line naming the family.
   */
  @Test
  void anIndexIsNamedAsForTheSqlFunctions() {
    SparkConf conf = new SparkConf(false).set("spark.spindex.index.geo", "/data/geo.spx");
    assertEquals("/data/geo.spx", jobIndex(conf, "geo"));
    assertEquals("city.spx", jobIndex(conf, "city.spx"));
    for (String old : Arrays.asList("spark.spindex.index", "spark.spindex.job.index")) {
      UsageException e =
          assertThrows(
              UsageException.class,
              () -> jobIndex(new SparkConf(false).set(old, "/data/geo.spx"), "geo"));
      assertEquals(
          "ip-lookup: unknown setting " + old + " (nearest: spark.spindex.index.NAME)",
          e.getMessage());
    }
    IpLookupDefinition job = new IpLookupDefinition();
    UsageException e =
        assertThrows(
            UsageException.class,
            () ->
                SparkLineJobs.parse(
                    conf,
                    job.name(),
                    job.options(),
                    new String[] {"--input", "in", "--output", "out"}));
    assertTrue(e.getMessage().contains("option --index is required"), e.getMessage());
  }

  /** ip-lookup's --index as parsed with {@code conf}. */
  private static String jobIndex(SparkConf conf, String index) {
    IpLookupDefinition job = new IpLookupDefinition();
    JobArgs a =
        SparkLineJobs.parse(
            conf,
            job.name(),
            job.options(),
            new String[] {"--input", "in", "--output", "out", "--index", index});
    return a.get(IpLookupDefinition.INDEX_OPTION);
  }
}
