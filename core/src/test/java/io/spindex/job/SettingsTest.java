/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link Settings}: one name per setting, one rule from name to key, unknown keys refused. */
class SettingsTest {
  /** Every option table the engines run, as the jobs define them. */
  static final List<List<JobOption<?>>> TABLES =
      Arrays.asList(
          new IpLookupDefinition().options(),
          LoaderCompareDefinition.OPTIONS,
          BuildIndexDefinition.OPTIONS,
          GenLogsOptions.OPTIONS,
          new EpTransformDefinition().options(),
          new EpDiffDefinition().options());

  /** Settings shaped as Spark's: the jobs' options but index, and the engine's own. */
  private static final Settings SPARK = spark();

  private static Settings spark() {
    Set<String> names = Settings.optionNames(TABLES);
    names.remove("index");
    names.addAll(List.of("versions", "sql.batch", "sql.names-only"));
    return Settings.of("spark.spindex.", names, List.of("index"));
  }

  @Test
  void everyOptionNameIsKebabCaseAndItsKeyIsThePrefixAndTheName() {
    Set<String> names = Settings.optionNames(TABLES);
    assertTrue(names.size() > 30, names.toString()); // the build options are many
    Settings s = Settings.of("spindex.", names, List.of());
    for (String n : names) {
      // An independent spelling of the rule: lower-case letters and digits, '-' between words.
      assertTrue(n.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*"), n);
      assertEquals("spindex." + n, s.key(n));
      assertTrue(s.known("spindex." + n));
    }
  }

  @Test
  void aNameThatIsNotKebabCaseIsNoSetting() {
    assertThrows(
        IllegalArgumentException.class,
        () -> Settings.of("spark.spindex.", List.of("sql.namesOnly"), List.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> Settings.of("spark.spindex.", List.of("split_mb"), List.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> Settings.of("spark.spindex.", List.of("index"), List.of("index")));
    assertThrows(IllegalArgumentException.class, () -> SPARK.key("index"));
  }

  @Test
  void familiesTakeAnyMemberButNoneEmpty() {
    assertTrue(SPARK.known("spark.spindex.index.geo"));
    assertTrue(SPARK.known("spark.spindex.index.geo.spx")); // a name with a dot
    assertFalse(SPARK.known("spark.spindex.index."));
    assertFalse(SPARK.known("spark.spindex.index"));
    assertEquals("spark.spindex.index.geo", SPARK.key("index", "geo"));
    // Outside the prefix: not Spindex's to judge.
    assertTrue(SPARK.known("spark.sql.ansi.enabled"));
    assertTrue(SPARK.known("spark.spindexer.anything"));
  }

  @Test
  void anUnknownKeyIsOneLineNamingTheNearestKnownKey() {
    assertNull(SPARK.unknown(List.of("spark.spindex.loader", "spark.master")));
    assertEquals(
        "unknown setting spark.spindex.sql.namesOnly (nearest: spark.spindex.sql.names-only)",
        SPARK.unknown(List.of("spark.spindex.loader", "spark.spindex.sql.namesOnly")));
    // The keys before 1.0 named the jobs' index; now the index is named, spark.spindex.index.NAME.
    assertEquals(
        "unknown setting spark.spindex.index (nearest: spark.spindex.index.NAME)",
        SPARK.unknown(List.of("spark.spindex.index")));
    assertEquals(
        "unknown setting spark.spindex.job.index (nearest: spark.spindex.index.NAME)",
        SPARK.unknown(List.of("spark.spindex.job.index")));
    assertEquals(
        "unknown setting spark.spindex.lodaer (nearest: spark.spindex.loader; 1 more unknown)",
        SPARK.unknown(List.of("spark.spindex.splitmb", "spark.spindex.lodaer")));
    assertEquals(
        "unknown setting spark.spindex.versoins (nearest: spark.spindex.versions)",
        SPARK.unknown(List.of("spark.spindex.versoins")));
    for (String near : List.of("idnex", "index.", "indx.geo", "inedx.geo")) {
      assertEquals(
          "unknown setting spark.spindex." + near + " (nearest: spark.spindex.index.NAME)",
          SPARK.unknown(List.of("spark.spindex." + near)));
    }
  }

  @Test
  void parseRefusesAnUnknownKeyFirstButAnswersHelp() {
    Map<String, String> conf = new HashMap<>();
    conf.put("spark.spindex.mdoe", "count");
    IpLookupDefinition job = new IpLookupDefinition();
    String[] args = {"--input", "in", "--output", "out", "--index", "geo.spx"};
    UsageException e =
        assertThrows(
            UsageException.class,
            () -> SPARK.parse(job.name(), job.options(), args, conf::get, conf.keySet(), "hint"));
    assertEquals(
        "ip-lookup: unknown setting spark.spindex.mdoe (nearest: spark.spindex.mode)",
        e.getMessage());
    assertEquals(2, e.exitCode());
    UsageException help =
        assertThrows(
            UsageException.class,
            () ->
                SPARK.parse(
                    job.name(),
                    job.options(),
                    new String[] {"--help"},
                    conf::get,
                    conf.keySet(),
                    "hint"));
    assertTrue(help.isHelp(), help.getMessage());
  }

  @Test
  void defaultsComeFromTheKeysAndTheCommandLineWins() {
    Map<String, String> conf = new HashMap<>();
    conf.put("spark.spindex.mode", "count");
    conf.put("spark.spindex.loader", "nio");
    IpLookupDefinition job = new IpLookupDefinition();
    JobArgs a =
        SPARK.parse(
            job.name(),
            job.options(),
            new String[] {
              "--input", "in", "--output", "out", "--index", "geo.spx", "--loader", "io"
            },
            conf::get,
            conf.keySet(),
            "hint");
    assertEquals("count", a.text(IpLookupDefinition.MODE_OPTION));
    assertEquals("io", a.text(IpLookupDefinition.LOADER_OPTION));
  }

  @Test
  void anIndexNamedInTheConfigurationIsItsPath() {
    Map<String, String> conf = new HashMap<>();
    conf.put("spark.spindex.index.geo", "/data/geo.spx");
    IpLookupDefinition job = new IpLookupDefinition();
    JobArgs named = parse(job, conf, "geo");
    assertEquals("/data/geo.spx", named.get(IpLookupDefinition.INDEX_OPTION));
    assertEquals("/data/geo.spx", named.text(IpLookupDefinition.INDEX_OPTION));
    // A name nobody configured is a path (or a file shipped under that name), as before.
    assertEquals("city.spx", parse(job, conf, "city.spx").get(IpLookupDefinition.INDEX_OPTION));
    // There is no default index on Spark: spark.spindex.index is no setting.
    conf.put("spark.spindex.index", "/data/geo.spx");
    assertThrows(
        UsageException.class,
        () ->
            SPARK.parse(
                job.name(),
                job.options(),
                new String[] {"--input", "in", "--output", "out"},
                conf::get,
                List.of(),
                "hint"));
    // On Hadoop the index is an option like the others: -D spindex.index=PATH.
    Settings hadoop = Settings.of("spindex.", Settings.optionNames(TABLES), List.of());
    Map<String, String> d = Map.of("spindex.index", "/data/geo.spx");
    JobArgs a =
        hadoop.parse(
            job.name(),
            job.options(),
            new String[] {"--input", "in", "--output", "out"},
            d::get,
            d.keySet(),
            "hint");
    assertEquals("/data/geo.spx", a.get(IpLookupDefinition.INDEX_OPTION));
  }

  private static JobArgs parse(IpLookupDefinition job, Map<String, String> conf, String index) {
    return SPARK.parse(
        job.name(),
        job.options(),
        new String[] {"--input", "in", "--output", "out", "--index", index},
        conf::get,
        conf.keySet(),
        "hint");
  }
}
