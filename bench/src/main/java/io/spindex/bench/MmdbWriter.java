/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.bench;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a MaxMind DB ({@code .mmdb}, format 2.0) holding the same ranges as a Spindex range index,
 * for MaxMind's own reader to open: an IPv4 database ({@link #write}, 32-bit tree) or an IPv6 one
 * ({@link #writeIpv6}, 128-bit tree). No MMDB writer library is published on Maven Central
 * (MaxMind's writers are Go and Perl), so this follows the public format spec: a binary search
 * tree, a 16-byte separator, a data section with one map {@code {"label": text}} per distinct label
 * (or a record shaped like a city database's, {@link #writeCityShaped}), and the metadata map after
 * the {@code \xAB\xCD\xEFMaxMind.com} marker. The tree is minimal: a node splits a block only when
 * the block is not inside one range or one gap. IPv4 trees have 32-bit records; IPv6 trees the
 * smallest record size of the spec (24, 28 or 32 bits) that holds every node number and data
 * pointer, as MaxMind's own databases do. The IPv6 tree leaves IPv4 addresses out (no {@code ::/96}
 * or {@code ::ffff:0:0/96} aliases): the IPv6 ranges measured are all in {@code 2000::/3}.
 *
 * <p>{@link #writeRecords} writes any records (maps, arrays, strings, {@code Integer} as uint16,
 * {@code Long} as uint32, doubles) the way MaxMind's own writers lay out a GeoIP2 data section:
 * each distinct value written in full once, every later copy of it (map keys, a country's map, its
 * names) a pointer to that first copy wherever the pointer is shorter, and the smallest record size
 * that fits (28 bits for a City-sized database, as GeoIP2 City has).
 */
final class MmdbWriter {
  private static final int POINTER = 1;
  private static final int MAP = 7;
  private static final int STRING = 2;
  private static final int UINT16 = 5;
  private static final int UINT32 = 6;
  private static final int UINT64 = 9;
  private static final int ARRAY = 11;
  private static final int DOUBLE = 3;
  private static final int EMPTY = -1;

  private final RangeTable t;
  private final Range6Table t6;
  private final String[] labels;
  private boolean cityShaped;
  private int[] left = new int[1 << 16];
  private int[] right = new int[1 << 16];
  private int nodes;
  private long networks;

  private MmdbWriter(RangeTable t, Range6Table t6) {
    this.t = t;
    this.t6 = t6;
    this.labels = t != null ? t.labels : t6.labels;
  }

  /** An IPv4 database (ip_version 4, 32-bit records). */
  static void write(RangeTable t, Path out) throws IOException {
    MmdbWriter w = new MmdbWriter(t, null);
    w.writeTo(out, w.node(0, 0), 4, 32);
  }

  /**
   * As {@link #write}, each record shaped like a GeoIP2/GeoLite2 City record: {@code city}, {@code
   * continent}, {@code country}, {@code registered_country} and one of {@code subdivisions} (each
   * with a geoname id and names in the eight languages those databases carry), {@code location}
   * (accuracy radius, latitude, longitude, time zone), and {@code "label"}: what a reader decodes
   * for every lookup of a real city database, with the same answer as the Spindex index.
   */
  static void writeCityShaped(RangeTable t, Path out) throws IOException {
    MmdbWriter w = new MmdbWriter(t, null);
    w.cityShaped = true;
    w.writeTo(out, w.node(0, 0), 4, 32);
  }

  /**
   * An IPv4 database whose range {@code i} answers {@code records.get(t.labelIds[i])}, with the
   * data section deduplicated by pointers and the smallest record size that fits (see the class
   * comment).
   *
   * @return the networks the tree maps to a record (what {@code Reader.networks()} yields)
   */
  static long writeRecords(RangeTable t, List<?> records, String databaseType, Path out)
      throws IOException {
    MmdbWriter w = new MmdbWriter(t, null);
    int root = w.node(0, 0);
    DataSection d = new DataSection();
    int[] offsets = new int[records.size()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = d.record(records.get(i));
    }
    w.writeTo(out, root, 4, 0, d.out, offsets, databaseType);
    return w.networks;
  }

  /** An IPv6 database (ip_version 6) of the IPv6 ranges, with the smallest records that fit. */
  static void writeIpv6(Range6Table t, Path out) throws IOException {
    writeIpv6(t, out, 0);
  }

  /** As {@link #writeIpv6(Range6Table, Path)}, with records of the size given (0: smallest). */
  static void writeIpv6(Range6Table t, Path out, int recordSize) throws IOException {
    MmdbWriter w = new MmdbWriter(null, t);
    w.writeTo(out, w.node6(0, 0, 0), 6, recordSize);
  }

  private void writeTo(Path out, int root, int ipVersion, int size) throws IOException {
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    int[] offsets = new int[labels.length];
    for (int i = 0; i < labels.length; i++) {
      offsets[i] = data.size();
      if (cityShaped) {
        cityRecord(data, i, labels[i]);
      } else {
        control(data, MAP, 1);
        string(data, "label");
        string(data, labels[i]);
      }
    }
    writeTo(out, root, ipVersion, size, data, offsets, "Spindex-Bench-Ranges");
  }

  private void writeTo(
      Path out,
      int root,
      int ipVersion,
      int size,
      ByteArrayOutputStream data,
      int[] offsets,
      String databaseType)
      throws IOException {
    if (root < 0) {
      throw new IllegalStateException("the whole space is one range: no tree to write");
    }
    int smallest = recordSize((long) nodes + 16 + data.size());
    int recordSize = size == 0 ? smallest : size;
    if (recordSize < smallest || (recordSize != 24 && recordSize != 28 && recordSize != 32)) {
      throw new IllegalArgumentException(
          "record size " + recordSize + " (at least " + smallest + ")");
    }
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 16)) {
      byte[] rec = new byte[recordSize / 4];
      for (int n = 0; n < nodes; n++) {
        putNode(rec, recordSize, record(left[n], offsets), record(right[n], offsets));
        o.write(rec);
      }
      o.write(new byte[16]);
      data.writeTo(o);
      o.write(new byte[] {(byte) 0xAB, (byte) 0xCD, (byte) 0xEF});
      o.write("MaxMind.com".getBytes(StandardCharsets.US_ASCII));
      o.write(metadata(ipVersion, recordSize, databaseType));
    }
  }

  /** The smallest record size of the spec whose records hold every value below {@code limit}. */
  private static int recordSize(long limit) {
    for (int bits : new int[] {24, 28, 32}) {
      if (limit <= 1L << bits) {
        return bits;
      }
    }
    throw new IllegalStateException("tree too large for 32-bit records: " + limit);
  }

  /** One node, its two records laid out as the spec lays out records of this size. */
  private static void putNode(byte[] b, int recordSize, int l, int r) {
    switch (recordSize) {
      case 24:
        put24(b, 0, l);
        put24(b, 3, r);
        break;
      case 28:
        put24(b, 0, l);
        b[3] = (byte) (((l >>> 24) & 0x0F) << 4 | ((r >>> 24) & 0x0F));
        put24(b, 4, r);
        break;
      default:
        putInt(b, 0, l);
        putInt(b, 4, r);
    }
  }

  /** Record value: a node number, {@code nodes} (no data) or a data pointer past the tree. */
  private int record(int v, int[] offsets) {
    if (v >= 0) {
      return v;
    }
    if (v == EMPTY) {
      return nodes;
    }
    return nodes + 16 + offsets[-v - 2];
  }

  /**
   * The record for the block of {@code 2^(32-depth)} addresses at {@code start}: a data value when
   * one range covers it, {@link #EMPTY} when no range touches it, otherwise a new node.
   */
  private int node(long start, int depth) {
    long end = start + (1L << (32 - depth)) - 1;
    int r = t.floorRow(start);
    if (r >= 0 && t.ends[r] >= end) {
      networks++;
      return -2 - t.labelIds[r];
    }
    boolean startInGap = r < 0 || t.ends[r] < start;
    if (startInGap && (r + 1 >= t.size() || t.starts[r + 1] > end)) {
      return EMPTY;
    }
    int n = nodes++;
    if (n == left.length) {
      left = Arrays.copyOf(left, n * 2);
      right = Arrays.copyOf(right, n * 2);
    }
    long half = 1L << (31 - depth);
    int l = node(start, depth + 1);
    int h = node(start + half, depth + 1);
    left[n] = l;
    right[n] = h;
    return n;
  }

  /**
   * The IPv6 counterpart of {@link #node}: the record for the block of {@code 2^(128-depth)}
   * addresses starting at {@code (hi, lo)}.
   */
  private int node6(long hi, long lo, int depth) {
    long endHi = depth >= 64 ? hi : hi | (-1L >>> depth);
    long endLo = depth <= 64 ? -1L : depth == 128 ? lo : lo | (-1L >>> (depth - 64));
    int r = t6.floorRow(hi, lo);
    if (r >= 0 && t6.endsAtOrAfter(r, endHi, endLo)) {
      return -2 - t6.labelIds[r];
    }
    boolean startInGap = r < 0 || !t6.endsAtOrAfter(r, hi, lo);
    if (startInGap
        && (r + 1 >= t6.size()
            || Range6Table.compare(t6.startHi[r + 1], t6.startLo[r + 1], endHi, endLo) > 0)) {
      return EMPTY;
    }
    int n = nodes++;
    if (n == left.length) {
      left = Arrays.copyOf(left, n * 2);
      right = Arrays.copyOf(right, n * 2);
    }
    long highHi = depth < 64 ? hi | (1L << (63 - depth)) : hi;
    long highLo = depth < 64 ? lo : lo | (1L << (127 - depth));
    int l = node6(hi, lo, depth + 1);
    int h = node6(highHi, highLo, depth + 1);
    left[n] = l;
    right[n] = h;
    return n;
  }

  private static final String[] LANGUAGES = {"de", "en", "es", "fr", "ja", "pt-BR", "ru", "zh-CN"};

  /** A City-shaped record for label {@code id}, its names made from the label's fields. */
  private static void cityRecord(ByteArrayOutputStream o, int id, String label) {
    String[] f = label.split("\\|", -1);
    String country = f[0];
    String region = f.length > 1 ? f[1] : "";
    String city = f.length > 2 ? f[2] : "";
    control(o, MAP, 7);
    string(o, "city");
    place(o, 1_000_000L + id, null, city);
    string(o, "continent");
    control(o, MAP, 3);
    string(o, "code");
    string(o, "AS");
    string(o, "geoname_id");
    uint(o, UINT32, 6_255_147);
    names(o, "Asia");
    string(o, "country");
    place(o, 1_835_841L + country.hashCode() % 1000, country, country);
    string(o, "location");
    control(o, MAP, 4);
    string(o, "accuracy_radius");
    uint(o, UINT16, 10 + id % 500);
    string(o, "latitude");
    dbl(o, 37.5 + (id % 1000) / 1000.0);
    string(o, "longitude");
    dbl(o, 126.9 + (id % 997) / 1000.0);
    string(o, "time_zone");
    string(o, "Asia/Seoul");
    string(o, "registered_country");
    place(o, 1_835_841L + country.hashCode() % 1000, country, country);
    string(o, "subdivisions");
    control(o, ARRAY, 1);
    place(o, 2_000_000L + region.hashCode() % 100_000, region.isEmpty() ? "00" : "11", region);
    string(o, "label");
    string(o, label);
  }

  /** {@code {geoname_id, [iso_code,] names}}. */
  private static void place(ByteArrayOutputStream o, long geonameId, String iso, String name) {
    control(o, MAP, iso == null ? 2 : 3);
    string(o, "geoname_id");
    uint(o, UINT32, Math.abs(geonameId));
    if (iso != null) {
      string(o, "iso_code");
      string(o, iso);
    }
    names(o, name);
  }

  private static void names(ByteArrayOutputStream o, String name) {
    string(o, "names");
    control(o, MAP, LANGUAGES.length);
    for (String lang : LANGUAGES) {
      string(o, lang);
      string(o, lang.equals("en") ? name : name + " (" + lang + ")");
    }
  }

  private static void dbl(ByteArrayOutputStream o, double v) {
    control(o, DOUBLE, 8);
    long bits = Double.doubleToLongBits(v);
    for (int i = 7; i >= 0; i--) {
      o.write((int) (bits >>> (8 * i)));
    }
  }

  /**
   * A data section as MaxMind's writers lay it out: each distinct value (by {@code equals}) written
   * in full once; a later copy is a pointer to it when the pointer is shorter than the value.
   */
  private static final class DataSection {
    final ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);

    /** Where each value was first written in full, and how many bytes that took. */
    private final Map<Object, int[]> seen = new HashMap<>();

    /** Writes a record (or finds an equal one written before): the offset to point the tree at. */
    int record(Object v) {
      int[] at = seen.get(v);
      if (at != null) {
        return at[0];
      }
      int offset = out.size();
      value(v);
      return offset;
    }

    /** Writes {@code v} here: a pointer to an earlier copy when one is shorter, else in full. */
    void value(Object v) {
      int[] at = seen.get(v);
      if (at != null) {
        byte[] p = pointer(at[0]);
        if (p.length < at[1]) {
          out.write(p, 0, p.length);
          return;
        }
      }
      int offset = out.size();
      inline(v);
      if (at == null) {
        seen.put(v, new int[] {offset, out.size() - offset});
      }
    }

    private void inline(Object v) {
      if (v instanceof String) {
        string(out, (String) v);
      } else if (v instanceof Integer) {
        uint(out, UINT16, (Integer) v);
      } else if (v instanceof Long) {
        uint(out, UINT32, (Long) v);
      } else if (v instanceof Double) {
        dbl(out, (Double) v);
      } else if (v instanceof Map) {
        Map<?, ?> m = (Map<?, ?>) v;
        control(out, MAP, m.size());
        for (Map.Entry<?, ?> e : m.entrySet()) {
          value(e.getKey());
          value(e.getValue());
        }
      } else if (v instanceof List) {
        List<?> l = (List<?>) v;
        control(out, ARRAY, l.size());
        for (Object e : l) {
          value(e);
        }
      } else {
        throw new IllegalArgumentException("no MaxMind DB type for " + v);
      }
    }

    /** A pointer to data offset {@code p}, in the fewest bytes the spec allows (2 to 5). */
    private static byte[] pointer(int p) {
      if (p < 1 << 11) {
        return new byte[] {(byte) (POINTER << 5 | p >>> 8), (byte) p};
      }
      if (p < (1 << 19) + (1 << 11)) {
        int q = p - (1 << 11);
        return new byte[] {(byte) (POINTER << 5 | 1 << 3 | q >>> 16), (byte) (q >>> 8), (byte) q};
      }
      if (p < (1 << 27) + (1 << 19) + (1 << 11)) {
        int q = p - (1 << 19) - (1 << 11);
        return new byte[] {
          (byte) (POINTER << 5 | 2 << 3 | q >>> 24), (byte) (q >>> 16), (byte) (q >>> 8), (byte) q
        };
      }
      return new byte[] {
        (byte) (POINTER << 5 | 3 << 3),
        (byte) (p >>> 24),
        (byte) (p >>> 16),
        (byte) (p >>> 8),
        (byte) p
      };
    }
  }

  private byte[] metadata(int ipVersion, int recordSize, String databaseType) {
    ByteArrayOutputStream m = new ByteArrayOutputStream();
    control(m, MAP, 9);
    string(m, "binary_format_major_version");
    uint(m, UINT16, 2);
    string(m, "binary_format_minor_version");
    uint(m, UINT16, 0);
    string(m, "build_epoch");
    uint(m, UINT64, 0);
    string(m, "database_type");
    string(m, databaseType);
    string(m, "description");
    control(m, MAP, 0);
    string(m, "ip_version");
    uint(m, UINT16, ipVersion);
    string(m, "languages");
    control(m, ARRAY, 0);
    string(m, "node_count");
    uint(m, UINT32, nodes);
    string(m, "record_size");
    uint(m, UINT16, recordSize);
    return m.toByteArray();
  }

  /** A control byte (and extended type byte and size bytes) as the spec lays them out. */
  private static void control(ByteArrayOutputStream o, int type, int size) {
    int first = type <= 7 ? type << 5 : 0;
    int sizeBits;
    byte[] extra;
    if (size < 29) {
      sizeBits = size;
      extra = new byte[0];
    } else if (size < 29 + 256) {
      sizeBits = 29;
      extra = new byte[] {(byte) (size - 29)};
    } else if (size < 285 + 65536) {
      sizeBits = 30;
      int s = size - 285;
      extra = new byte[] {(byte) (s >>> 8), (byte) s};
    } else {
      sizeBits = 31;
      int s = size - 65821;
      extra = new byte[] {(byte) (s >>> 16), (byte) (s >>> 8), (byte) s};
    }
    o.write(first | sizeBits);
    if (type > 7) {
      o.write(type - 7);
    }
    o.write(extra, 0, extra.length);
  }

  private static void string(ByteArrayOutputStream o, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    control(o, STRING, b.length);
    o.write(b, 0, b.length);
  }

  /** An unsigned integer in as few big-endian bytes as it needs (zero takes none). */
  private static void uint(ByteArrayOutputStream o, int type, long v) {
    int bytes = (64 - Long.numberOfLeadingZeros(v) + 7) / 8;
    control(o, type, bytes);
    for (int i = bytes - 1; i >= 0; i--) {
      o.write((int) (v >>> (8 * i)));
    }
  }

  private static void put24(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 16);
    b[at + 1] = (byte) (v >>> 8);
    b[at + 2] = (byte) v;
  }

  private static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }
}
