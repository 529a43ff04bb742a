/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shared table of address forms ({@code address-forms.tsv}, see its header for the columns):
 * every line read by {@link AddressText} in its context gives the line's answer or reason.
 */
class AddressFormsTest {
  private static final String TABLE = "/address-forms.tsv";

  /** The table's lines: line number, input (unescaped), forms, answer, reason, note. */
  static List<Arguments> rows() {
    List<Arguments> rows = new ArrayList<>();
    try (InputStream in = AddressFormsTest.class.getResourceAsStream(TABLE);
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      boolean header = true;
      int n = 0;
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        n++;
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] c = line.split("\t", -1);
        if (c.length != 5) {
          throw new IllegalStateException(
              TABLE + ":" + n + ": expected 5 columns, found " + c.length);
        }
        if (header) {
          assertEquals("input\tforms\tanswer\treason\tnote", line, TABLE + ":" + n);
          header = false;
          continue;
        }
        if (c[2].isEmpty() == c[3].isEmpty()) {
          throw new IllegalStateException(TABLE + ":" + n + ": expected an answer or a reason");
        }
        rows.add(Arguments.of(n, unescape(c[0]), c[1], c[2], c[3], c[4]));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** The table's escapes: {@code \t}, {@code \r}, {@code \s} (space), {@code \\}. */
  static String unescape(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\' || i + 1 == s.length()) {
        sb.append(c);
        continue;
      }
      char e = s.charAt(++i);
      switch (e) {
        case 't':
          sb.append('\t');
          break;
        case 'r':
          sb.append('\r');
          break;
        case 's':
          sb.append(' ');
          break;
        case '\\':
          sb.append('\\');
          break;
        default:
          throw new IllegalArgumentException("unknown escape \\" + e + " in " + s);
      }
    }
    return sb.toString();
  }

  /** The forms of a context name or of flags joined by '+'. */
  static int forms(String name) {
    switch (name) {
      case "plain":
      case "none":
        return AddressText.PLAIN;
      case "lookup":
        return AddressText.LOOKUP;
      case "range":
        return AddressText.RANGE;
      case "range_first":
        return AddressText.RANGE_FIRST;
      default:
        int forms = 0;
        for (String flag : name.split("\\+")) {
          switch (flag.toLowerCase(Locale.ROOT)) {
            case "brackets":
              forms |= AddressText.BRACKETS;
              break;
            case "port":
              forms |= AddressText.PORT;
              break;
            case "decimal":
              forms |= AddressText.DECIMAL;
              break;
            case "cidr":
              forms |= AddressText.CIDR;
              break;
            default:
              throw new IllegalArgumentException("unknown forms " + name);
          }
        }
        return forms;
    }
  }

  /** The canonical answer of a result, with {@code /len} for a CIDR block. */
  static String answer(long a, long[] out) {
    String text =
        a == AddressText.IPV6 ? Ipv6Text.format(out[0], out[1]) : Ipv4Text.format((int) a);
    return out[AddressText.PREFIX] >= 0 ? text + "/" + out[AddressText.PREFIX] : text;
  }

  @ParameterizedTest(name = "line {0}: ''{1}'' ({2}) -> {3}{4}")
  @MethodSource("rows")
  void eachLine(int line, String input, String forms, String answer, String reason, String note) {
    String where = TABLE + ":" + line + " '" + input + "' (" + forms + ")";
    long[] out = {7, 7, 7, 7};
    byte[] b = input.getBytes(StandardCharsets.UTF_8);
    // The field as a slice of a longer line: the reader stays within its bounds.
    byte[] line3 = new byte[b.length + 2];
    line3[0] = '0';
    line3[line3.length - 1] = '0';
    System.arraycopy(b, 0, line3, 1, b.length);
    long a = AddressText.parse(line3, 1, 1 + b.length, forms(forms), out);
    if (a < 0) {
      assertEquals(reason, AddressText.reason(a), where);
      assertEquals(7, out[0], where + ": a reject leaves out alone");
      assertEquals(7, out[1], where + ": a reject leaves out alone");
      return;
    }
    assertEquals(answer, answer(a, out), where + " (rejects would say " + reason + ")");
    // The answer is canonical: it reads as itself.
    long[] again = new long[AddressText.DETAILED];
    long b2 = AddressText.parse(answer, AddressText.CIDR, again);
    assertEquals(answer, answer(b2, again), where + ": canonical answer");
  }

  @Test
  void theTableCoversEveryReasonAndContext() {
    java.util.Set<String> reasons = new java.util.TreeSet<>();
    java.util.Set<String> contexts = new java.util.TreeSet<>();
    for (Arguments a : rows()) {
      Object[] r = a.get();
      contexts.add((String) r[2]);
      if (!((String) r[4]).isEmpty()) {
        reasons.add((String) r[4]);
      }
    }
    for (long code = -1; code >= AddressText.LAST_CODE; code--) {
      assertTrue(reasons.contains(AddressText.reason(code)), "no line for " + code);
    }
    assertTrue(contexts.containsAll(List.of("plain", "lookup", "range", "range_first")));
  }
}
