/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import static io.spindex.testing.MmdbTestWriter.float32;
import static io.spindex.testing.MmdbTestWriter.uint16;
import static io.spindex.testing.MmdbTestWriter.uint32;
import static io.spindex.testing.MmdbTestWriter.uint64;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.maxmind.db.Reader;
import io.spindex.Spindex;
import io.spindex.index.IpRanges;
import io.spindex.index.LabelSchema.FieldType;
import io.spindex.testing.MmdbTestWriter;
import io.spindex.text.AddressText;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Range indexes built from MaxMind DB files: every field of every sampled address is what MaxMind's
 * own reader returns for that address from the same file (the reference), typed as the database
 * typed it: City-shaped nested records, flat records, IPv4 and IPv6 trees with the IPv4 aliases,
 * two databases joined by address, gzip, and damaged files. The databases are written by {@link
 * MmdbTestWriter}.
 */
class MmdbBuildTest {
  @TempDir Path dir;

  private String out;
  private String err;

  private int spindex(String... args) {
    java.io.StringWriter o = new java.io.StringWriter();
    java.io.StringWriter e = new java.io.StringWriter();
    int exit =
        SpindexCli.commandLine()
            .setOut(new java.io.PrintWriter(o, true))
            .setErr(new java.io.PrintWriter(e, true))
            .execute(args);
    out = o.toString();
    err = e.toString();
    return exit;
  }

  private static final String[] CITY_FIELDS = {
    "country=country.iso_code",
    "city=city.names.en",
    "sub=subdivisions.0.iso_code",
    "lat=location.latitude",
    "lon=location.longitude",
    "radius=location.accuracy_radius",
    "geoname=city.geoname_id"
  };

  private static Map<String, Object> city(SplittableRandom r, int i) {
    Map<String, Object> rec = new LinkedHashMap<>();
    Map<String, Object> names = new LinkedHashMap<>();
    names.put("en", "City " + i);
    names.put("de", "Stadt " + i);
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("geoname_id", uint32(1_000_000L + i));
    c.put("names", names);
    if (i % 7 != 0) {
      rec.put("city", c); // some records have no city
    }
    rec.put("country", Map.of("iso_code", new String[] {"AU", "DE", "JP", "US"}[i % 4]));
    Map<String, Object> loc = new LinkedHashMap<>();
    loc.put("latitude", Math.round(r.nextDouble(-90, 90) * 1e4) / 1e4);
    Object lon = i % 5 == 0 ? float32((float) (i * 0.37)) : Double.valueOf(i * 0.25);
    loc.put("longitude", lon);
    loc.put("accuracy_radius", uint16(i % 1000));
    rec.put("location", loc);
    List<Object> subs = new ArrayList<>();
    for (int s = 0; s < i % 3; s++) {
      subs.add(Map.of("iso_code", "S" + i + "-" + s));
    }
    rec.put("subdivisions", subs);
    return rec;
  }

  /** An IPv6 City-shaped database: IPv4 and IPv6 networks, the IPv4 tree aliased. */
  private Path cityDb(String name, boolean alias, int networks) throws IOException {
    SplittableRandom r = new SplittableRandom(name.hashCode());
    MmdbTestWriter w =
        MmdbTestWriter.ipv6()
            .databaseType("Test-City")
            .description("en", "City-shaped test data")
            .languages("en", "de")
            .buildEpoch(1_700_000_000L);
    if (alias) {
      w.aliasIpv4();
    }
    for (int i = 0; i < networks; i++) {
      int len = 16 + r.nextInt(13);
      long a = (r.nextLong(1L << 32) >>> (32 - len)) << (32 - len);
      w.insert(ipv4(a) + "/" + len, city(r, i % 97));
      int len6 = 20 + r.nextInt(40);
      BigInteger v6 =
          BigInteger.valueOf(0x2000 + r.nextInt(0x1000))
              .shiftLeft(112)
              .or(new BigInteger(112, new java.util.Random(r.nextLong())));
      v6 = v6.shiftRight(128 - len6).shiftLeft(128 - len6);
      w.insert(ipv6(v6) + "/" + len6, city(r, 1000 + i % 89));
    }
    Path p = dir.resolve(name);
    w.write(p);
    return p;
  }

  private static String ipv4(long a) {
    return (a >>> 24) + "." + (a >>> 16 & 255) + "." + (a >>> 8 & 255) + "." + (a & 255);
  }

