/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** build-index's one definition: the kinds' options, the builders they make, the sort's cuts. */
class BuildIndexDefinitionTest {
  private static JobArgs parse(String... args) {
    return JobArgs.parse(
        BuildIndexDefinition.NAME,
        BuildIndexDefinition.OPTIONS,
        args,
        Map.<String, String>of()::get,
        "hint");
  }

  private static JobArgs kind(String kind, String... more) {
    List<String> a =
        new java.util.ArrayList<>(List.of("--kind", kind, "--input", "in", "--output", "o.spx"));
    a.addAll(Arrays.asList(more));
    return parse(a.toArray(new String[0]));
  }

  @Test
  void anOptionOfAnotherKindIsAUsageErrorNamingItsKind() {
    assertEquals("ranges", BuildIndexDefinition.kind(kind("ranges", "--on-overlap", "narrowest")));
    UsageException e =
        assertThrows(
            UsageException.class,
            () -> BuildIndexDefinition.kind(kind("ips", "--on-overlap", "narrowest")));
    assertEquals("build-index: --on-overlap is for --kind ranges", e.getMessage());
    e =
        assertThrows(
            UsageException.class,
            () -> BuildIndexDefinition.kind(kind("ranges", "--int-field", "review_count")));
    assertEquals("build-index: --int-field is for --kind products", e.getMessage());
  }

  @Test
  void rangeOptionsThatExcludeEachOtherAreAUsageError() {
    UsageException e =
        assertThrows(
            UsageException.class,
            () ->
                BuildIndexDefinition.rangeBuilder(
                    kind(
                        "ranges",
                        "--label-fields",
                        "country,city",
                        "--label-fields-from-header",
                        "true")));
    assertEquals(
        "build-index: --label-fields and --label-fields-from-header exclude each other",
        e.getMessage());
  }

  @Test
  void aDecimalFieldIsOneEntryOfTheLabelFields() {
    assertEquals(
        List.of("country", "id:decimal(20,0)", "tag"),
        kind("ranges", "--label-fields", "country,id:decimal(20,0),tag")
            .get(BuildIndexDefinition.LABEL_FIELDS));
  }

  @Test
  void theDelimiterIsOneCharacterTabOrDetect() {
    assertEquals('\t', kind("ranges", "--delimiter", "tab").get(BuildIndexDefinition.DELIMITER));
    assertEquals(',', kind("ranges", "--delimiter", ",").get(BuildIndexDefinition.DELIMITER));
    assertEquals(0, kind("ranges").get(BuildIndexDefinition.DELIMITER).charValue());
    UsageException e =
        assertThrows(UsageException.class, () -> kind("ranges", "--delimiter", "ab"));
    assertEquals(
        "build-index: --delimiter: expected one character, 'tab' or detect, got 'ab'",
        e.getMessage());
  }

  @Test
  void cutsGiveEqualSharesAndNoEmptyPartitions() {
    int[] even = new int[65536];
    Arrays.fill(even, 3);
    assertArrayEquals(new int[] {16384, 32768, 49152}, BuildIndexDefinition.cuts(even, 4));
    int[] one = new int[65536];
    one[4660] = 1_000_000;
    assertArrayEquals(
        new int[0], BuildIndexDefinition.cuts(one, 8), "a single block cannot be cut");
    int[] skewed = new int[65536];
    skewed[10] = 900;
    skewed[20] = 50;
    skewed[30] = 50;
    // Half of the addresses are in block 10: the first cut can only follow it.
    assertArrayEquals(new int[] {11}, BuildIndexDefinition.cuts(skewed, 2));
    assertArrayEquals(new int[0], BuildIndexDefinition.cuts(new int[65536], 3), "nothing to cut");
  }
}
