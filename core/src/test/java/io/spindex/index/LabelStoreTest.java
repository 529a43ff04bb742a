/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.builder.IpRangeBuilder;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.Loader;
import io.spindex.text.Ipv4Text;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Labels stored by field ({@code label_value_ids} and the fields' values) against the labels of the
 * source lines and against the same ranges built without declared fields (their labels whole):
 * every loader gives every label's bytes as the source had them (quoted fields with the delimiter
 * inside, empty fields, UTF-8, a field of over 65,536 values whose ids take 3 bytes); which builds
 * store them so; and what the loaders and {@code verify} refuse.
 */
class LabelStoreTest {
  @TempDir Path dir;

  private static final List<String> FIELDS =
      List.of("country", "city", "latitude:double", "code:bigint");

  /** One source label a range: row i holds the addresses [i·256, i·256+255] of 1.0.0.0/8. */
  private static List<String> labels(int n) {
    String[] countries = {"KR", "JP", "", "US", "DE"};
    String[] cities = {"서울", "\"Sydney|NSW\"", "", "Berlin", "\"say \"\"hi\"\"\"", "Köln"};
    SplittableRandom rnd = new SplittableRandom(11);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(
          countries[rnd.nextInt(countries.length)]
              + "|"
              + cities[rnd.nextInt(cities.length)]
              + "|"
              + (rnd.nextInt(3) == 0 ? "" : String.valueOf(rnd.nextInt(180) - 90 + 0.25))
              + "|"
              + i); // a field of as many values as labels
    }
    return out;
  }

  /** The ranges of {@code labels}, with the label fields {@link #FIELDS} or none. */
  private Path build(List<String> labels, boolean fields, String name) throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < labels.size(); i++) {
      int start = 0x0100_0000 + 256 * i;
      text.append(Ipv4Text.format(start))
          .append('\t')
          .append(Ipv4Text.format(start + 255))
          .append('\t')
          .append(labels.get(i))
          .append('\n');
    }
    Path in = dir.resolve(name + ".txt");
    Files.write(in, text.toString().getBytes(StandardCharsets.UTF_8));
    Path out = dir.resolve(name);
    IpRangeBuilder b = new IpRangeBuilder().createdMillis(0);
    if (fields) {
      b.labelFields(FIELDS, "|");
    }
    b.build(List.of(in), out);
    return out;
  }

  @Test
  void everyLoaderReadsEachLabelAsTheSourceHadIt() throws IOException {
    List<String> labels = labels(70_000);
    Path byField = build(labels, true, "fields.spx");
    Path whole = build(labels, false, "whole.spx");
    IndexHeader h = Loader.readHeader(byField);
    assertNotNull(h.find(Section.LABEL_VALUE_IDS));
    assertNull(h.find(Section.LABEL_BYTES));
    // Field by field: 5 countries and 6 cities (1 byte each), the latitudes (1 byte), 70,000
    // codes (3 bytes).
    assertEquals(6L * labels.size(), h.find(Section.LABEL_VALUE_IDS).length());
    assertNotNull(Loader.readHeader(whole).find(Section.LABEL_BYTES));
    assertNull(Loader.readHeader(whole).find(Section.LABEL_VALUE_IDS));
    IndexVerifier.verify(byField);

    IpRanges reference = Loader.NIO.load(whole).asRanges();
    LabelSchema schema = Loader.NIO.load(byField).asRanges().labelSchema();
    for (IndexLoader l : Loaders.all()) {
      IpRanges r = l.load(byField).asRanges();
      assertEquals(labels.size(), r.labelCount(), l.loaderName());
      for (int i = 0; i < labels.size(); i++) {
        int address = 0x0100_0000 + 256 * i + (i % 256);
        int id = r.labelId(address);
        String where = l.loaderName() + " range " + i;
        assertArrayEquals(labels.get(i).getBytes(StandardCharsets.UTF_8), r.labelBytes(id), where);
        assertEquals(reference.labelId(address), id, where);
        assertArrayEquals(schema.values(labels.get(i)), r.labelValues(id), where);
      }
    }
  }

  @Test
  void byFieldWheneverTheBuildDeclaresFields() throws IOException {
    // Few labels, whose by-field sections take more room than the labels whole: by field still.
    Path small = build(labels(3), true, "few.spx");
    assertNotNull(Loader.readHeader(small).find(Section.LABEL_VALUE_IDS));
    assertNull(Loader.readHeader(small).find(Section.LABEL_BYTES));
    // Without declared fields the labels are whole.
    Path plain = build(labels(3), false, "plain.spx");
    assertNull(Loader.readHeader(plain).find(Section.LABEL_VALUE_IDS));
    assertNotNull(Loader.readHeader(plain).find(Section.LABEL_BYTES));
  }

  @Test
  void damagedValueIdsAndOffsetsAreRefused() throws IOException {
    Path good = build(labels(300), true, "good.spx");
    byte[] b = Files.readAllBytes(good);
    IndexHeader h = Loader.readHeader(good);
    SectionEntry ids = h.find(Section.LABEL_VALUE_IDS);
    SectionEntry counts = h.find(Section.FIELD_VALUE_COUNTS);
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int countries = bb.getInt((int) counts.offset());
    // Label 2's country: one past the last country.
    Path file = dir.resolve("bad.spx");
    byte[] bad = b.clone();
    int stride = (int) (ids.length() / 300);
    bad[(int) ids.offset() + 2 * stride] = (byte) countries;
    Files.write(file, BadFixtures.fixSectionCrc(bad, h, Section.LABEL_VALUE_IDS));
    String message =
        String.format(
            "%s: section 'label_value_ids' at offset %d: expected label 2's value id of field 0"
                + " below %d (its count in 'field_value_counts' at offset %d), found %d",
            file, ids.offset() + 2 * stride, countries, counts.offset(), countries);
    Loaders.rejectedAtOpen(file, message);
    // Opened unchecked, as for a file verified beforehand: the read fails, and reads nothing
    // out of bounds.
    IpRanges unchecked = Loader.mappedUnchecked().load(file).asRanges();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> unchecked.labelBytes(2));
    assertTrue(e.getMessage().contains("run spindex verify"), e.getMessage());

    // A value offset below the one before it.
    SectionEntry offsets = h.find(Section.FIELD_VALUE_OFFSETS);
    int third = bb.getInt((int) offsets.offset() + 8);
    Files.write(file, BadFixtures.setInt(b, h, Section.FIELD_VALUE_OFFSETS, 3, 0));
    Loaders.rejectedAtOpen(
        file,
        String.format(
            "%s: section 'field_value_offsets' at offset %d: expected offsets in ascending order,"
                + " at least %d, found 0",
            file, offsets.offset() + 12, third));

    // Another number of fields than 'label_fields' names (the checksums made right).
    Files.write(file, BadFixtures.dirField(b, h.sections().indexOf(counts), 16, 12));
    Files.write(
        file,
        BadFixtures.fixSectionCrc(
            Files.readAllBytes(file), Loader.readHeader(file), Section.FIELD_VALUE_COUNTS));
    Loaders.rejectedAtOpen(
        file,
        String.format(
            "%s: section 'field_value_counts' at offset %d: expected 4 elements (one a field of"
                + " 'label_fields'), found 3 elements",
            file, counts.offset()));
  }

  /** The labels by field split into the values of {@link LabelSchema}'s split. */
  @Test
  void typedValuesAgreeWithTheSchemasSplit() throws IOException {
    List<String> labels = labels(50);
    IpRanges r = Loader.NIO.load(build(labels, true, "typed.spx")).asRanges();
    LabelSchema schema = r.labelSchema();
    for (int i = 0; i < labels.size(); i++) {
      int id = r.labelId(0x0100_0000 + 256 * i);
      assertEquals(
          Arrays.asList(schema.values(labels.get(i))), Arrays.asList(r.labelValues(id)), "" + i);
    }
  }
}
