/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.index.LabelSchema.FieldType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The typed label schema: what {@code --label-fields} declares, which label texts fit it (and why
 * the others do not), and the values a lookup reads. Expected values are written out by hand from
 * the texts, not computed by the class under test.
 */
class LabelSchemaTest {
  private static final LabelSchema GEO =
      LabelSchema.declared(
          List.of("country", "lat:double", "asn:bigint", "anycast:boolean", "big:decimal(20,0)"),
          "|");

  private static String misfit(LabelSchema s, String label) {
    byte[] b = ("xx" + label + "yy").getBytes(StandardCharsets.UTF_8);
    return s.misfit(b, 2, b.length - 2);
  }

  @Test
  void declaredNamesAndTypes() {
    assertEquals(List.of("country", "lat", "asn", "anycast", "big"), GEO.names());
    assertEquals(
        List.of(
            FieldType.STRING,
            FieldType.DOUBLE,
            FieldType.BIGINT,
            FieldType.BOOLEAN,
            FieldType.DECIMAL_20),
        GEO.types());
    assertTrue(GEO.typed());
    assertFalse(LabelSchema.declared(List.of("country", "city"), ",").typed());
    assertEquals(
        "country string, lat double, asn bigint, anycast boolean, big decimal(20,0)",
        GEO.describe());
  }