  private static String ipv6(BigInteger v) throws IOException {
    byte[] b = new byte[16];
    byte[] raw = v.toByteArray();
    int n = Math.min(16, raw.length);
    System.arraycopy(raw, raw.length - n, b, 16 - n, n);
    return InetAddress.getByAddress(b).getHostAddress();
  }

  /** The value MaxMind's reader gives for a dotted path, as Spindex types it. */
  private static Object expected(Object record, String path) {
    Object v = record;
    for (String step : path.split("\\.")) {
      if (v instanceof Map) {
        v = ((Map<?, ?>) v).get(step);
      } else if (v instanceof List) {
        int i = Integer.parseInt(step);
        v = i < ((List<?>) v).size() ? ((List<?>) v).get(i) : null;
      } else {
        return null;
      }
    }
    if (v instanceof Integer || v instanceof Long) {
      return ((Number) v).longValue();
    }
    if (v instanceof Float) {
      return (double) (Float) v;
    }
    if (v instanceof BigInteger) {
      return new BigDecimal((BigInteger) v);
    }
    return v;
  }

  private static Object[] spindex(IpRanges r, String address) {
    long[] v6 = new long[2];
    long a = AddressText.parse(address, AddressText.LOOKUP, v6);
    assertTrue(a >= 0, address);
    int id = a == AddressText.IPV6 ? r.labelId(v6[0], v6[1]) : r.labelId((int) a);
    return id == IpRanges.NONE ? null : r.labelValues(id);
  }

  /** MaxMind's answer: null for no network, and for an IPv6 address in an IPv4 database. */
  private static Object reference(Reader reader, String address) throws IOException {
    InetAddress a = InetAddress.getByName(address);
    if (reader.getMetadata().getIpVersion() == 4 && a.getAddress().length == 16) {
      return null;
    }
    return reader.get(a, Map.class);
  }

