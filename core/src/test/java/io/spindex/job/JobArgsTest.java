/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.lookup.LookupMode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The option tables: every value is checked at parse time, and a bad one is one usage line. */
class JobArgsTest {
  private static final List<JobOption<?>> IP_LOOKUP = new IpLookupDefinition().options();

  private static JobArgs parse(Map<String, String> conf, String... args) {
    return JobArgs.parse("ip-lookup", IP_LOOKUP, args, conf::get, "hint");
  }

  private static UsageException bad(String... args) {
    return assertThrows(UsageException.class, () -> parse(Map.of(), args));
  }

  private static final String[] REQUIRED = {"--input", "in", "--output", "out", "--index", "i.spx"};

  private static String[] with(String... more) {
    String[] a = Arrays.copyOf(REQUIRED, REQUIRED.length + more.length);
    System.arraycopy(more, 0, a, REQUIRED.length, more.length);
    return a;
  }

  @Test
  void valuesAreCheckedAndTyped() {
    JobArgs a = parse(Map.of(), with("--mode=COUNT", "--split-mb", "0.5", "--reducers", "1_000"));
    assertEquals(LookupMode.COUNT, a.get(IpLookupDefinition.MODE));
    assertEquals(0.5, a.get(LineJob.SPLIT_MB));
    assertEquals(1000L, a.get(IpLookupDefinition.REDUCERS));
    assertEquals("mapped", a.get(IpLookupDefinition.LOADER));
    assertEquals("in", a.text(LineJob.INPUT));
  }

  @Test
  void theCommandLineWinsOverTheConfigurationWhichWinsOverTheDefault() {
    Map<String, String> conf = Map.of("loader", "nio", "mode", "filter");
    JobArgs a = parse(conf, with("--mode", "count"));
    assertEquals(LookupMode.COUNT, a.get(IpLookupDefinition.MODE));
    assertEquals("nio", a.get(IpLookupDefinition.LOADER));
    assertEquals("auto", a.get(LineJob.SHIP));
  }

  @Test
  void eachMistakeIsOneLineNamingTheOption() {
    String[][] cases = {
      with("--mode", "foo"),
      with("--loader", "nonsense"),
      with("--ip", "abc"),
      with("--split-mb", "-5"),
      with("--reducers", "0"),
      with("--compress", "zip"),
      with("--delimiter", "two"),
      with("--colour", "red"),
      with("stray"),
      with("--keep"),
      {"--input", "in", "--output", "out"},
      with("--input", " ")
    };
    String[] says = {
      "--mode: unknown mode 'foo'",
      "--loader: expected io | nio",
      "--ip: IP position 'abc'",
      "--split-mb: expected a number from 0.0",
      "--reducers: expected 1 to 10000",
      "--compress: expected none | gzip",
      "--delimiter: delimiter 'two'",
      "unknown option --colour",
      "unexpected argument 'stray'",
      "option --keep needs a value",
      "option --index is required",
      "--input: expected a value"
    };
    for (int i = 0; i < cases.length; i++) {
      UsageException e = bad(cases[i]);
      assertFalse(e.isHelp());
      assertEquals(2, e.exitCode());
      assertTrue(e.getMessage().startsWith("ip-lookup: "), e.getMessage());
      assertTrue(e.getMessage().contains(says[i]), e.getMessage());
      assertEquals(1, e.getMessage().split("\n").length, e.getMessage());
    }
  }

  @Test
  void helpIsNotAMistake() {
    UsageException e = bad("--help");
    assertTrue(e.isHelp());
    assertEquals(0, e.exitCode());
    for (JobOption<?> o : IP_LOOKUP) {
      assertTrue(e.getMessage().contains("--" + o.name() + " "), o.name());
    }
    assertTrue(e.getMessage().trim().endsWith("hint"), e.getMessage());
  }
}