  @Test
  void anUnknownTypeOrARepeatedNameIsAUsageMistake() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> LabelSchema.declared(List.of("lat:float"), "|"));
    assertTrue(e.getMessage().contains("'lat:float'"), e.getMessage());
    assertTrue(e.getMessage().contains("string, bigint, double, boolean"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> LabelSchema.declared(List.of("a", "a:bigint"), "|"));
  }

  @Test
  void labelsThatFitAndWhyOthersDoNot() {
    assertNull(misfit(GEO, "AU|-33.5|13335|true|18446744073709551615"));
    assertNull(misfit(GEO, "AU|1.0E-5|-7|FALSE|0"));
    assertNull(misfit(GEO, "||||"), "empty fields are NULL");
    assertNull(misfit(GEO, "\\N|\\N|\\N|\\N|\\N"));
    assertEquals("field-count", misfit(GEO, "AU|1|2|true"));
    assertEquals("field-count", misfit(GEO, "AU|1|2|true|3|extra"));
    assertEquals("not-double:lat", misfit(GEO, "AU|north|2|true|3"));
    assertEquals("not-double:lat", misfit(GEO, "AU|NaN|2|true|3"));
    assertEquals("not-double:lat", misfit(GEO, "AU|1.5d|2|true|3"));
    assertEquals("not-bigint:asn", misfit(GEO, "AU|1|AS13335|true|3"));
    assertEquals("not-bigint:asn", misfit(GEO, "AU|1|99999999999999999999|true|3"));
    assertEquals("not-boolean:anycast", misfit(GEO, "AU|1|2|yes|3"));
    assertEquals("not-decimal:big", misfit(GEO, "AU|1|2|true|-3"));
    LabelSchema twoChar = LabelSchema.declared(List.of("a", "b:bigint"), "::");
    assertNull(misfit(twoChar, "x:y::5"));
    assertEquals("not-bigint:b", misfit(twoChar, "x::y:5"));
  }

  @Test
  void valuesByType() {
    assertArrayEquals(
        new Object[] {"AU", -33.5, 13335L, true, new BigDecimal("18446744073709551615")},
        GEO.values("AU|-33.5|13335|true|18446744073709551615"));
    assertArrayEquals(
        new Object[] {"", null, null, null, null}, GEO.values("||||"), "empty: NULL but for text");
    assertArrayEquals(
        new Object[] {null, null, null, null, null}, GEO.values("\\N|\\N|\\N|\\N|\\N"));
    assertArrayEquals(
        new Object[] {"AU", null, null, null, null},
        GEO.values("AU|x"),
        "a label not built by Spindex: what does not parse is NULL");
  }

  @Test
  void untypedFieldsKeepTheTextAsItWas() {
    LabelSchema s = LabelSchema.declared(List.of("country", "city"), ",");
    assertArrayEquals(new Object[] {"AU", "Sydney, NSW"}, s.values("AU,Sydney, NSW"));
    assertArrayEquals(new Object[] {"AU", null}, s.values("AU"));
    assertArrayEquals(new Object[] {"\\N", ""}, s.values("\\N,"));
  }

  @Test
  void theSectionsReadBackAsTheSameSchema() {
    LabelSchema back =
        LabelSchema.read(
            new String(GEO.fieldsSection(), StandardCharsets.UTF_8),
            new String(GEO.typesSection(), StandardCharsets.UTF_8));
    assertEquals(GEO, back);
    assertThrows(
        IllegalArgumentException.class,
        () -> LabelSchema.read("|\na\nb", "string\nfloat"),
        "an unknown type in the file");
    assertThrows(
        IllegalArgumentException.class,
        () -> LabelSchema.read("|\na\nb", "string"),
        "fewer types than fields");
  }

  /** A double-quoted field is one field, as in CSV: delimiters inside it and "" for a quote. */
  @Test
  void quotedFieldsAreOneField() {
    LabelSchema s = LabelSchema.declared(List.of("city", "country", "pop:bigint"), ",");
    assertArrayEquals(new Object[] {"Sydney, NSW", "AU", 5L}, s.values("\"Sydney, NSW\",AU,5"));
    assertArrayEquals(
        new Object[] {"say \"hi\", then", "X", 1L}, s.values("\"say \"\"hi\"\", then\",X,1"));
    assertArrayEquals(new Object[] {"AU", "a\"b", 2L}, s.values("AU,a\"b,2"), "a quote inside");
    assertArrayEquals(new Object[] {"x", "y", 3L}, s.values("x,\"y\",\"3\""));
    assertNull(misfit(s, "\"Sydney, NSW\",AU,5"));
    assertEquals("field-count", misfit(s, "Sydney, NSW,AU,5"));
    assertEquals("not-bigint:pop", misfit(s, "\"Sydney\",AU,\"5,000\""));
  }

  /**
   * The scanners that say which text is a typed value agree with the grammar they implement, as a
   * regular expression, on every text of up to 5 characters of the alphabet that matters and on
   * random longer ones.
   */
  @Test
  void valueTextScannersAgreeWithTheirGrammar() {
    Pattern bigint = Pattern.compile("-?[0-9]{1,19}");
    Pattern decimal = Pattern.compile("[0-9]{1,20}");
    Pattern dbl = Pattern.compile("-?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]{1,3})?");
    char[] alphabet = {'0', '7', '-', '+', '.', 'e', 'E', 'x', ' '};
    List<String> texts = new ArrayList<>();
    texts.add("");
    for (int len = 1; len <= 5; len++) {
      int[] at = new int[len];
      while (true) {
        StringBuilder b = new StringBuilder();
        for (int i : at) {
          b.append(alphabet[i]);
        }
        texts.add(b.toString());
        int k = len - 1;
        while (k >= 0 && ++at[k] == alphabet.length) {
          at[k--] = 0;
        }
        if (k < 0) {
          break;
        }
      }
    }
    SplittableRandom rnd = new SplittableRandom(7);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder b = new StringBuilder();
      for (int n = 6 + rnd.nextInt(20); b.length() < n; ) {
        b.append(rnd.nextInt(3) == 0 ? alphabet[rnd.nextInt(alphabet.length)] : '3');
      }
      texts.add(b.toString());
    }
    texts.addAll(List.of("9223372036854775807", "12345678901234567890", "123456789012345678901"));
    for (String t : texts) {
      assertEquals(bigint.matcher(t).matches(), LabelSchema.integerText(t, true, 19), t);
      assertEquals(decimal.matcher(t).matches(), LabelSchema.integerText(t, false, 20), t);
      assertEquals(dbl.matcher(t).matches(), LabelSchema.doubleText(t), t);
    }
  }
}
