/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What both job jars' dispatchers owe a user, checked by each engine's {@code UsageErrorsTest}: no
 * job, {@code --help}, an unknown job, a job's {@code --help}, a usage mistake and an unexpected
 * failure each give the same exit code and the same kind of output on Spark and MapReduce.
 */
public final class DispatcherContract {
  /** Runs the engine's dispatcher: {exit code, standard output, standard error}. */
  @FunctionalInterface
  public interface Engine {
    String[] run(String... args) throws Exception;
  }

  private DispatcherContract() {}

  /**
   * @param input an input that exists, for a job call that gets as far as the engine
   * @param output an output directory that does not exist (and must not be created)
   * @param index an IP index
   */
  public static void check(Engine e, String input, String output, String index) throws Exception {
    String[] r = e.run();
    oneLine(r, 2, "spindex: no job given: expected one of ip-lookup, ");
    assertTrue(r[2].contains("--help lists them"), r[2]);
    assertEquals("", r[1], "nothing on standard output");

    for (String help : new String[] {"--help", "-h"}) {
      r = e.run(help);
      assertEquals("0", r[0], r[2]);
      assertEquals("", r[2], "nothing on standard error");
      for (String job : new String[] {"ip-lookup", "loader-compare", "ep-transform", "ep-diff"}) {
        assertTrue(r[1].contains("\n  " + job + " "), r[1]);
      }
      assertTrue(r[1].startsWith("usage: ") && r[1].contains("'<job> --help'"), r[1]);
    }

    r = e.run("ip-lokup", "--input", input);
    oneLine(r, 2, "spindex: unknown job 'ip-lokup': expected one of ip-lookup, ");

    r = e.run("ip-lookup", "--help");
    assertEquals("0", r[0], r[2]);
    assertEquals("", r[2], "nothing on standard error");
    assertTrue(r[1].contains("--output") && r[1].contains("--index"), r[1]);

    r = e.run("ip-lookup", "--input", input, "--index", index, "--output", output, "--mode", "x");
    oneLine(r, 2, "ip-lookup: --mode: unknown mode 'x'");
    assertFalse(r[2].contains("Exception"), r[2]);

    // A path Hadoop cannot parse fails inside the engine's own code: an unexpected exception.
    r = e.run("ip-lookup", "--input", "a:b", "--index", index, "--output", output);
    oneLine(r, 1, "spindex ip-lookup: failed: ");
    assertTrue(r[2].contains("a:b"), r[2]);
    assertFalse(java.nio.file.Files.exists(java.nio.file.Paths.get(output)), output);
  }

  private static void oneLine(String[] r, int code, String starts) {
    String err = r[2];
    assertEquals(String.valueOf(code), r[0], err);
    assertTrue(err.endsWith("\n") && err.indexOf('\n') == err.length() - 1, "one line: " + err);
    assertTrue(err.startsWith(starts), err);
    assertFalse(err.contains("\tat "), err);
  }
}
