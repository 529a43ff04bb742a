/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * A synthetic EP (engine page) product feed like the EP-file article's: UTF-8, tab-separated, a
 * header line of field names, LF line ends, rows of about 700 bytes with Korean text, until the
 * file reaches a given size. Deterministic for a seed.
 */
final class EpFeed {
  static final String HEADER =
      "id\ttitle\tprice_pc\tprice_mobile\tnormal_price\tlink\tmobile_link\timage_link"
          + "\tadd_image_link\tcategory_name1\tcategory_name2\tcategory_name3\tnaver_category"
          + "\tbrand\tmaker\torigin\tsearch_tag\tshipping\tevent_words\treview_count";

  private static final String[] WORDS = {
    "무선", "블루투스", "이어폰", "노이즈캔슬링", "정품", "특가", "한정판", "프리미엄", "스마트", "워치", "가습기", "공기청정기", "유기농",
    "햇반", "생수", "캠핑", "텐트", "의자", "면도기", "세트"
  };
  private static final String[] CATEGORIES = {"디지털/가전", "생활/건강", "식품", "스포츠/레저"};
  private static final String[] BRANDS = {"삼성전자", "LG전자", "애플", "샤오미", "CJ", "코베아"};

  private EpFeed() {}

  /** Writes rows until the file holds at least {@code bytes} bytes; returns the row count. */
  static long write(Path out, long bytes, long seed) throws IOException {
    SplittableRandom rnd = new SplittableRandom(seed);
    StringBuilder sb = new StringBuilder(1024);
    long written;
    long rows = 0;
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
      byte[] h = (HEADER + "\n").getBytes(StandardCharsets.UTF_8);
      o.write(h);
      written = h.length;
      while (written < bytes) {
        sb.setLength(0);
        row(rnd, rows, sb);
        byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
        o.write(b);
        written += b.length;
        rows++;
      }
    }
    return rows;
  }

  private static void row(SplittableRandom rnd, long n, StringBuilder sb) {
    int price = 1000 + rnd.nextInt(2_000_000);
    String id = "P" + (10_000_000 + n);
    sb.append(id).append('\t');
    words(rnd, sb, 12);
    sb.append('\t').append(price).append('\t').append(price - price / 20);
    sb.append('\t').append(price + price / 5).append('\t');
    sb.append("https://shop.example.com/products/")
        .append(id)
        .append("?utm_source=ep&ref=")
        .append(rnd.nextInt(1 << 30))
        .append('\t');
    sb.append("https://m.shop.example.com/products/").append(id).append("?utm_source=ep\t");
    sb.append("https://img.example.com/p/").append(n % 997).append('/').append(id).append(".jpg\t");
    for (int i = 0; i < 3; i++) {
      sb.append(i > 0 ? "|" : "")
          .append("https://img.example.com/p/")
          .append(id)
          .append('_')
          .append(i)
          .append(".jpg");
    }
    sb.append('\t').append(CATEGORIES[rnd.nextInt(CATEGORIES.length)]);
    sb.append('\t').append(WORDS[rnd.nextInt(WORDS.length)]);
    sb.append('\t').append(WORDS[rnd.nextInt(WORDS.length)]);
    sb.append('\t').append(50_000_000 + rnd.nextInt(1_000_000));
    String brand = BRANDS[rnd.nextInt(BRANDS.length)];
    sb.append('\t').append(brand).append('\t').append(brand).append("\t국내산\t");
    for (int i = 0; i < 5; i++) {
      sb.append(i > 0 ? "|" : "").append(WORDS[rnd.nextInt(WORDS.length)]);
    }
    sb.append('\t').append(rnd.nextInt(4) == 0 ? 0 : 2500).append('\t');
    words(rnd, sb, 6);
    sb.append('\t').append(rnd.nextInt(20_000)).append('\n');
  }

  private static void words(SplittableRandom rnd, StringBuilder sb, int n) {
    for (int i = 0; i < n; i++) {
      sb.append(i > 0 ? " " : "").append(WORDS[rnd.nextInt(WORDS.length)]);
    }
  }
}
