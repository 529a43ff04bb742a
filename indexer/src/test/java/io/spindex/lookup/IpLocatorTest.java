/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IpLocatorTest {
  private static final String OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

  /** The scan rule written as one regular expression: an independent reference. */
  private static final Pattern FIRST_REFERENCE =
      Pattern.compile(
          "(?<![A-Za-z0-9_/.\\-])(" + OCTET + "(?:\\." + OCTET + "){3})\\.*+(?![0-9A-Za-z])");

  private static String locate(IpLocator l, String line) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    long a = l.locate(b, 0, b.length);
    return a >= 0 ? io.spindex.text.Ipv4Text.format((int) a) : RejectReason.ofCode(a).label();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "x\t1.2.3.4|1.2.3.4",
        "a\t 10.0.0.1 |blank",
        "x\t\"8.8.8.8\"|8.8.8.8",
        "1.2.3.4|missing-field",
        "x\t-|not-ipv4",
        "'x\t'|not-ipv4",
        "x\t300.1.1.1|octet-out-of-range",
        "x\t01.2.3.4|leading-zero",
        "x\t2001:db8::1|ipv6-unsupported",
        "'x\t1.2.3.4\r'|1.2.3.4",
      })
  void fieldOne(String line, String expected) {
    String l = line.replace("\\t", "\t").replace("\\r", "\r");
    String want = expected.equals("blank") ? "10.0.0.1" : expected;
    assertEquals(want, locate(IpLocator.field((byte) '\t', 1), l));
  }

  @Test
  void blankLinesAreTheirOwnReason() {
    assertEquals("blank-line", locate(IpLocator.first(), ""));
    assertEquals("blank-line", locate(IpLocator.field((byte) ',', 0), " \t\r"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "203.0.113.7 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" 200 2326|203.0.113.7",
        "- - - [10/Oct/2000] \"GET /a HTTP/1.1\" 200 1 \"-\" \"Chrome/120.0.0.0 x\"|no-ipv4-found",
        "2001:db8::1 - - [x] \"GET /v1.2.3.4/ HTTP/1.1\"|no-ipv4-found",
        "client=10.1.2.3:8080 upstream 192.168.0.1|10.1.2.3",
        "[1.2.3.4] ok|1.2.3.4",
        "see 1.2.3.4. done|1.2.3.4",
        "1.2.3.4.5 then 6.7.8.9|6.7.8.9",
        "300.1.2.3 01.2.3.4 9.9.9.9|9.9.9.9",
        "abc1.2.3.4 1.2.3.4x 5.6.7.8|5.6.7.8",
        "10.0.0.1-10.0.0.9|10.0.0.1",
      })
  void firstOnTheLine(String line, String expected) {
    assertEquals(expected, locate(IpLocator.first(), line));
  }

  @Test
  void firstMatchesTheRegexReferenceOnRandomLines() {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    String[] parts = {
      "1.2.3.4",
      "255.255.255.255",
      "0.0.0.0",
      "256.1.1.1",
      "01.2.3.4",
      "1.2.3",
      "1.2.3.4.5",
      ".",
      "..",
      "/",
      "-",
      "_",
      ":",
      " ",
      "\t",
      "a",
      "Z",
      "[",
      "]",
      "\"",
      "9",
      "10",
      "007",
      "1.",
      "v",
      "Chrome/",
      "x=",
      "::ffff:"
    };
    for (int n = 0; n < 20_000; n++) {
      StringBuilder sb = new StringBuilder();
      int k = rnd.nextInt(8);
      for (int i = 0; i < k; i++) {
        sb.append(parts[rnd.nextInt(parts.length)]);
      }
      String line = sb.toString();
      Matcher m = FIRST_REFERENCE.matcher(line);
      String want;
      if (line.trim().isEmpty()) {
        want = "blank-line";
      } else {
        want = m.find() ? m.group(1) : "no-ipv4-found";
      }
      assertEquals(want, locate(IpLocator.first(), line), "seed " + seed + " line '" + line + "'");
    }
  }

  @Test
  void optionText() {
    assertEquals(IpLocator.FIRST, IpLocator.parse("first", "tab").index());
    IpLocator l = IpLocator.parse("2", "comma");
    assertEquals(2, l.index());
    assertEquals(',', l.delimiter());
    assertEquals('|', IpLocator.delimiterByte("|"));
    assertThrows(IllegalArgumentException.class, () -> IpLocator.parse("second", "tab"));
    assertThrows(IllegalArgumentException.class, () -> IpLocator.parse("1", "two"));
  }
}
