/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.gen;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The labels of the real shape: {@value #DISTINCT} distinct {@code country|region|city|isp} labels
 * (the same for every seed), drawn with Zipf-Mandelbrot frequencies: the label of rank {@code r}
 * (from 1) with probability proportional to {@code 1 / (r + }{@value #OFFSET}{@code )^}{@value
 * #EXPONENT}. A few labels are on many rows (the most common on about 7% of them), most on few.
 */
final class RangeLabels {
  static final int DISTINCT = 6000;
  static final double OFFSET = 6;
  static final double EXPONENT = 1.5;

  /** Countries, their regions, the cities named first in each, and their ISPs. */
  private static final String[][][] COUNTRIES = {
    {
      {"대한민국"},
      {"서울특별시", "부산광역시", "경기도", "인천광역시", "대구광역시", "제주특별자치도"},
      {"강남구", "해운대구", "성남시", "제주시"},
      {"KT", "SK Broadband", "LG U+"}
    },
    {
      {"日本"},
      {"東京都", "大阪府", "神奈川県", "愛知県", "福岡県"},
      {"千代田区", "大阪市", "横浜市"},
      {"NTT", "KDDI", "SoftBank"}
    },
    {
      {"United States"},
      {"California", "Virginia", "Texas", "New York", "Washington", "Illinois", "Oregon"},
      {"San Jose", "Ashburn", "Dallas", "New York"},
      {"Comcast", "AT&T", "Verizon", "Charter"}
    },
    {
      {"Deutschland"},
      {"Hessen", "Bayern", "Berlin", "Nordrhein-Westfalen"},
      {"Frankfurt", "München", "Berlin", "Köln"},
      {"Deutsche Telekom", "Vodafone", "Hetzner"}
    },
    {{"Singapore"}, {"Singapore"}, {"Singapore"}, {"Singtel", "StarHub"}},
    {
      {"Australia"},
      {"Victoria", "New South Wales", "Queensland"},
      {"Melbourne", "Sydney", "Brisbane"},
      {"Telstra", "Optus"}
    },
    {
      {"Brasil"},
      {"São Paulo", "Rio de Janeiro", "Minas Gerais"},
      {"Campinas", "São Paulo", "Rio de Janeiro"},
      {"Vivo", "Claro"}
    },
    {
      {"中国"},
      {"北京市", "上海市", "广东省", "浙江省"},
      {"北京", "上海", "广州", "杭州"},
      {"China Telecom", "China Unicom", "China Mobile"}
    },
    {
      {"United Kingdom"},
      {"England", "Scotland", "Wales"},
      {"London", "Manchester", "Edinburgh"},
      {"BT", "Virgin Media", "Sky"}
    },
    {{"France"}, {"Île-de-France", "Auvergne-Rhône-Alpes"}, {"Paris", "Lyon"}, {"Orange", "OVH"}},
    {
      {"India"},
      {"Maharashtra", "Karnataka", "Delhi"},
      {"Mumbai", "Bengaluru", "New Delhi"},
      {"Jio", "Airtel"}
    },
    {{"Canada"}, {"Ontario", "Québec"}, {"Toronto", "Montréal"}, {"Rogers", "Bell"}},
    {{"Nederland"}, {"Noord-Holland"}, {"Amsterdam"}, {"KPN", "Ziggo"}},
  };

  /** How often each country's labels are made (per 100). */
  private static final int[] COUNTRY_SHARES = {20, 10, 24, 8, 2, 3, 5, 10, 6, 4, 4, 2, 2};

  /** Cloud and CDN networks, found in every country. */
  private static final String[] CLOUDS = {
    "AWS", "Google Cloud", "Microsoft Azure", "Akamai", "Cloudflare", "DigitalOcean"
  };

  private static final String[] HANGUL = {
    "가", "나", "다", "동", "마", "명", "문", "산", "서", "성", "수", "안", "양", "영", "원", "인", "장", "정", "주",
    "천", "청", "평", "하", "해", "화"
  };
  private static final String[] KANJI = {
    "山", "川", "田", "中", "本", "島", "野", "原", "松", "井", "宮", "大", "小", "北", "南", "東", "西", "高", "岡",
    "沢"
  };
  private static final String[] HANZI = {
    "江", "河", "山", "安", "宁", "平", "州", "阳", "南", "北", "东", "西", "海", "昌", "明", "德", "兴", "华"
  };
  private static final String[] LATIN = {
    "an", "ber", "bro", "ca", "del", "dor", "el", "field", "ford", "gar", "ham", "ing", "la", "lin",
    "mar", "mont", "nor", "ol", "ton", "ri", "san", "ta", "ven", "vil", "wood"
  };

  private static final String[] LABELS = pool();

  /** Cumulative probabilities of the ranks. */
  private static final double[] CUMULATIVE = cumulative();

  private RangeLabels() {}

  /** A label drawn with the Zipf-Mandelbrot frequencies. */
  static String draw(SplittableRandom rnd) {
    int i = Arrays.binarySearch(CUMULATIVE, rnd.nextDouble());
    return LABELS[Math.min(i < 0 ? -i - 1 : i, DISTINCT - 1)];
  }

  private static double[] cumulative() {
    double[] c = new double[DISTINCT];
    double sum = 0;
    for (int r = 0; r < DISTINCT; r++) {
      sum += StrictMath.pow(r + 1 + OFFSET, -EXPONENT);
      c[r] = sum;
    }
    for (int r = 0; r < DISTINCT; r++) {
      c[r] /= sum;
    }
    return c;
  }

  /** The distinct labels, from a fixed seed, most frequent first. */
  private static String[] pool() {
    SplittableRandom rnd = new SplittableRandom(0x5EED_1ABE1L);
    Set<String> labels = new LinkedHashSet<>();
    while (labels.size() < DISTINCT) {
      int x = rnd.nextInt(100);
      int c = 0;
      while (x >= COUNTRY_SHARES[c]) {
        x -= COUNTRY_SHARES[c];
        c++;
      }
      String[][] country = COUNTRIES[c];
      String region = country[1][rnd.nextInt(country[1].length)];
      // The known cities first; later ever more generated ones (a long tail of small towns).
      int k =
          (int)
              StrictMath.min(
                  -StrictMath.log(1 - rnd.nextDouble()) * (4 + labels.size() / 40.0), 5000);
      String city = k < country[2].length ? country[2][k] : city(c, k, region);
      String isp =
          rnd.nextInt(5) == 0
              ? CLOUDS[rnd.nextInt(CLOUDS.length)]
              : country[3][rnd.nextInt(country[3].length)];
      labels.add(country[0][0] + "|" + region + "|" + city + "|" + isp);
    }
    return labels.toArray(new String[0]);
  }

  /** Generated city {@code k} of a region: the same name for the same arguments. */
  private static String city(int country, int k, String region) {
    SplittableRandom rnd = new SplittableRandom(((long) country << 32) ^ k ^ region.hashCode());
    switch (country) {
      case 0:
        return pick(rnd, HANGUL, 2) + (rnd.nextBoolean() ? "시" : "군");
      case 1:
        return pick(rnd, KANJI, 2) + (rnd.nextBoolean() ? "市" : "町");
      case 7:
        return pick(rnd, HANZI, 2) + "市";
      default:
        String s = pick(rnd, LATIN, rnd.nextInt(2, 4));
        return s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }
  }

  private static String pick(SplittableRandom rnd, String[] syllables, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(syllables[rnd.nextInt(syllables.length)]);
    }
    return sb.toString();
  }
}
