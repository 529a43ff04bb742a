/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The build options {@code spindex update KIND} takes reach its build as the build names them. */
class UpdateBuildOptionsTest {

  private static Map<String, String> given(String kind, String... options) {
    CommandLine cl = SpindexCli.commandLine();
    String[] args = new String[4 + options.length];
    args[0] = "update";
    args[1] = kind;
    args[2] = "in.txt";
    args[3] = "-o=out.spx";
    System.arraycopy(options, 0, args, 4, options.length);
    cl.parseArgs(args);
    CommandLine k = cl.getSubcommands().get("update").getSubcommands().get(kind);
    return UpdateCommand.buildValues(k.getCommandSpec());
  }

  @Test
  void aListOptionRepeatedIsJoinedAFlagAloneIsTrue() {
    assertEquals(
        Map.of("label-fields", "country,city,isp", "strict", "true", "delimiter", "|"),
        given(
            "ranges",
            "--label-fields",
            "country,city",
            "--label-fields",
            "isp",
            "--strict",
            "--delimiter",
            "|",
            "--keep",
            "5"));
  }

  @Test
  void noBuildOptionGivenIsNoValue() {
    assertEquals(Map.of(), given("ips", "--keep", "2"));
    assertEquals(Map.of("strict", "false"), given("products", "--strict=false"));
  }
}
