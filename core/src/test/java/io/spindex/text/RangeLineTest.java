/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RangeLineTest {

  /** Expected: {@code start-end [label]} with addresses unsigned, or the reject reason. */
  @ParameterizedTest(name = "[{0}] ''{1}'' -> {2}")
  @CsvSource(
      delimiter = ';',
      quoteCharacter = '`',
      value = {
        "|;1.0.0.0|1.0.0.255|AU|Sydney;16777216-16777471 [AU|Sydney]",
        "|;1.0.0.0|1.0.0.255|;16777216-16777471 []",
        "|;1.0.0.0|1.0.0.255;16777216-16777471 []",
        "|;0.0.0.0|255.255.255.255|all;0-4294967295 [all]",
        "|;7.7.7.7|7.7.7.7|one;117901063-117901063 [one]",
        ",;\"16777216\",\"16777471\",\"AU\";16777216-16777471 [\"AU\"]",
        ",;16777216,16777471,x;16777216-16777471 [x]",
        ",;0,4294967295,x;0-4294967295 [x]",
        ",;0,4294967296,x;v6 ::-::1:0:0 [x]",
        ",;42540766411282592856903984951653826560,42540766411282592856903984951653826815,x;"
            + "v6 2001:db8::-2001:db8::ff [x]",
        ",;340282366920938463463374607431768211456,1,x;number-out-of-range",
        ",;1.0.0.0/24,2077456,,AU;16777216-16777471 [2077456,,AU]",
        ",;0.0.0.0/0,x;0-4294967295 [x]",
        ",;9.9.9.9/32,x;151587081-151587081 [x]",
        ",;1.0.0.1/24,x;cidr-host-bits-set",
        ",;1.0.0.0/33,x;bad-cidr-prefix",
        ",;1.0.0.0/,x;bad-cidr-prefix",
        ",;1.0.0.0/08,x;bad-cidr-prefix",
        ",;2001:db8::/32,x;v6 2001:db8::-2001:db8:ffff:ffff:ffff:ffff:ffff:ffff [x]",
        ",;\"2001:DB8::\",\"2001:db8::ff\",x;v6 2001:db8::-2001:db8::ff [x]",
        ",;::/0,all;v6 ::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff [all]",
        ",;::ffff:1.0.0.0,::ffff:1.0.0.255,x;16777216-16777471 [x]",
        ",;1.0.0.0,::ffff:1.0.0.255,x;16777216-16777471 [x]",
        ",;::ffff:1.0.0.0/120,x;16777216-16777471 [x]",
        ",;::ffff:0:0/96,x;0-4294967295 [x]",
        ",;::ffff:1.0.0.0,2001:db8::,x;v6 ::ffff:1.0.0.0-2001:db8:: [x]",
        ",;::1,::ffff:1.0.0.0,x;v6 ::1-::ffff:1.0.0.0 [x]",
        ",;1.0.0.0,2001:db8::,x;mixed-families",
        ",;\"1.0.0.0/24\",x;16777216-16777471 [x]",
        ",;[::1],[::2],x;brackets-not-allowed",
        ",;::1,[::2]:80,x;port-not-allowed",
        ",;1.0.0.0:80,1.0.0.9,x;port-not-allowed",
        ",;2001:db8::1/128,x;v6 2001:db8::1-2001:db8::1 [x]",
        ",;2001:db8::1/64,x;cidr-host-bits-set",
        ",;2001:db8::/129,x;bad-cidr-prefix",
        "|;fe80::1%eth0|fe80::2|x;zone-id",
        "|;2001:db8::|2001:db8:::1|x;double-colon-twice",
        "|;1.2.3.4|2001:db8::1|x;mixed-families",
        "|;2001:db8::9|2001:db8::1|x;end-before-start",
        "|;1.0.0.9|1.0.0.0|x;end-before-start",
        "|;1.0.0.0;missing-end",
        "|;start|end|label;bad-start",
        "|;1.0.0.0|x|label;bad-end",
        "|;01.0.0.0|1.0.0.9|x;bad-start",
      })
  void parses(String delimiter, String line, String expected) {
    RangeLine p = new RangeLine((byte) delimiter.charAt(0));
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    String reason = p.parse(b, 0, b.length);
    String got =
        reason != null
            ? reason
            : p.family() == 6
                ? "v6 "
                    + Ipv6Text.format(p.startHi(), p.startLo())
                    + "-"
                    + Ipv6Text.format(p.endHi(), p.endLo())
                    + " ["
                    + new String(
                        b, p.labelFrom(), p.labelTo() - p.labelFrom(), StandardCharsets.UTF_8)
                    + "]"
                : p.start()
                    + "-"
                    + p.end()
                    + " ["
                    + new String(
                        b, p.labelFrom(), p.labelTo() - p.labelFrom(), StandardCharsets.UTF_8)
                    + "]";
    assertEquals(expected, got);
  }

  @Test
  void trimsAddressFieldsButKeepsTheLabelByteForByte() {
    RangeLine p = new RangeLine((byte) '\t');
    byte[] b = " 1.0.0.0 \t \"1.0.0.9\" \t label  with spaces \r".getBytes(StandardCharsets.UTF_8);
    assertNull(p.parse(b, 0, b.length));
    assertEquals(16777216L, p.start());
    assertEquals(16777225L, p.end());
    assertEquals(
        " label  with spaces ",
        new String(b, p.labelFrom(), p.labelTo() - p.labelFrom(), StandardCharsets.UTF_8));
  }

  @ParameterizedTest(name = "''{0}'' -> {1}")
  @CsvSource(
      delimiter = ';',
      quoteCharacter = '`',
      value = {
        "1.0.0.0|1.0.0.255|AU, Sydney;|",
        "1.0.0.0,1.0.0.255,AU|Sydney;','",
        "`1.0.0.0\t1.0.0.255\tAU|x,y`;tab",
        "1.0.0.0/24,2077456;','",
        "network,geoname_id;none",
        "start|end|label;none",
      })
  void detectsDelimiter(String line, String expected) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    byte d = RangeLine.detectDelimiter(b, 0, b.length);
    String got = d == 0 ? "none" : d == '\t' ? "tab" : d == ',' ? "','" : String.valueOf((char) d);
    assertEquals(expected, got);
  }
}
