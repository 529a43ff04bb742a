/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * GeoIP2/GeoLite2 City-shaped records for generated real-shaped ranges ({@code country|region|city|
 * isp} labels), shared by many networks as in a City database: each city of the labels gets {@link
 * #RECORDS_PER_RANGE} records per range of it (at least one), its centroid and finer locations
 * (postal code, nearby coordinates, a smaller accuracy radius), and each range takes one of its
 * city's records, the lower ones far more often (the record's rank log-uniform: rank 0, the
 * centroid, most often). About one record in use per nine networks: a City database's few hundred
 * thousand records over its 3 to 4 million networks.
 *
 * <p>A record holds what a City record holds: {@code city} (geoname id, names in 4 languages),
 * {@code continent} and {@code country} (code or ISO code, geoname id, names in the 8 languages of
 * GeoIP2), {@code location} (uint16 accuracy radius, double latitude and longitude, 4 decimals,
 * time zone), {@code postal} (all but the centroids), {@code registered_country} (the country
 * again) and one of {@code subdivisions}; the values shared between records (keys, countries,
 * continents, names) are pointers in the file ({@link MmdbWriter#writeRecords}). The seven values
 * measured are {@link #FIELDS}.
 */
final class CityRecords {
  /** The fields measured, as {@code spindex build ranges --field NAME=PATH} specs. */
  static final List<String> FIELDS =
      List.of(
          "country=country.iso_code",
          "city=city.names.en",
          "subdivision=subdivisions.0.iso_code",
          "latitude=location.latitude",
          "longitude=location.longitude",
          "accuracy_radius=location.accuracy_radius",
          "geoname_id=city.geoname_id");

  /** Records a city gets per range of it (at least one): about half of them end up in use. */
  static final double RECORDS_PER_RANGE = 0.2;

  private static final String[] LANGUAGES = {"de", "en", "es", "fr", "ja", "pt-BR", "ru", "zh-CN"};
  private static final String[] CITY_LANGUAGES = {"de", "en", "fr", "ja"};
  private static final int[] RADII = {1, 5, 10, 20, 20, 50, 50, 100, 100, 200, 500, 1000};

  /** The countries of the generator's labels: name, ISO code, continent, time zone, centre. */
  private static final Object[][] COUNTRIES = {
    {"대한민국", "KR", "AS", "Asia/Seoul", 1835841L, 36.5, 127.8},
    {"日本", "JP", "AS", "Asia/Tokyo", 1861060L, 36.2, 138.3},
    {"United States", "US", "NA", "America/Chicago", 6252001L, 39.8, -98.6},
    {"Deutschland", "DE", "EU", "Europe/Berlin", 2921044L, 51.2, 10.4},
    {"Singapore", "SG", "AS", "Asia/Singapore", 1880251L, 1.35, 103.8},
    {"Australia", "AU", "OC", "Australia/Sydney", 2077456L, -25.3, 133.8},
    {"Brasil", "BR", "SA", "America/Sao_Paulo", 3469034L, -14.2, -51.9},
    {"中国", "CN", "AS", "Asia/Shanghai", 1814991L, 35.9, 104.2},
    {"United Kingdom", "GB", "EU", "Europe/London", 2635167L, 54.0, -2.5},
    {"France", "FR", "EU", "Europe/Paris", 3017382L, 46.6, 2.2},
    {"India", "IN", "AS", "Asia/Kolkata", 1269750L, 20.6, 79.0},
    {"Canada", "CA", "NA", "America/Toronto", 6251999L, 56.1, -106.3},
    {"Nederland", "NL", "EU", "Europe/Amsterdam", 2750405L, 52.1, 5.3},
  };

  private static final Map<String, Object[]> CONTINENTS =
      Map.of(
          "AS", new Object[] {6255147L, "Asia"},
          "EU", new Object[] {6255148L, "Europe"},
          "NA", new Object[] {6255149L, "North America"},
          "SA", new Object[] {6255150L, "South America"},
          "OC", new Object[] {6255151L, "Oceania"});

  /** The ranges, adjacent ones of the same record merged; a row's label id is its record. */
  final RangeTable table;

  /** The records, by record id. */
  final List<Map<String, Object>> records;

  private CityRecords(RangeTable table, List<Map<String, Object>> records) {
    this.table = table;
    this.records = records;
  }

  /** Gives each range of {@code ranges} (real-shaped, generator labels) a City record. */
  static CityRecords assign(RangeTable ranges, long seed) {
    int n = ranges.size();
    // The city of each label, and the ranges of each city.
    Map<String, Integer> cityIds = new HashMap<>();
    List<String[]> cities = new ArrayList<>();
    int[] cityOfLabel = new int[ranges.labels.length];
    for (int l = 0; l < cityOfLabel.length; l++) {
      String[] f = ranges.labels[l].split("\\|", -1);
      String[] city = {f[0], f.length > 1 ? f[1] : "", f.length > 2 ? f[2] : ""};
      cityOfLabel[l] =
          cityIds.computeIfAbsent(
              String.join("|", city),
              k -> {
                cities.add(city);
                return cities.size() - 1;
              });
    }
    int[] rangesOfCity = new int[cities.size()];
    for (int i = 0; i < n; i++) {
      rangesOfCity[cityOfLabel[ranges.labelIds[i]]]++;
    }
    SplittableRandom rnd = new SplittableRandom(seed ^ 0xC17EL);
    Map<Long, Integer> ids = new HashMap<>();
    List<Map<String, Object>> records = new ArrayList<>();
    long[] s = new long[n];
    long[] e = new long[n];
    int[] rec = new int[n];
    int rows = 0;
    for (int i = 0; i < n; i++) {
      int c = cityOfLabel[ranges.labelIds[i]];
      int slots = Math.max(1, (int) Math.round(RECORDS_PER_RANGE * rangesOfCity[c]));
      int k = Math.min(slots - 1, (int) Math.pow(slots, rnd.nextDouble()) - 1);
      long key = (long) c << 32 | k;
      Integer id = ids.get(key);
      if (id == null) {
        id = records.size();
        ids.put(key, id);
        records.add(record(cities.get(c), c, k, seed));
      }
      if (rows > 0 && rec[rows - 1] == id && e[rows - 1] + 1 == ranges.starts[i]) {
        e[rows - 1] = ranges.ends[i];
        continue;
      }
      s[rows] = ranges.starts[i];
      e[rows] = ranges.ends[i];
      rec[rows] = id;
      rows++;
    }
    String[] names = new String[records.size()];
    Arrays.fill(names, "");
    RangeTable t =
        RangeTable.of(
            Arrays.copyOf(s, rows), Arrays.copyOf(e, rows), Arrays.copyOf(rec, rows), names);
    return new CityRecords(t, records);
  }

  /** Record {@code k} of city {@code c} ({@code country, region, city}). */
  private static Map<String, Object> record(String[] city, int c, int k, long seed) {
    Object[] country = countryOf(city[0]);
    String iso = (String) country[1];
    Object[] continent = CONTINENTS.get((String) country[2]);
    Map<String, Object> countryMap =
        map("geoname_id", country[4], "iso_code", iso, "names", names(city[0], LANGUAGES));
    SplittableRandom at = new SplittableRandom(String.join("|", city).hashCode() * 31L + seed);
    double lat = (Double) country[5] + (at.nextDouble() - 0.5) * 6;
    double lon = (Double) country[6] + (at.nextDouble() - 0.5) * 6;
    int radius = 500;
    if (k > 0) {
      SplittableRandom near = new SplittableRandom(((long) c << 32 | k) ^ seed);
      lat += (near.nextDouble() - 0.5) * 0.5;
      lon += (near.nextDouble() - 0.5) * 0.5;
      radius = RADII[near.nextInt(RADII.length)];
    }
    Map<String, Object> location =
        map(
            "accuracy_radius",
            radius,
            "latitude",
            Math.round(lat * 1e4) / 1e4,
            "longitude",
            Math.round(lon * 1e4) / 1e4,
            "time_zone",
            country[3]);
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("city", map("geoname_id", 1_000_000L + 7L * c, "names", names(city[2], CITY_LANGUAGES)));
    r.put(
        "continent",
        map(
            "code",
            country[2],
            "geoname_id",
            continent[0],
            "names",
            names((String) continent[1], LANGUAGES)));
    r.put("country", countryMap);
    r.put("location", location);
    if (k > 0) {
      r.put(
          "postal",
          map(
              "code",
              String.format(Locale.ROOT, "%05d", Math.floorMod(c * 7919 + k * 104729, 100_000))));
    }
    r.put("registered_country", countryMap);
    r.put(
        "subdivisions",
        List.of(
            map(
                "geoname_id",
                2_000_000L + Math.floorMod((city[0] + "|" + city[1]).hashCode(), 1_000_000),
                "iso_code",
                subdivisionCode(city[1]),
                "names",
                names(city[1], CITY_LANGUAGES))));
    return r;
  }

  private static Object[] countryOf(String name) {
    for (Object[] c : COUNTRIES) {
      if (c[0].equals(name)) {
        return c;
      }
    }
    return new Object[] {name, "ZZ", "EU", "UTC", 0L, 0.0, 0.0};
  }

  /** A subdivision's ISO 3166-2 code: letters of a Latin name, else a number (as KR-11, JP-13). */
  static String subdivisionCode(String region) {
    if (region.isEmpty()) {
      return "00";
    }
    if (!region.chars().allMatch(ch -> ch < 0x250)) {
      return Integer.toString(10 + Math.floorMod(region.hashCode(), 90));
    }
    String[] w = region.split("[ -]+");
    String code =
        w.length >= 2
            ? "" + w[0].charAt(0) + w[w.length - 1].charAt(0)
            : region.substring(0, Math.min(2, region.length()));
    return code.toUpperCase(Locale.ROOT);
  }

  private static Map<String, Object> names(String name, String[] languages) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (String l : languages) {
      m.put(l, l.equals("en") ? name : name + " (" + l + ")");
    }
    return m;
  }

  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  /**
   * The seven {@link #FIELDS} of a record as MaxMind's reader decodes it ({@code Map.class}), into
   * {@code out} in their order, as a user pulls them out of the map; the number found.
   */
  static int fields(Map<?, ?> record, Object[] out) {
    Map<?, ?> country = (Map<?, ?>) record.get("country");
    Map<?, ?> city = (Map<?, ?>) record.get("city");
    List<?> subdivisions = (List<?>) record.get("subdivisions");
    Map<?, ?> location = (Map<?, ?>) record.get("location");
    Map<?, ?> cityNames = city == null ? null : (Map<?, ?>) city.get("names");
    Map<?, ?> subdivision =
        subdivisions == null || subdivisions.isEmpty() ? null : (Map<?, ?>) subdivisions.get(0);
    out[0] = country == null ? null : country.get("iso_code");
    out[1] = cityNames == null ? null : cityNames.get("en");
    out[2] = subdivision == null ? null : subdivision.get("iso_code");
    out[3] = location == null ? null : location.get("latitude");
    out[4] = location == null ? null : location.get("longitude");
    out[5] = location == null ? null : location.get("accuracy_radius");
    out[6] = city == null ? null : city.get("geoname_id");
    int found = 0;
    for (Object o : out) {
      found += o != null ? 1 : 0;
    }
    return found;
  }

  /** Values as Spindex types them: integers of every width as {@code Long}. */
  static Object[] normalized(Object[] values) {
    Object[] out = values.clone();
    for (int i = 0; i < out.length; i++) {
      if (out[i] instanceof Integer || out[i] instanceof Short) {
        out[i] = ((Number) out[i]).longValue();
      }
    }
    return out;
  }
}
