/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.options.JobOptions;
import io.spindex.options.OptionKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** conf/spindex-mapreduce.xml lists every option of every job with its default. */
class ConfMirrorTest {
  @Test
  void everyOptionIsInTheCommentedDefaults() throws Exception {
    // Surefire runs in target/ (see the pom).
    Path conf = Path.of("../../../conf/spindex-mapreduce.xml");
    String text = new String(Files.readAllBytes(conf), StandardCharsets.UTF_8);
    List<OptionKey> all = new ArrayList<>();
    all.addAll(Arrays.asList(IpLookupTool.Opt.values()));
    all.addAll(Arrays.asList(LoaderCompareTool.Opt.values()));
    all.addAll(Arrays.asList(EpTransformTool.Opt.values()));
    for (OptionKey k : all) {
      String key = "<!-- spindex." + k.optionName() + " ";
      assertTrue(text.contains(key), key);
      String def = k.defaultValue() == null ? "(required)" : k.defaultValue();
      assertTrue(
          text.matches("(?s).*" + Pattern.quote(key) + " *" + Pattern.quote(def) + "[ ].*"),
          k.optionName() + " default " + def);
    }
    // And Hadoop reads it: the example is commented out, so it sets nothing.
    Configuration c = new Configuration(false);
    c.addResource(conf.toUri().toURL());
    assertEquals(null, c.get("spindex.loader"));
  }

  @Test
  void defaultsFromTheHadoopConfigurationLoseToTheCommandLine() {
    Configuration c = new Configuration(false);
    c.set("spindex.loader", "nio");
    c.set("spindex.index", "x.spx");
    JobOptions o =
        MrOptions.parse(
            IpLookupTool.NAME,
            IpLookupTool.Opt.class,
            new String[] {"--input", "in", "--output", "out", "--loader", "io"},
            c);
    assertEquals("io", o.get(IpLookupTool.Opt.LOADER));
    assertEquals("x.spx", o.get(IpLookupTool.Opt.INDEX));
    o =
        MrOptions.parse(
            IpLookupTool.NAME,
            IpLookupTool.Opt.class,
            new String[] {"--input", "in", "--output", "out"},
            c);
    assertEquals("nio", o.get(IpLookupTool.Opt.LOADER));
  }
}
