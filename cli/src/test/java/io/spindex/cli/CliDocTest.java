/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * docs/CLI.md, the command reference, shows each command's {@code --help} verbatim between {@code
 * <!-- BEGIN generated:help ARGS -->} and {@code <!-- END generated:help ARGS -->}; {@code
 * scripts/cli-doc} writes those blocks from the jar. This test runs every command's {@code --help}
 * in-process and fails, naming the command and the script, when its block differs or is missing, or
 * when a block names no command. The commands are picocli's tree (but its {@code help}) and the
 * jobs {@code spindex run --help} lists, as the script walks them.
 */
class CliDocTest {
  private static final Pattern BLOCK =
      Pattern.compile(
          "^<!-- BEGIN generated:help((?: [^\\n]*?)?) -->\\n(.*?)^<!-- END generated:help\\1 -->$",
          Pattern.MULTILINE | Pattern.DOTALL);

  private static final String FIX = "; run scripts/cli-doc to regenerate docs/CLI.md";

  /** A path in the repository: the nearest folder above the working directory with mvnw. */
  private static Path repo(String path) {
    Path d = Paths.get("").toAbsolutePath();
    while (d != null && !Files.exists(d.resolve("mvnw"))) {
      d = d.getParent();
    }
    if (d == null) {
      throw new IllegalStateException("no mvnw above " + Paths.get("").toAbsolutePath());
    }
    return d.resolve(path);
  }

  /** The generated blocks of docs/CLI.md by their ARGS ("" for {@code spindex --help}). */
  private static Map<String, String> blocks() throws IOException {
    String doc =
        Files.readString(repo("docs/CLI.md"), StandardCharsets.UTF_8).replace("\r\n", "\n");
    Map<String, String> blocks = new LinkedHashMap<>();
    Matcher m = BLOCK.matcher(doc);
    while (m.find()) {
      String args = m.group(1).trim();
      if (blocks.put(args, m.group(2)) != null) {
        fail("docs/CLI.md has two blocks for '" + command(args) + "'");
      }
    }
    return blocks;
  }

  /** What {@code spindex ARGS --help} prints, as a block shows it (no white space at line ends). */
  private static String help(String args) {
    List<String> argv = new ArrayList<>();
    if (!args.isEmpty()) {
      argv.addAll(List.of(args.split(" ")));
    }
    argv.add("--help");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        SpindexCli.commandLine()
            .setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF))
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute(argv.toArray(new String[0]));
    assertEquals(0, exit, command(args) + " --help: " + err);
    String text =
        out.toString()
            .replace("\r\n", "\n")
            .lines()
            .map(String::stripTrailing)
            .collect(Collectors.joining("\n"));
    return text.replaceAll("\\n+$", "") + "\n";
  }

  private static String block(String args) {
    return "```text\n" + help(args) + "```\n";
  }

  private static String command(String args) {
    return args.isEmpty() ? "spindex" : "spindex " + args;
  }

  /**
   * Every command's ARGS, parents first: picocli's subcommands (but {@code help}), and for {@code
   * run} the jobs its help lists under "jobs:".
   */
  private static List<String> commands() {
    List<String> all = new ArrayList<>();
    walk("", SpindexCli.commandLine(), all);
    return all;
  }

  private static void walk(String args, CommandLine cl, List<String> all) {
    all.add(args);
    String prefix = args.isEmpty() ? "" : args + " ";
    for (Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet()) {
      if (!sub.getKey().equals("help")) {
        walk(prefix + sub.getKey(), sub.getValue(), all);
      }
    }
    if (args.equals("run")) {
      boolean jobs = false;
      for (String line : help("run").split("\n")) {
        if (line.equals("jobs:")) {
          jobs = true;
        } else if (jobs && line.matches("  [a-z][a-z0-9-]*( .*)?")) {
          all.add("run " + line.trim().split(" ")[0]);
        } else if (jobs && !line.startsWith("    ")) {
          jobs = false;
        }
      }
    }
  }

  @TestFactory
  Stream<DynamicTest> everyCommandsBlockIsItsHelp() throws IOException {
    Map<String, String> blocks = blocks();
    return commands().stream()
        .map(
            args ->
                DynamicTest.dynamicTest(
                    command(args),
                    () -> {
                      String found = blocks.get(args);
                      if (found == null) {
                        fail(
                            "docs/CLI.md has no block for '"
                                + command(args)
                                + " --help' (<!-- BEGIN generated:help"
                                + (args.isEmpty() ? "" : " " + args)
                                + " --> ... END): add a section for it"
                                + FIX);
                      }
                      assertEquals(
                          block(args),
                          found,
                          "docs/CLI.md: the block of '"
                              + command(args)
                              + " --help' is not what the command prints"
                              + FIX);
                    }));
  }

  @Test
  void everyBlockNamesACommand() throws IOException {
    Map<String, String> blocks = blocks();
    List<String> commands = commands();
    assertTrue(blocks.size() > 20, "docs/CLI.md: only " + blocks.size() + " generated blocks");
    for (String args : blocks.keySet()) {
      assertTrue(
          commands.contains(args),
          "docs/CLI.md has a block for '" + command(args) + "', which is no command" + FIX);
    }
  }
}