  /** Addresses inside, at the edges of and around every network, and random ones. */
  @SuppressWarnings("rawtypes") // MaxMind's reader decodes into Map.class
  private static List<String> samples(Path db, long seed) throws IOException {
    List<String> out = new ArrayList<>();
    try (Reader reader = new Reader(db.toFile())) {
      for (com.maxmind.db.DatabaseRecord<Map> rec :
          (Iterable<com.maxmind.db.DatabaseRecord<Map>>) () -> networks(reader)) {
        byte[] first = rec.getNetwork().getNetworkAddress().getAddress();
        int bits = first.length * 8;
        BigInteger f = new BigInteger(1, first);
        BigInteger last =
            f.or(
                BigInteger.ONE
                    .shiftLeft(bits - rec.getNetwork().getPrefixLength())
                    .subtract(BigInteger.ONE));
        for (BigInteger x :
            new BigInteger[] {f, last, f.subtract(BigInteger.ONE), last.add(BigInteger.ONE)}) {
          if (x.signum() >= 0 && x.bitLength() <= bits) {
            out.add(text(x, first.length));
          }
        }
      }
    }
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < 2000; i++) {
      out.add(ipv4(r.nextLong(1L << 32)));
      out.add(text(new BigInteger(128, new java.util.Random(r.nextLong())), 16));
    }
    List<String> v4 = new ArrayList<>(out.subList(0, Math.min(out.size(), 400)));
    for (String s : v4) {
      if (s.indexOf(':') < 0) {
        String[] q = s.split("\\.");
        String hex =
            String.format(
                "%02x%02x:%02x%02x",
                Integer.parseInt(q[0]),
                Integer.parseInt(q[1]),
                Integer.parseInt(q[2]),
                Integer.parseInt(q[3]));
        out.add("::ffff:" + s); // IPv4-mapped
        out.add("2002:" + hex + "::1"); // 6to4
        out.add("2001:0:" + hex + "::2"); // Teredo (server address)
        out.add("::" + hex); // IPv4-compatible, the IPv4 tree of an IPv6 database
      }
    }
    return out;
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static java.util.Iterator<com.maxmind.db.DatabaseRecord<Map>> networks(Reader r) {
    try {
      return r.networks(Map.class);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String text(BigInteger x, int bytes) throws IOException {
    byte[] b = new byte[bytes];
    byte[] raw = x.toByteArray();
    int n = Math.min(bytes, raw.length);
    System.arraycopy(raw, raw.length - n, b, bytes - n, n);
    return bytes == 4 ? ipv4(x.longValue()) : ipv6(x);
  }

  /** Every sampled address: each field what MaxMind's reader gives for its path. */
  private static void sameAnswers(IpRanges idx, Path db, String[] fields, long seed)
      throws IOException {
    int hits = 0;
    try (Reader reader = new Reader(db.toFile())) {
      for (String a : samples(db, seed)) {
        Object rec = reference(reader, a);
        Object[] got = spindex(idx, a);
        if (rec == null) {
          assertEquals(null, got == null ? null : Arrays.asList(got), a);
          continue;
        }
        hits++;
        Object[] want = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
          want[i] = expected(rec, fields[i].substring(fields[i].indexOf('=') + 1));
        }
        assertArrayEquals(want, got, a);
      }
    }
    assertTrue(hits > 100, "hits " + hits);
  }

  @Test
  void cityShapedIpv6DatabaseWithAliasesAnswersAsMaxMind() throws IOException {
    Path db = cityDb("City.mmdb", true, 600);
    Path idx = dir.resolve("city.spx");
    List<String> args =
        new ArrayList<>(List.of("build", "ranges", db.toString(), "-o", idx.toString()));
    for (String f : CITY_FIELDS) {
      args.add("--field");
      args.add(f);
    }
    assertEquals(0, spindex(args.toArray(new String[0])), err);
    IpRanges r = Spindex.open(idx, Spindex.Mode.MEMORY).asRanges();
    assertEquals(
        List.of(
            FieldType.STRING,
            FieldType.STRING,
            FieldType.STRING,
            FieldType.DOUBLE,
            FieldType.DOUBLE,
            FieldType.BIGINT,
            FieldType.BIGINT),
        r.labelSchema().types());
    assertEquals(3, r.ipv4Aliases().size(), "::/96, 2001::/32, 2002::/16");
    sameAnswers(r, db, CITY_FIELDS, 1);

    assertEquals(0, spindex("inspect", idx.toString()));
    assertTrue(out.contains("database_type  Test-City"), out);
    assertTrue(out.contains("description.en City-shaped test data"), out);
    assertTrue(out.contains("languages      en,de"), out);
    assertTrue(out.contains("build_epoch    2023-11-14T22:13:20Z"), out);
    // The database's build time is when the index's source was built.
    assertTrue(out.contains("\nsource built   2023-11-14T22:13:20Z\n"), out);
    assertTrue(out.contains("ipv4 alias     2002::/16"), out);
    assertTrue(
        out.contains(
            "label fields   country string, city string, sub string, lat double, lon double,"
                + " radius bigint, geoname bigint"),
        out);
  }

  @Test
  void withoutAliasesSixToFourAddressesAnswerNothing() throws IOException {
    Path db = cityDb("NoAlias.mmdb", false, 200);
    Path idx = dir.resolve("noalias.spx");
    assertEquals(
        0,
        spindex("build", "ranges", db.toString(), "-o", idx.toString(), "--field", CITY_FIELDS[0]),
        err);
    IpRanges r = Spindex.open(idx, Spindex.Mode.MEMORY).asRanges();
    assertEquals(1, r.ipv4Aliases().size(), "::/96 only");
    sameAnswers(r, db, new String[] {CITY_FIELDS[0]}, 2);
  }

  @Test
  void flatRecordsGiveEveryKeySortedWithTheirTypes() throws IOException {
    MmdbTestWriter w = MmdbTestWriter.ipv4().databaseType("Test-ASN");
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 300; i++) {
      Map<String, Object> rec = new LinkedHashMap<>();
      // A value with '|', and some wholly in double quotes (read back as they are).
      rec.put("autonomous_system_organization", i % 10 == 0 ? "\"Org " + i + "\"" : "Org | " + i);
      rec.put("autonomous_system_number", uint32(64_000L + i));
      if (i % 3 == 0) {
        rec.put("anycast", i % 2 == 0);
      }
      rec.put("big", uint64(BigInteger.ONE.shiftLeft(63).add(BigInteger.valueOf(i))));
      long a = r.nextLong(1L << 32) & ~0xFFL;
      w.insert(ipv4(a) + "/24", rec);
    }
    Path db = dir.resolve("asn.mmdb");
    w.write(db);
    Path idx = dir.resolve("asn.spx");
    assertEquals(0, spindex("build", "ranges", db.toString(), "-o", idx.toString()), err);
    IpRanges ix = Spindex.open(idx, Spindex.Mode.MEMORY).asRanges();
    assertEquals(
        List.of("anycast", "autonomous_system_number", "autonomous_system_organization", "big"),
        ix.labelFields());
    assertEquals(
        List.of(FieldType.BOOLEAN, FieldType.BIGINT, FieldType.STRING, FieldType.DECIMAL_20),
        ix.labelSchema().types());
    assertEquals("\t", ix.labelDelimiter(), "'|' is in a value: the next delimiter");
    sameAnswers(
        ix,
        db,
        new String[] {
          "a=anycast", "n=autonomous_system_number", "o=autonomous_system_organization", "b=big"
        },
        4);
  }

