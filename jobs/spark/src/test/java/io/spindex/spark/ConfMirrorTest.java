/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.JobOption;
import io.spindex.job.LineJob;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        Arrays.asList(
            io.spindex.job.LoaderCompareDefinition.OPTIONS,
            GenLogsJob.OPTIONS,
            IdentityJob.OPTIONS,
            ReadinessJob.OPTIONS)) {
      for (JobOption<?> o : options) {
        all.putIfAbsent(o.name(), o.defaultValue());
      }
    }
    for (Map.Entry<String, String> k : all.entrySet()) {
      String key = "# spark.spindex." + k.getKey() + " ";
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
}
