/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.common.net.InetAddresses;
import io.spindex.text.Ipv6Text;
import io.spindex.text.RejectReason;
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

  /** IPv6 candidates: maximal runs of hex digits, colons and dots. */
  private static final Pattern RUN = Pattern.compile("[0-9A-Fa-f:.]+");

  private static String locate(IpLocator l, String line) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    long[] v6 = new long[2];
    long a = l.locate(b, 0, b.length, v6);
    if (a == IpLocator.IPV6) {
      return Ipv6Text.format(v6[0], v6[1]);
    }
    return a >= 0 ? io.spindex.text.Ipv4Text.format((int) a) : RejectReason.ofCode(a).label();
  }

  /**
   * The scan rule of {@link IpLocator} for both families, written with regular expressions and
   * Guava's address parser: an independent reference.
   */
  private static String reference(String line) {
    if (line.trim().isEmpty()) {
      return "blank-line";
    }
    Matcher run = RUN.matcher(line);
    while (run.find()) {
      int s = run.start();
      int e = run.end();
      String r = run.group();
      if (r.chars().filter(c -> c == ':').count() >= 2) {
        boolean before = s == 0 || "_/-".indexOf(line.charAt(s - 1)) < 0 && !letter(line, s - 1);
        boolean after = e == line.length() || "_%".indexOf(line.charAt(e)) < 0 && !letter(line, e);
        String t = r.replaceAll("\\.+$", "");
        if (t.endsWith(":") && !t.endsWith("::")) {
          t = t.substring(0, t.length() - 1);
        }
        if (before && after && InetAddresses.isInetAddress(t)) {
          return canonical(t);
        }
      }
      Matcher m = FIRST_REFERENCE.matcher(line);
      m.region(s, e).useTransparentBounds(true).useAnchoringBounds(false);
      if (m.find()) {
        return m.group(1);
      }
    }
    return "no-ip-found";
  }

  private static boolean letter(String line, int i) {
    char c = line.charAt(i);
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /** RFC 5952 text of IPv6 text, by Guava; IPv4-mapped folded to a.b.c.d, as Guava folds it. */
  private static String canonical(String text) {
    return InetAddresses.toAddrString(InetAddresses.forString(text));
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
        "'x\t'|empty-field",
        "'x\t  '|empty-field",
        "'x\t\"\"'|empty-field",
        "x\t300.1.1.1|octet-out-of-range",
        "x\t01.2.3.4|leading-zero",
        "x\t2001:DB8::1|2001:db8::1",
        "x\t[2001:db8::1]:443|2001:db8::1",
        "x\t\"[2001:db8::1]\"|2001:db8::1",
        "x\t::ffff:1.2.3.4|1.2.3.4",
        "x\t[::ffff:1.2.3.4]:80|1.2.3.4",
        "x\t1.2.3.4:8080|1.2.3.4",
        "x\t[1.2.3.4]|1.2.3.4",
        "x\t[1.2.3.4]:80|1.2.3.4",
        "x\t1.2.3.4:80800|bad-port",
        "x\tfe80::1%eth0|zone-id",
        "x\t1:2:3|wrong-group-count",
        "x\t1::2::3|double-colon-twice",
        "x\t12345::|group-too-long",
        "x\t1.2.3.4::|ipv4-not-last",
        "x\t::1.2.3.256|bad-embedded-ipv4",
        "x\tg::1|not-ipv6",
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
        "- - - [10/Oct/2000] \"GET /a HTTP/1.1\" 200 1 \"-\" \"Chrome/120.0.0.0 x\"|no-ip-found",
        "2001:db8::1 - - [x] \"GET /v1.2.3.4/ HTTP/1.1\"|2001:db8::1",
        "- - [10/Oct/2000:13:55:36 -0700] 2001:DB8::A|2001:db8::a",
        "[2001:db8::1]:443 x 1.2.3.4|2001:db8::1",
        "fe80::1%eth0 then 1.2.3.4|1.2.3.4",
        "at 10:20:30 from ::ffff:10.0.0.1.|10.0.0.1",
        "xabc::1 then ::2|::2",
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
  void firstMatchesTheReferenceOnRandomLines() {
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
      "::ffff:",
      "::",
      "2001",
      "db8",
      "fe80",
      "%",
      "ABC",
      "1:2:3:4:5:6:7"
    };
    for (int n = 0; n < 20_000; n++) {
      StringBuilder sb = new StringBuilder();
      int k = rnd.nextInt(8);
      for (int i = 0; i < k; i++) {
        sb.append(parts[rnd.nextInt(parts.length)]);
      }
      String line = sb.toString();
      assertEquals(
          reference(line),
          locate(IpLocator.first(), line),
          "seed " + seed + " line '" + line + "'");
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