  @Test
  void nestedRecordsWithoutFieldsAndMistypedPathsAreUsageMistakes() throws IOException {
    Path db = cityDb("Nested.mmdb", true, 50);
    Path idx = dir.resolve("n.spx");
    assertEquals(2, spindex("build", "ranges", db.toString(), "-o", idx.toString()));
    assertTrue(err.contains("records are nested"), err);
    assertTrue(err.contains("city.names.en"), err);
    assertTrue(err.contains("location.latitude"), err);
    assertEquals(
        2,
        spindex(
            "build", "ranges", db.toString(), "-o", idx.toString(), "--field", "c=city.nmes.en"));
    assertTrue(err.contains("--field c=city.nmes.en: no record of"), err);
    assertTrue(err.contains("nearest: city.names.en"), err);
    assertFalse(Files.exists(idx));
    assertEquals(
        0,
        spindex(
            "build",
            "ranges",
            db.toString(),
            "-o",
            idx.toString(),
            "--field",
            "c=city.nmes.en",
            "--allow-missing"),
        err);
    assertEquals(
        2, spindex("build", "ranges", db.toString(), "-o", idx.toString(), "--field", "c=city"));
    assertTrue(err.contains("the path holds a map"), err);
  }

  @Test
  void twoDatabasesJoinedByAddress() throws IOException {
    Path city = cityDb("City.mmdb", true, 300);
    // Built a day after the city database: the newer of the two is the index's source time.
    MmdbTestWriter w = MmdbTestWriter.ipv4().databaseType("Test-ASN").buildEpoch(1_700_086_400L);
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < 400; i++) {
      int len = 8 + r.nextInt(13);
      long a = (r.nextLong(1L << 32) >>> (32 - len)) << (32 - len);
      w.insert(ipv4(a) + "/" + len, Map.of("asn", uint32(100 + i % 50)));
    }
    Path asn = dir.resolve("ASN.mmdb");
    w.write(asn);
    Path idx = dir.resolve("joined.spx");
    assertEquals(
        0,
        spindex(
            "build",
            "ranges",
            city.toString(),
            asn.toString(),
            "-o",
            idx.toString(),
            "--field",
            "country=country.iso_code",
            "--field",
            "asn=ASN.mmdb:asn",
            "--field",
            "lat=location.latitude"),
        err);
    IpRanges ix = Spindex.open(idx, Spindex.Mode.MEMORY).asRanges();
    assertEquals(0, ix.ipv4Aliases().size(), "the IPv4 database has none");
    int both = 0;
    try (Reader rc = new Reader(city.toFile());
        Reader ra = new Reader(asn.toFile())) {
      List<String> addrs = samples(city, 6);
      addrs.addAll(samples(asn, 7));
      for (String a : addrs) {
        if (a.startsWith("2002:")
            || a.startsWith("2001:0:")
            || a.startsWith("::") && !a.startsWith("::ffff")) {
          continue; // aliases: only those every database has are kept
        }
        Object c = reference(rc, a);
        Object s = reference(ra, a);
        Object[] want =
            c == null && s == null
                ? null
                : new Object[] {
                  c == null ? null : expected(c, "country.iso_code"),
                  s == null ? null : expected(s, "asn"),
                  c == null ? null : expected(c, "location.latitude")
                };
        Object[] got = spindex(ix, a);
        assertEquals(
            want == null ? null : Arrays.asList(want), got == null ? null : Arrays.asList(got), a);
        both += c != null && s != null ? 1 : 0;
      }
    }
    assertTrue(both > 50, "addresses in both databases: " + both);
    assertEquals(0, spindex("inspect", "--json", idx.toString()));
    assertTrue(out.contains("\"sources\":[{\"source\":\"City.mmdb\""), out);
    assertTrue(out.contains("\"sourceTime\":\"2023-11-15T22:13:20Z\""), out);
    assertTrue(out.contains("{\"source\":\"ASN.mmdb\",\"database_type\":\"Test-ASN\""), out);
  }

  @Test
  void aGzippedDatabaseIsReadByContentWhateverItsName() throws IOException {
    Path db = cityDb("City.mmdb", true, 100);
    Path gz = dir.resolve("geo-data.bin");
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
      Files.copy(db, o);
    }
    Path idx = dir.resolve("gz.spx");
    Path plain = dir.resolve("plain.spx");
    assertEquals(
        0,
        spindex("build", "ranges", gz.toString(), "-o", idx.toString(), "--field", CITY_FIELDS[1]),
        err);
    assertEquals(
        0,
        spindex(
            "build", "ranges", db.toString(), "-o", plain.toString(), "--field", CITY_FIELDS[1]),
        err);
    IpRanges a = Spindex.open(idx, Spindex.Mode.MEMORY).asRanges();
    IpRanges b = Spindex.open(plain, Spindex.Mode.MEMORY).asRanges();
    assertEquals(b.size(), a.size());
    assertEquals(b.ipv6Size(), a.ipv6Size());
    sameAnswers(a, db, new String[] {CITY_FIELDS[1]}, 8);
  }

  /**
   * A {@code bytes} value (a MaxMind type with no SQL twin) is stored as the standard Base64 text
   * of its bytes, a STRING field: decoded, it is the byte array MaxMind's reader returns for the
   * same address, whatever the bytes (not UTF-8, empty, long).
   */
  @Test
  void aBytesFieldIsItsBase64Text() throws IOException {
    SplittableRandom r = new SplittableRandom(17);
    MmdbTestWriter w = MmdbTestWriter.ipv4();
    for (int i = 0; i < 64; i++) {
      byte[] b = new byte[i == 0 ? 0 : 1 + r.nextInt(i * 4)];
      for (int k = 0; k < b.length; k++) {
        b[k] = (byte) r.nextInt(256);
      }
      w.insert("10." + i + ".0.0/16", Map.of("raw", b, "n", "net " + i));
    }
    Path db = dir.resolve("Bytes.mmdb");
    w.write(db);
    Path idx = dir.resolve("bytes.spx");
    assertEquals(
        0,
        spindex("build", "ranges", db.toString(), "-o", idx.toString(), "--field", "raw=raw"),
        err);
    IpRanges ix = Spindex.open(idx, Spindex.Mode.MEMORY).asRanges();
    assertEquals(List.of(FieldType.STRING), ix.labelSchema().types());
    int checked = 0;
    try (Reader reader = new Reader(db.toFile())) {
      for (int i = 0; i < 64; i++) {
        String a = "10." + i + ".1.2";
        byte[] want = (byte[]) ((Map<?, ?>) reference(reader, a)).get("raw");
        Object[] got = spindex(ix, a);
        assertEquals(java.util.Base64.getEncoder().encodeToString(want), got[0], a);
        assertArrayEquals(want, java.util.Base64.getDecoder().decode((String) got[0]), a);
        checked++;
      }
    }
    assertEquals(64, checked);
  }

  @Test
  void damagedDatabasesAreOneLineNamingTheFileAndNothingIsWritten() throws IOException {
    Path db = cityDb("City.mmdb", true, 100);
    byte[] bytes = Files.readAllBytes(db);
    Path idx = dir.resolve("bad.spx");

    Path cut = dir.resolve("cut.mmdb");
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    // Half a file: neither text nor a database.
    assertEquals(
        1,
        spindex("build", "ranges", cut.toString(), "-o", idx.toString(), "--field", CITY_FIELDS[0]),
        err);
    assertEquals(1, err.trim().split("\n").length, err);
    assertTrue(err.contains("cut.mmdb"), err);

    Path wild = dir.resolve("wild.mmdb");
    byte[] w = bytes.clone();
    w[1] = (byte) 0xFF; // the root's left record: 24 bits, now a pointer far past the data
    w[0] = (byte) 0xFF;
    Files.write(wild, w);
    assertEquals(
        1,
        spindex(
            "build", "ranges", wild.toString(), "-o", idx.toString(), "--field", CITY_FIELDS[0]),
        err);
    assertTrue(
        err.startsWith("spindex: " + wild + ": at offset 0: expected a search tree record"), err);
    assertFalse(Files.exists(idx));
  }

  /**
   * Networks that hold the IPv4 tree or IPv4-mapped addresses: {@code ::/0} under a few smaller
   * ones (MaxMind's reader names the part holding {@code ::/96} in IPv4 form with a negative
   * prefix), and an IPv6 network across {@code ::ffff:0:0/96}: every address answers as the reader.
   */
  @Test
  void networksAroundTheIpv4SpaceAnswerAsMaxMind() throws IOException {
    Path db = dir.resolve("Whole.mmdb");
    MmdbTestWriter.ipv6()
        .insert("::/0", Map.of("n", "everything"))
        .insert("2001:db8::/32", Map.of("n", "doc"))
        .insert("1.2.3.0/24", Map.of("n", "v4"))
        .insert("::fffe:0:0/95", Map.of("n", "across"))
        .write(db);
    Path idx = dir.resolve("whole.spx");
    assertEquals(0, spindex("build", "ranges", db.toString(), "-o", idx.toString()), err);
    IpRanges r = Spindex.open(idx, Spindex.Mode.MEMORY).asRanges();
    sameAnswers(r, db, new String[] {"n=n"}, 9);
    for (String a :
        new String[] {"1.2.3.4", "9.9.9.9", "::1.2.3.4", "::ffff:9.9.9.9", "::fffe:1:2"}) {
      try (Reader reader = new Reader(db.toFile())) {
        assertEquals(expected(reference(reader, a), "n"), Arrays.asList(spindex(r, a)).get(0), a);
      }
    }
  }

  /**
   * Files of one database ({@code -ipv4.mmdb} and {@code -ipv6.mmdb}, as ip-location-db ships them)
   * combine as text inputs do: a field without {@code FILE:} is read from each, and every address
   * answers as its own file's reader does.
   */
  @Test
  void filesOfOneDatabaseCombine() throws IOException {
    SplittableRandom r = new SplittableRandom(31);
    MmdbTestWriter v4 = MmdbTestWriter.ipv4().databaseType("geo-whois-asn-country");
    MmdbTestWriter v6 = MmdbTestWriter.ipv6().databaseType("geo-whois-asn-country");
    for (int i = 0; i < 300; i++) {
      int len = 12 + r.nextInt(17);
      long a = (r.nextLong(1L << 32) >>> (32 - len)) << (32 - len);
      v4.insert(ipv4(a) + "/" + len, Map.of("country_code", "C" + (i % 40)));
      v6.insert(
          "2001:db8:" + Integer.toHexString(i) + "::/48", Map.of("country_code", "V" + (i % 40)));
    }
    Path a = dir.resolve("geo-ipv4.mmdb");
    Path b = dir.resolve("geo-ipv6.mmdb");
    v4.write(a);
    v6.write(b);
    Path idx = dir.resolve("geo.spx");
    assertEquals(
        0, spindex("build", "ranges", a.toString(), b.toString(), "-o", idx.toString()), err);
    IpRanges ix = Spindex.open(idx, Spindex.Mode.MEMORY).asRanges();
    assertEquals(List.of("country_code"), ix.labelFields());
    assertTrue(ix.ipv6Size() >= 300 && ix.size() > 100, ix.size() + " / " + ix.ipv6Size());
    int hits = 0;
    try (Reader ra = new Reader(a.toFile());
        Reader rb = new Reader(b.toFile())) {
      List<String> addrs = samples(a, 32);
      addrs.addAll(samples(b, 33));
      for (String s : addrs) {
        if (s.startsWith("::") || s.startsWith("2002:") || s.startsWith("2001:0:")) {
          continue; // the IPv6 file has no IPv4 tree here; its aliases are not in question
        }
        boolean six = InetAddress.getByName(s).getAddress().length == 16;
        Object rec = reference(six ? rb : ra, s);
        Object[] got = spindex(ix, s);
        Object want = rec == null ? null : expected(rec, "country_code");
        assertEquals(want, got == null ? null : got[0], s);
        hits += rec == null ? 0 : 1;
      }
    }
    assertTrue(hits > 300, "hits " + hits);
  }
}
