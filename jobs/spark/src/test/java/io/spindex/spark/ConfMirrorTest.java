/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** conf/spindex-jobs.conf lists every option of every job with its default. */
class ConfMirrorTest {
  @Test
  void everyOptionIsInTheCommentedDefaults() throws Exception {
    Path conf = Paths.get("../../conf/spindex-jobs.conf");
    String text = new String(Files.readAllBytes(conf), StandardCharsets.UTF_8);
    List<OptionKey> all = new ArrayList<>();
    all.addAll(java.util.Arrays.asList(IpLookupJob.Opt.values()));
    all.addAll(java.util.Arrays.asList(LoaderCompareJob.Opt.values()));
    all.addAll(java.util.Arrays.asList(GenLogsJob.Opt.values()));
    all.addAll(java.util.Arrays.asList(IdentityJob.Opt.values()));
    all.addAll(java.util.Arrays.asList(ReadinessJob.Opt.values()));
    all.addAll(java.util.Arrays.asList(EpTransformSparkJob.Opt.values()));
    all.addAll(java.util.Arrays.asList(EpDiffSparkJob.Opt.values()));
    for (OptionKey k : all) {
      String key = "# spark.spindex." + k.optionName() + " ";
      assertTrue(text.contains(key), key);
      String def = k.defaultValue();
      if (def != null && !def.isEmpty()) {
        assertTrue(
            text.matches(
                    "(?s).*"
                        + java.util.regex.Pattern.quote(key)
                        + " *"
                        + java.util.regex.Pattern.quote(def)
                        + "\\b.*")
                || text.contains(key.trim() + " " + def),
            k.optionName() + " default " + def);
      }
    }
  }

  @Test
  void usageNamesEveryOption() {
    String usage = JobOptions.usage(IpLookupJob.NAME, IpLookupJob.Opt.class);
    for (IpLookupJob.Opt o : IpLookupJob.Opt.values()) {
      assertTrue(usage.contains("--" + o.optionName()), usage);
    }
  }
}
