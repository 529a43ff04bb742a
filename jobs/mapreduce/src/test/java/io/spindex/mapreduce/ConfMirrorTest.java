/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.job.EpDiffDefinition;
import io.spindex.job.EpTransformDefinition;
import io.spindex.job.IpLookupDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.LineJob;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * conf/spindex-mapreduce.xml lists every option of every MapReduce job with its default, in the
 * job's own section (options shared by several jobs may have different defaults: loader).
 */
class ConfMirrorTest {
  // Surefire runs in target/ (see the pom).
  static final Path CONF = Path.of("../../../conf/spindex-mapreduce.xml");

  private static final Pattern SECTION = Pattern.compile("<!-- ==== ([a-z-]+):");

  /** The jobs' option tables: name to default (null: required), by job, in dispatcher order. */
  static Map<String, Map<String, String>> optionTables() {
    Map<String, Map<String, String>> jobs = new LinkedHashMap<>();
    for (LineJob<?> job :
        Arrays.asList(
            new IpLookupDefinition(), new EpTransformDefinition(), new EpDiffDefinition())) {
      Map<String, String> opts = new LinkedHashMap<>();
      for (JobOption<?> o : job.options()) {
        opts.put(o.name(), o.defaultValue());
      }
      jobs.put(job.name(), opts);
    }
    Map<String, String> lc = new LinkedHashMap<>();
    for (JobOption<?> o : io.spindex.job.LoaderCompareDefinition.OPTIONS) {
      lc.put(o.name(), o.defaultValue());
    }
    jobs.put(LoaderCompareTool.NAME, lc);
    return jobs;
  }

  /** The text of each job's section of the conf file, by job name. */
  private static Map<String, String> sections(String text) {
    Map<String, String> m = new LinkedHashMap<>();
    Matcher s = SECTION.matcher(text);
    List<int[]> at = new ArrayList<>();
    List<String> names = new ArrayList<>();
    while (s.find()) {
      at.add(new int[] {s.start()});
      names.add(s.group(1));
    }
    int end = text.indexOf("<!-- Example:");
    for (int i = 0; i < names.size(); i++) {
      int to = i + 1 < names.size() ? at.get(i + 1)[0] : end;
      m.put(names.get(i), text.substring(at.get(i)[0], to));
    }
    return m;
  }

  @Test
  void everyOptionIsInItsJobsSectionWithItsDefault() throws Exception {
    String text = new String(Files.readAllBytes(CONF), StandardCharsets.UTF_8);
    Map<String, String> sections = sections(text);
    Map<String, Map<String, String>> jobs = optionTables();
    assertEquals(jobs.keySet(), sections.keySet(), "one section per job");
    for (Map.Entry<String, Map<String, String>> job : jobs.entrySet()) {
      String section = sections.get(job.getKey());
      for (Map.Entry<String, String> o : job.getValue().entrySet()) {
        String key = "<!-- spindex." + o.getKey() + " ";
        assertTrue(section.contains(key), job.getKey() + ": " + key);
        String def = o.getValue() == null ? "(required)" : o.getValue();
        assertTrue(
            section.matches("(?s).*" + Pattern.quote(key) + " *" + Pattern.quote(def) + "[ ].*"),
            job.getKey() + ": " + o.getKey() + " default " + def);
      }
      // Nothing listed that the job does not take.
      Matcher m = Pattern.compile("<!-- spindex\\.([a-z-]+) ").matcher(section);
      while (m.find()) {
        assertTrue(job.getValue().containsKey(m.group(1)), job.getKey() + " has no " + m.group(1));
      }
    }
    // And Hadoop reads it: the example is commented out, so it sets nothing.
    Configuration c = new Configuration(false);
    c.addResource(CONF.toUri().toURL());
    assertEquals(null, c.get("spindex.loader"));
  }

  @Test
  void defaultsFromTheHadoopConfigurationLoseToTheCommandLine() {
    Configuration c = new Configuration(false);
    c.set("spindex.loader", "nio");
    c.set("spindex.index", "x.spx");
    IpLookupDefinition job = new IpLookupDefinition();
    JobOption<?> loader = option(job, "loader");
    JobOption<?> index = option(job, "index");
    // As the tool parses: -D spindex.<name> for what the command line leaves out.
    JobArgs a =
        job.parse(
            new String[] {"--input", "in", "--output", "out", "--loader", "io"},
            k -> c.get(LineJobTool.CONF_PREFIX + k),
            LineJobTool.HINT);
    assertEquals("io", a.get(loader));
    assertEquals("x.spx", a.get(index));
    a =
        job.parse(
            new String[] {"--input", "in", "--output", "out"},
            k -> c.get(LineJobTool.CONF_PREFIX + k),
            LineJobTool.HINT);
    assertEquals("nio", a.get(loader));

    // loader-compare takes its defaults the same way.
    c.set("spindex.rounds", "7");
    JobArgs o =
        LineJobTool.parse(
            LoaderCompareTool.NAME,
            io.spindex.job.LoaderCompareDefinition.OPTIONS,
            new String[] {"--index", "i.spx", "--output", "out", "--tasks", "3"},
            c);
    assertEquals(7L, o.get(io.spindex.job.LoaderCompareDefinition.ROUNDS));
    assertEquals(3L, o.get(io.spindex.job.LoaderCompareDefinition.TASKS));
    assertEquals("i.spx", o.get(io.spindex.job.LoaderCompareDefinition.INDEX));
  }

  @Test
  void usageNamesEveryOptionAndTheGenericOptions() {
    for (LineJob<?> job :
        Arrays.asList(
            new IpLookupDefinition(), new EpTransformDefinition(), new EpDiffDefinition())) {
      String usage = job.usage(LineJobTool.HINT);
      for (JobOption<?> o : job.options()) {
        assertTrue(usage.contains("--" + o.name()), usage);
      }
      assertTrue(usage.contains("-D spindex.<option>=<value>"), usage);
    }
  }

  private static JobOption<?> option(LineJob<?> job, String name) {
    for (JobOption<?> o : job.options()) {
      if (o.name().equals(name)) {
        return o;
      }
    }
    throw new AssertionError(job.name() + " has no option " + name);
  }
}
