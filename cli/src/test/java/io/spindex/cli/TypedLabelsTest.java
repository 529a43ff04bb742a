/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.Spindex;
import io.spindex.index.IpRanges;
import io.spindex.index.LabelSchema;
import io.spindex.index.Section;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Typed label fields from text: {@code --label-fields country,lat:double,asn:bigint}. A line whose
 * label does not fit is a reject with its reason and line; the schema goes into the index (format
 * version 4) and {@code inspect} shows it; {@code lookup --json} prints typed values. An untyped
 * build writes the file an older release wrote.
 */
class TypedLabelsTest {
  @TempDir Path dir;

  private String out;
  private String err;

  private int spindex(String... args) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int exit =
        SpindexCli.commandLine()
            .setOut(new PrintWriter(o, true))
            .setErr(new PrintWriter(e, true))
            .execute(args);
    out = o.toString();
    err = e.toString();
    return exit;
  }

  private Path geo() throws IOException {
    return Files.write(
        dir.resolve("geo.csv"),
        String.join(
                "\n",
                "start,end,country,lat,asn,anycast",
                "1.0.0.0,1.0.0.255,AU,-33.5,13335,true",
                "1.0.1.0,1.0.1.255,CN,abc,4134,false",
                "1.0.2.0,1.0.2.255,CN,30.1,AS4134,false",
                "1.0.3.0,1.0.3.255,JP,35,2516",
                "1.0.4.0,1.0.4.255,JP,,,",
                "2001:db8::,2001:db8::ffff,DE,52.5,3320,maybe",
                "2001:db9::,2001:db9::ffff,DE,5E1,-1,FALSE")
            .getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void typedFieldsRejectWhatDoesNotParseAndReadTyped() throws IOException {
    Path idx = dir.resolve("geo.spx");
    assertEquals(
        0,
        spindex(
            "build",
            "ranges",
            geo().toString(),
            "-o",
            idx.toString(),
            "--label-delimiter",
            ",",
            "--label-fields",
            "country,lat:double,asn:bigint,anycast:boolean"));
    assertTrue(out.matches("(?s).*accepted\\s+3\\n.*"), out);
    assertTrue(out.matches("(?s).*rejected\\s+4\\n.*"), out);
    assertTrue(err.contains("geo.csv:3: not-double:lat: '1.0.1.0,1.0.1.255,CN,abc"), err);
    assertTrue(err.contains("geo.csv:4: not-bigint:asn:"), err);
    assertTrue(err.contains("geo.csv:5: field-count:"), err);
    assertTrue(err.contains("geo.csv:7: not-boolean:anycast:"), err);

    IpRanges r = Spindex.open(idx, Spindex.Mode.MEMORY).asRanges();
    assertNotNull(r.header().find(Section.LABEL_TYPES));
    LabelSchema s = r.labelSchema();
    assertEquals(List.of("country", "lat", "asn", "anycast"), s.names());
    assertArrayEquals(
        new Object[] {"AU", -33.5, 13335L, true}, r.labelValues(r.labelId(0x01000001)));
    assertArrayEquals(new Object[] {"JP", null, null, null}, r.labelValues(r.labelId(0x01000401)));
    assertArrayEquals(
        new Object[] {"DE", 50.0, -1L, false}, r.labelValues(r.labelId(0x2001_0db9_0000_0000L, 5)));
    assertEquals("AU,-33.5,13335,true", r.label(0x01000001), "the label stays text");

    assertEquals(0, spindex("inspect", idx.toString()));
    assertTrue(
        out.contains(
            "label fields   country string, lat double, asn bigint, anycast boolean (split on"
                + " ',')"),
        out);
    assertEquals(0, spindex("inspect", "--json", idx.toString()));
    assertTrue(
        out.contains(
            "\"labelFields\":[\"country\",\"lat\",\"asn\",\"anycast\"],"
                + "\"labelTypes\":[\"string\",\"double\",\"bigint\",\"boolean\"],"
                + "\"labelDelimiter\":\",\""),
        out);
  }

  @Test
  void aDecimalFieldIsOneEntryOfTheList() throws IOException {
    // decimal(20,0) holds a uint64 whole; its comma does not split the list.
    Path in =
        Files.write(
            dir.resolve("ids.txt"),
            String.join(
                    "\n",
                    "1.0.0.0\t1.0.0.255\tAU|18446744073709551615|x",
                    "1.0.1.0\t1.0.1.255\tCN|-1|y",
                    "1.0.2.0\t1.0.2.255\tJP|0|z")
                .getBytes(StandardCharsets.UTF_8));
    Path idx = dir.resolve("ids.spx");
    assertEquals(
        0,
        spindex(
            "build",
            "ranges",
            in.toString(),
            "-o",
            idx.toString(),
            "--label-fields",
            "country,id:decimal(20,0),tag"),
        err);
    assertTrue(out.matches("(?s).*accepted\\s+2\\n.*"), out);
    assertTrue(err.contains("ids.txt:2: not-decimal:id:"), err);
    IpRanges r = Spindex.open(idx, Spindex.Mode.MEMORY).asRanges();
    assertEquals(List.of("country", "id", "tag"), r.labelSchema().names());
    assertArrayEquals(
        new Object[] {"AU", new BigDecimal("18446744073709551615"), "x"},
        r.labelValues(r.labelId(0x01000001)));
    assertEquals(0, spindex("inspect", idx.toString()));
    assertTrue(out.contains("label fields   country string, id decimal(20,0), tag string"), out);
  }

  @Test
  void anUntypedBuildHasNoTypes() throws IOException {
    Path idx = dir.resolve("plain.spx");
    assertEquals(
        0,
        spindex(
            "build",
            "ranges",
            geo().toString(),
            "-o",
            idx.toString(),
            "--label-delimiter",
            ",",
            "--label-fields",
            "country,lat,asn,anycast"));
    IpRanges r = Spindex.open(idx, Spindex.Mode.MEMORY).asRanges();
    assertNull(r.header().find(Section.LABEL_TYPES), "no typed section");
    assertTrue(out.matches("(?s).*rejected\\s+1\\n.*"), "only the short line: " + out);
    assertArrayEquals(
        new Object[] {"CN", "abc", "4134", "false"}, r.labelValues(r.labelId(0x01000101)));
  }
}
