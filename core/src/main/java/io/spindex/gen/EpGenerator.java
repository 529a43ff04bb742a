/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Deterministic EP feeds: {@code rows} products of Korean shopping data (600–750 bytes a row on
 * average: Korean titles and categories, long links, optional fields sometimes empty, an unknown
 * column {@code x_seller_memo}), with a fraction of rows carrying one defect each, cycling through
 * {@link EpDefects#KINDS}. A "next day" feed derives from the same products with a known number of
 * inserts (new ids), updates (price, shipping or other content changed) and deletes (ids gone).
 * Product {@code i} depends only on the seed and {@code i}: the same seed gives the same bytes.
 */
@Internal
public final class EpGenerator {
  /** The generated header, in column order. */
  public static final List<String> HEADER =
      Collections.unmodifiableList(
          Arrays.asList(
              "id",
              "title",
              "price_pc",
              "price_mobile",
              "normal_price",
              "link",
              "mobile_link",
              "image_link",
              "add_image_link",
              "category_name1",
              "category_name2",
              "category_name3",
              "category_name4",
              "naver_category",
              "condition",
              "brand",
              "maker",
              "model_number",
              "origin",
              "event_words",
              "coupon",
              "point",
              "search_tag",
              "review_count",
              "shipping",
              "x_seller_memo"));

  static final int ID = 0;
  static final int TITLE = 1;
  static final int PRICE_PC = 2;
  static final int PRICE_MOBILE = 3;
  static final int LINK = 5;
  static final int IMAGE_LINK = 7;
  static final int CATEGORY1 = 9;
  static final int NAVER_CATEGORY = 13;
  static final int EVENT_WORDS = 19;
  static final int SHIPPING = 24;

  private final long rows;
  private final long seed;
  private final double defects;

  /** What was written: rows by kind. */
  public static final class Stats {
    public long rows;
    public long inserts;
    public long updates;
    public long deletes;
    public final long[] defects = new long[EpDefects.KINDS.size()];

    /** A one-line summary. */
    public String format() {
      StringBuilder sb = new StringBuilder();
      sb.append(String.format(Locale.ROOT, "rows %d", rows));
      if (inserts + updates + deletes > 0) {
        sb.append(
            String.format(
                Locale.ROOT, ", inserts %d, updates %d, deletes %d", inserts, updates, deletes));
      }
      for (int k = 0; k < defects.length; k++) {
        if (defects[k] > 0) {
          sb.append(", ").append(EpDefects.KINDS.get(k)).append(' ').append(defects[k]);
        }
      }
      return sb.toString();
    }
  }

  /**
   * @param rows products in the first day's feed
   * @param defects fraction of rows (0..1) with one defect each
   */
  public EpGenerator(long rows, long seed, double defects) {
    if (rows < 0 || defects < 0 || defects > 1) {
      throw new IllegalArgumentException("rows >= 0 and defects in [0, 1]");
    }
    this.rows = rows;
    this.seed = seed;
    this.defects = defects;
  }

  private SplittableRandom random(long product, long salt) {
    long z = seed * 0x9E3779B97F4A7C15L + product * 0xBF58476D1CE4E5B9L + salt;
    return new SplittableRandom(z);
  }

  /** The id of product {@code i}: 'P' and ten digits. */
  public static String id(long i) {
    return String.format(Locale.ROOT, "P%010d", 1_000_000_000L + i);
  }

  /** The clean fields of product {@code i}. */
  String[] product(long i) {
    SplittableRandom r = random(i, 1);
    String[] c = EpVocabulary.CATEGORIES[r.nextInt(EpVocabulary.CATEGORIES.length)];
    String brand = pick(r, EpVocabulary.BRANDS);
    String model =
        String.format(
            Locale.ROOT, "%c%c-%04d", 'A' + r.nextInt(26), 'A' + r.nextInt(26), r.nextInt(10000));
    String title =
        "["
            + brand
            + "] "
            + pick(r, EpVocabulary.ADJECTIVES)
            + " "
            + pick(r, EpVocabulary.NOUNS)
            + " "
            + model
            + " "
            + pick(r, EpVocabulary.COLORS)
            + (r.nextBoolean() ? " " + pick(r, EpVocabulary.ADJECTIVES) : "");
    int price = (5 + r.nextInt(2000)) * 100;
    String goods = Long.toString(1_000_000_000L + i);
    String[] f = new String[HEADER.size()];
    f[ID] = id(i);
    f[TITLE] = title;
    f[PRICE_PC] = Integer.toString(price);
    f[PRICE_MOBILE] = r.nextInt(4) == 0 ? "" : Integer.toString(price - price / 20 / 100 * 100);
    f[4] = r.nextBoolean() ? Integer.toString(price + price / 5 / 100 * 100) : "";
    f[LINK] =
        "https://shop.example.co.kr/goods/view.php?goodsNo="
            + goods
            + "&inflow=naver_ep&utm_source=naver&utm_medium=price_compare";
    f[6] =
        r.nextInt(5) == 0
            ? ""
            : "https://m.shop.example.co.kr/goods/view.php?goodsNo=" + goods + "&inflow=naver_ep";
    f[IMAGE_LINK] = "https://img.example.co.kr/goods/" + goods + "/main_500x500.jpg";
    int extra = r.nextInt(5);
    StringBuilder add = new StringBuilder();
    for (int k = 0; k < extra; k++) {
      add.append(k == 0 ? "" : "|")
          .append("https://img.example.co.kr/goods/")
          .append(goods)
          .append("/detail_")
          .append(k + 1)
          .append("_1000x1000.jpg");
    }
    f[8] = add.toString();
    f[CATEGORY1] = c[0];
    f[10] = c[1];
    f[11] = c[2];
    f[12] = c[3];
    f[NAVER_CATEGORY] = r.nextInt(3) == 0 ? "" : c[4];
    f[14] = pick(r, EpVocabulary.CONDITIONS);
    f[15] = brand;
    f[16] = r.nextBoolean() ? brand : brand + " 코리아";
    f[17] = model;
    f[18] = pick(r, EpVocabulary.ORIGINS);
    f[EVENT_WORDS] = pick(r, EpVocabulary.EVENTS);
    f[20] = r.nextInt(3) == 0 ? (5 + 5 * r.nextInt(4)) + "%" : "";
    f[21] = r.nextInt(3) == 0 ? Integer.toString(price / 100) : "";
    f[22] = pick(r, EpVocabulary.TAGS) + "|" + pick(r, EpVocabulary.TAGS) + "|" + brand;
    f[23] = Integer.toString(r.nextInt(5000));
    f[SHIPPING] = r.nextInt(3) == 0 ? "0" : r.nextBoolean() ? "2500" : "3000";
    f[25] = r.nextInt(4) == 0 ? "" : "창고-" + (char) ('A' + r.nextInt(6)) + "-" + r.nextInt(100);
    return f;
  }

  private static String pick(SplittableRandom r, String[] words) {
    return words[r.nextInt(words.length)];
  }

  /** Writes the first day's feed (with defects) to {@code out} (not closed). */
  public Stats writeTo(OutputStream out) throws IOException {
    Stats st = new Stats();
    RowWriter w = new RowWriter(out);
    w.header();
    SplittableRandom d = random(-1, 7);
    int nextDefect = 0;
    for (long i = 0; i < rows; i++) {
      String[] f = product(i);
      if (defects > 0 && d.nextDouble() < defects) {
        int k = nextDefect++ % EpDefects.KINDS.size();
        st.defects[k]++;
        w.row(EpDefects.apply(k, f, random(i, 3)));
      } else {
        w.row(f);
      }
      st.rows++;
    }
    w.flush();
    return st;
  }

  /**
   * Writes the next day's feed, without defects: each product of the first day is deleted with
   * probability {@code deletes}, else updated with probability {@code updates}, and after each a
   * new product is inserted with probability {@code inserts}. Rows that carried a defect on the
   * first day come back clean.
   */
  public Stats writeNextDay(OutputStream out, double inserts, double updates, double deletes)
      throws IOException {
    Stats st = new Stats();
    RowWriter w = new RowWriter(out);
    w.header();
    SplittableRandom r = random(-2, 11);
    long newId = rows;
    for (long i = 0; i < rows; i++) {
      if (r.nextDouble() < deletes) {
        st.deletes++;
      } else {
        String[] f = product(i);
        if (r.nextDouble() < updates) {
          update(f, r);
          st.updates++;
        }
        w.row(f);
        st.rows++;
      }
      if (r.nextDouble() < inserts) {
        w.row(product(newId++));
        st.inserts++;
        st.rows++;
      }
    }
    w.flush();
    return st;
  }

  /** Changes the price, the shipping fee or the title (so the content hash). */
  static void update(String[] f, SplittableRandom r) {
    switch (r.nextInt(3)) {
      case 0:
        f[PRICE_PC] = Integer.toString(Integer.parseInt(f[PRICE_PC]) + 100 * (1 + r.nextInt(50)));
        break;
      case 1:
        f[SHIPPING] = f[SHIPPING].equals("0") ? "3000" : "0";
        break;
      default:
        f[TITLE] = f[TITLE] + " (재입고)";
        break;
    }
  }

  /** Joins fields with tabs into a buffered output. */
  static final class RowWriter {
    private final OutputStream out;
    private final byte[] buf = new byte[1 << 20];
    private int at;

    RowWriter(OutputStream out) {
      this.out = out;
    }

    void header() throws IOException {
      row(HEADER.toArray(new String[0]));
    }

    void row(String[] fields) throws IOException {
      row(String.join("\t", fields).concat("\n").getBytes(StandardCharsets.UTF_8));
    }

    void row(byte[] line) throws IOException {
      if (at + line.length > buf.length) {
        flush();
      }
      if (line.length > buf.length) {
        out.write(line);
        return;
      }
      System.arraycopy(line, 0, buf, at, line.length);
      at += line.length;
    }

    void flush() throws IOException {
      out.write(buf, 0, at);
      at = 0;
      out.flush();
    }
  }
}
