/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.job.BuildIndexDefinition;
import io.spindex.job.JobOption;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code spindex build KIND} and Spark's {@code build-index --kind KIND} read one option table
 * ({@link BuildIndexDefinition}): every option of a kind is an option of the command, with the same
 * default, and a bad value gets the same message from both.
 */
class BuildOptionsTest {
  /** Options every kind has, and the command line's own (how it runs on one machine). */
  private static final List<String> NOT_OF_A_KIND =
      List.of("--output", "--threads", "--strict", "--allow-empty");

  private static CommandSpec build(String kind) {
    return SpindexCli.commandLine()
        .getSubcommands()
        .get("build")
        .getSubcommands()
        .get(kind)
        .getCommandSpec();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ips", "ranges", "products"})
  void everyOptionOfAKindIsAnOptionOfTheCommandWithTheSameDefault(String kind) {
    CommandSpec spec = build(kind);
    TreeSet<String> expected = new TreeSet<>();
    for (JobOption<?> o : BuildIndexDefinition.kindOptions(kind)) {
      OptionSpec cli = spec.findOption("--" + o.name());
      assertNotNull(cli, "spindex build " + kind + " lacks --" + o.name());
      String def = cli.defaultValue();
      if (def != null) {
        assertEquals(o.defaultValue(), def, "--" + o.name() + "'s default");
      }
      expected.add("--" + o.name());
    }
    TreeSet<String> actual = new TreeSet<>();
    for (OptionSpec o : spec.options()) {
      String name = o.longestName();
      if (!o.usageHelp() && !o.versionHelp() && !NOT_OF_A_KIND.contains(name)) {
        actual.add(name);
      }
    }
    assertEquals(expected, actual, "spindex build " + kind + "'s own options");
  }

  /**
   * Every command's help shows what a user types: a list option's synopsis names its separator,
   * never the regular expression that splits it ({@code [,(?![^()]*\))NAME,......]}).
   */
  @Test
  void noSynopsisShowsARegularExpression() {
    List<CommandLine> all = new ArrayList<>(List.of(SpindexCli.commandLine()));
    for (int i = 0; i < all.size(); i++) {
      CommandLine c = all.get(i);
      String usage = c.getUsageMessage(CommandLine.Help.Ansi.OFF);
      assertFalse(
          usage.contains("(?") || usage.contains("......"),
          c.getCommandSpec().qualifiedName() + ":\n" + usage);
      all.addAll(c.getSubcommands().values());
    }
    String ranges = build("ranges").commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF);
    assertTrue(ranges.contains("--label-fields=NAME[:TYPE][,NAME[:TYPE]...]"), ranges);
  }

  @ParameterizedTest
  @ValueSource(strings = {"--delimiter=xy", "--on-overlap=widest"})
  void aBadValueIsTheDefinitionsUsageError(String option) throws Exception {
    String name = option.substring(2, option.indexOf('='));
    String value = option.substring(option.indexOf('=') + 1);
    String definition;
    try {
      BuildIndexDefinition.rangeBuilder(
          io.spindex.job.JobArgs.parse(
              "build ranges",
              BuildIndexDefinition.OPTIONS,
              new String[] {
                "--kind", "ranges", "--input", "i", "--output", "o", "--" + name, value
              },
              null,
              ""));
      definition = null;
    } catch (IllegalArgumentException e) {
      definition = e.getMessage();
    }
    assertNotNull(definition, option + " is a usage error in the definition");
    java.nio.file.Path in = java.nio.file.Files.createTempFile("ranges", ".txt");
    try {
      StringWriter err = new StringWriter();
      CommandLine cl = SpindexCli.commandLine();
      cl.setErr(new PrintWriter(err));
      cl.setOut(new PrintWriter(new StringWriter()));
      List<String> args = new ArrayList<>(List.of("build", "ranges", option, in.toString()));
      args.add("-o");
      args.add(in + ".spx");
      assertEquals(2, cl.execute(args.toArray(new String[0])), err.toString());
      assertEquals("spindex: " + definition, err.toString().trim());
    } finally {
      java.nio.file.Files.deleteIfExists(in);
    }
  }
}
