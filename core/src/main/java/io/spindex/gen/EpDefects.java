/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The defects {@link EpGenerator} plants, one per defective row. Each name says what the row
 * breaks; with the {@code ep-limits} preset (and no normalisers) each gives the reject reason next
 * to it in {@link #REASONS}. The last four are repairable: the example spec's normalisers fix them
 * (reason {@code null} under normalisers; see docs/EP.md).
 */
final class EpDefects {
  /** Defect kinds, in the order they are cycled through. */
  public static final List<String> KINDS =
      Collections.unmodifiableList(
          Arrays.asList(
              "field-count",
              "invalid-utf8",
              "line-too-long",
              "blank-line",
              "id-bad-chars",
              "id-too-long",
              "title-too-long",
              "price-zero",
              "image-link-empty",
              "link-too-long",
              "category-too-long",
              "shipping-out-of-range",
              "naver-category-not-8-digits",
              "price-with-separators",
              "title-control-chars",
              "title-extra-spaces",
              "crlf-line-end"));

  /**
   * The reject reason each kind gets from {@code require = ep-limits} without normalisers, or
   * {@code null} for a row that passes.
   */
  public static final List<String> REASONS =
      Collections.unmodifiableList(
          Arrays.asList(
              "field-count",
              "invalid-utf8",
              "line-too-long",
              "blank-line",
              "bad-chars:id",
              "too-long:id",
              "too-long:title",
              "out-of-range:price_pc",
              "empty:image_link",
              "too-long:link",
              "too-long:category_name1",
              "out-of-range:shipping",
              "not-digits:naver_category",
              "not-integer:price_pc",
              null,
              null,
              null));

  /** Over the default 64 KiB line cap. */
  static final int LONG_LINE_BYTES = 70_000;

  private EpDefects() {}

  /** The row with defect {@code kind} applied, as a line with its line end. */
  static byte[] apply(int kind, String[] clean, SplittableRandom r) {
    String[] f = clean.clone();
    String name = KINDS.get(kind);
    switch (name) {
      case "field-count":
        return line(Arrays.copyOf(f, f.length - 1), "\n");
      case "invalid-utf8":
        byte[] ok = line(f, "\n");
        ok[ok.length / 3] = (byte) 0xFF;
        return ok;
      case "line-too-long":
        f[EpGenerator.EVENT_WORDS] = "이벤트".repeat(LONG_LINE_BYTES / 9 + 1);
        break;
      case "blank-line":
        return new byte[] {'\n'};
      case "id-bad-chars":
        f[EpGenerator.ID] = f[EpGenerator.ID] + "#상품";
        break;
      case "id-too-long":
        f[EpGenerator.ID] = f[EpGenerator.ID] + "X".repeat(45);
        break;
      case "title-too-long":
        f[EpGenerator.TITLE] = "가".repeat(101);
        break;
      case "price-zero":
        f[EpGenerator.PRICE_PC] = "0";
        break;
      case "image-link-empty":
        f[EpGenerator.IMAGE_LINK] = "";
        break;
      case "link-too-long":
        f[EpGenerator.LINK] = f[EpGenerator.LINK] + "&pad=" + "x".repeat(256);
        break;
      case "category-too-long":
        f[EpGenerator.CATEGORY1] = "카".repeat(51);
        break;
      case "shipping-out-of-range":
        f[EpGenerator.SHIPPING] = Integer.toString(1_000_001 + r.nextInt(1000));
        break;
      case "naver-category-not-8-digits":
        f[EpGenerator.NAVER_CATEGORY] = "5000";
        break;
      case "price-with-separators":
        f[EpGenerator.PRICE_PC] =
            String.format(java.util.Locale.ROOT, "%,d원", Integer.parseInt(f[EpGenerator.PRICE_PC]));
        break;
      case "title-control-chars":
        f[EpGenerator.TITLE] = f[EpGenerator.TITLE].replaceFirst(" ", "\u0007 \u0001");
        break;
      case "title-extra-spaces":
        f[EpGenerator.TITLE] = "  " + f[EpGenerator.TITLE].replace(" ", " \u3000 ") + " ";
        break;
      default: // crlf-line-end
        return line(f, "\r\n");
    }
    return line(f, "\n");
  }

  private static byte[] line(String[] f, String end) {
    return (String.join("\t", f) + end).getBytes(StandardCharsets.UTF_8);
  }
}
