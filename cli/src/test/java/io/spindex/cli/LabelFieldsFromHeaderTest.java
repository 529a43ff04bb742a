/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.Spindex;
import io.spindex.index.IpRanges;
import io.spindex.text.AddressText;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code build ranges --label-fields-from-header}: the names come from the input's header, those
 * after the address fields of the first range, and each label splits into that many values by the
 * file's delimiter. The expected names are the header's own, split here independently.
 */
class LabelFieldsFromHeaderTest {
  @TempDir Path dir;

  private String err;

  private int spindex(String... args) {
    StringWriter e = new StringWriter();
    int exit =
        SpindexCli.commandLine()
            .setOut(new PrintWriter(new StringWriter(), true))
            .setErr(new PrintWriter(e, true))
            .execute(args);
    err = e.toString();
    return exit;
  }

  private Path write(String name, String text) throws IOException {
    return Files.write(dir.resolve(name), text.getBytes(StandardCharsets.UTF_8));
  }

  private IpRanges open(Path p) throws IOException {
    return Spindex.open(p, Spindex.Mode.MEMORY).asRanges();
  }

  @Test
  void startEndHeaderNamesTheFieldsAfterTheTwoAddresses() throws IOException {
    String header = "ip_start,ip_end,country,region,city";
    Path in =
        write(
            "geo.csv",
            header
                + "\r\n1.0.0.0,1.0.0.255,AU,Queensland,Brisbane\n2.0.0.0,2.0.0.9,FR,IDF,Paris\n");
    Path out = dir.resolve("geo.spx");
    assertEquals(
        0,
        spindex(
            "build", "ranges", in.toString(), "-o", out.toString(), "--label-fields-from-header"),
        err);
    IpRanges r = open(out);
    List<String> names = Arrays.asList(header.split(","));
    assertEquals(names.subList(2, names.size()), r.labelFields());
    assertEquals(",", r.labelDelimiter());
    String label = r.label((int) AddressText.parse("1.0.0.7", AddressText.PLAIN, new long[2]));
    assertEquals(r.labelFields().size(), label.split(r.labelDelimiter(), -1).length, label);
  }

  @Test
  void cidrHeaderWithQuotesAndTabsNamesTheFieldsAfterTheNetwork() throws IOException {
    Path in = write("asn.tsv", "\"network\"\t\"asn\"\t\"org\"\n10.0.0.0/8\t64512\tExample Net\n");
    Path out = dir.resolve("asn.spx");
    assertEquals(
        0,
        spindex(
            "build", "ranges", in.toString(), "-o", out.toString(), "--label-fields-from-header"),
        err);
    IpRanges r = open(out);
    assertEquals(List.of("asn", "org"), r.labelFields());
    assertEquals("\t", r.labelDelimiter());
  }

  @Test
  void noHeaderIsABadInputNamingTheFile() throws IOException {
    Path in = write("bare.csv", "1.0.0.0,1.0.0.255,AU\n");
    Path out = dir.resolve("bare.spx");
    assertEquals(
        1,
        spindex(
            "build", "ranges", in.toString(), "-o", out.toString(), "--label-fields-from-header"));
    assertTrue(err.contains("no header line") && err.contains("bare.csv"), err);
    assertFalse(err.contains("\tat "), err);
    assertFalse(Files.exists(out));
  }

  @Test
  void repeatedHeaderNamesAreABadInputNamingTheLine() throws IOException {
    Path in = write("dup.csv", "start,end,city,city\n1.0.0.0,1.0.0.255,A,B\n");
    assertEquals(
        1,
        spindex(
            "build",
            "ranges",
            in.toString(),
            "-o",
            dir.resolve("dup.spx").toString(),
            "--label-fields-from-header"));
    assertTrue(err.contains("dup.csv:1") && err.contains("[city, city]"), err);
  }

  /**
   * The index stores its labels split by one delimiter: files whose lines are split by another than
   * the header's are a bad input naming both, not labels stored unsplit.
   */
  @Test
  void filesOfAnotherDelimiterAreABadInputNamingBoth() throws IOException {
    Path a = write("a.txt", "start|end|country|city\n1.0.0.0|1.0.0.255|AU|Sydney\n");
    Path b = write("b.csv", "start,end,country,city\n2.0.0.0,2.0.0.255,FR,Paris\n");
    Path out = dir.resolve("ab.spx");
    assertEquals(
        1,
        spindex(
            "build",
            "ranges",
            a.toString(),
            b.toString(),
            "-o",
            out.toString(),
            "--label-fields-from-header"));
    assertTrue(
        err.contains("b.csv: its lines are split by ','")
            && err.contains("the label fields of " + a + ":1 by '|'"),
        err);
    assertFalse(err.contains("\tat "), err);
    assertFalse(Files.exists(out));
  }

  @Test
  void bothWaysOfNamingFieldsIsAUsageError() throws IOException {
    Path in = write("geo.csv", "start,end,country\n1.0.0.0,1.0.0.255,AU\n");
    assertEquals(
        2,
        spindex(
            "build",
            "ranges",
            in.toString(),
            "--label-fields",
            "country",
            "--label-fields-from-header"));
    assertTrue(err.contains("exclude each other"), err);
    assertFalse(err.contains("\tat "), err);
  }

  /** A quoted value of a CSV is one field: {@code "Sydney, NSW",AU} is a city and a country. */
  @Test
  void quotedValuesAreOneFieldEach() throws IOException {
    Path in =
        write(
            "geo.csv",
            "start,end,city,country\n1.0.0.0,1.0.0.255,\"Sydney, NSW\",AU\n"
                + "1.0.1.0,1.0.1.255,Tokyo,JP\n");
    Path out = dir.resolve("geo.spx");
    assertEquals(
        0,
        spindex(
            "build", "ranges", in.toString(), "-o", out.toString(), "--label-fields-from-header"),
        err);
    IpRanges r = open(out);
    assertEquals(List.of("city", "country"), r.labelFields());
    assertEquals(
        Arrays.asList("Sydney, NSW", "AU"), Arrays.asList(r.labelValues(r.labelId(0x01000007))));
    assertEquals(Arrays.asList("Tokyo", "JP"), Arrays.asList(r.labelValues(r.labelId(0x01000107))));
    assertEquals("\"Sydney, NSW\",AU", r.label(0x01000007), "the label stays as in the source");
  }

  /** A line with fewer or more fields than the header names is a reject, not NULLs or a fold. */
  @Test
  void aLineWithAnotherNumberOfFieldsThanTheHeaderIsAReject() throws IOException {
    Path in =
        write(
            "geo.csv",
            "start,end,city,country\n"
                + "1.0.0.0,1.0.0.255,Sydney,AU\n"
                + "1.0.1.0,1.0.1.255,Tokyo\n"
                + "1.0.2.0,1.0.2.255,Osaka,JP,extra\n"
                + "1.0.3.0/24,\"Perth, WA\",AU\n");
    Path out = dir.resolve("geo.spx");
    assertEquals(
        0,
        spindex(
            "build", "ranges", in.toString(), "-o", out.toString(), "--label-fields-from-header"),
        err);
    assertTrue(err.contains("geo.csv:3: field-count: '1.0.1.0,1.0.1.255,Tokyo'"), err);
    assertTrue(err.contains("geo.csv:4: field-count:"), err);
    IpRanges r = open(out);
    assertEquals(2, r.rangeCount(), "Sydney and Perth");
    assertEquals(
        Arrays.asList("Perth, WA", "AU"), Arrays.asList(r.labelValues(r.labelId(0x01000307))));
  }
}
