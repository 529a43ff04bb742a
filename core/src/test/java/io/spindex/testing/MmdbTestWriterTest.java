/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.testing;

import static io.spindex.testing.MmdbTestWriter.float32;
import static io.spindex.testing.MmdbTestWriter.int32;
import static io.spindex.testing.MmdbTestWriter.uint128;
import static io.spindex.testing.MmdbTestWriter.uint16;
import static io.spindex.testing.MmdbTestWriter.uint32;
import static io.spindex.testing.MmdbTestWriter.uint64;
import static java.math.BigInteger.ONE;
import static java.math.BigInteger.ZERO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.maxmind.db.DatabaseRecord;
import com.maxmind.db.InvalidNetworkException;
import com.maxmind.db.Metadata;
import com.maxmind.db.Networks;
import com.maxmind.db.Reader;
import java.io.IOException;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link MmdbTestWriter} against MaxMind's own reader ({@code com.maxmind.db.Reader}): what it
 * answers for the first and last address of every network, for addresses of none, for IPv4
 * addresses through the IPv6 aliases, what its {@code networks()} iterations yield, and the
 * metadata, each compared with an expectation built here apart from the writer: by hand for the
 * small databases, and for random ones a list of inserted (first, last, record) scanned from the
 * last insert back.
 *
 * <p>MaxMind's reader decodes uint16 and int32 to {@link Integer}, uint32 to {@link Long}, uint64
 * and uint128 to {@link BigInteger}, float to {@link Float}, double to {@link Double}, bytes to
 * {@code byte[]}, maps to {@link HashMap} and arrays to {@link ArrayList}.
 */
class MmdbTestWriterTest {
  private static final BigInteger TWO_32 = ONE.shiftLeft(32);
  private static final BigInteger TWO_63 = ONE.shiftLeft(63);
  private static final BigInteger TWO_64 = ONE.shiftLeft(64);
  private static final BigInteger TWO_128 = ONE.shiftLeft(128);
  private static final BigInteger MASK_32 = TWO_32.subtract(ONE);

  /** The alias networks: base address, prefix, and how far up the IPv4 address sits in them. */
  private static final BigInteger[] ALIAS_BASES = {
    BigInteger.valueOf(0xFFFF).shiftLeft(32),
    BigInteger.valueOf(0x2001_0000L).shiftLeft(96),
    BigInteger.valueOf(0x2002).shiftLeft(112)
  };

  private static final int[] ALIAS_PREFIXES = {96, 32, 16};
  private static final int[] ALIAS_SHIFTS = {0, 64, 80};

  /** What the reference answers inside an alias network when aliases are not followed. */
  private static final Object ALIAS = new Object();

  /** What the reference answers past the last address. */
  private static final Object END = new Object();

  @TempDir Path dir;

  // ---- Records of every shape and type.

  @ParameterizedTest(name = "ip_version {0}")
  @ValueSource(ints = {4, 6})
  void cityRecordsAnswerAtBothEndsOfEveryNetwork(int ipVersion) throws IOException {
    Rec berlin = city(2_950_159, "Berlin", "Berlin", "DE", 52.52, 13.405, 50, "BE", "DE-BE");
    Rec munich = city(2_867_714, "Munich", "München", "DE", 48.137, 11.575, 20, "BY", "DE-BY");
    Rec tokyo = city(1_850_147, "Tokyo", "Tokio", "JP", 35.6895, 139.6917, 100, "13", "JP-13");
    MmdbTestWriter w = ipVersion == 4 ? MmdbTestWriter.ipv4() : MmdbTestWriter.ipv6();
    Reference ref = new Reference(ipVersion == 6, false);
    insert(w, ref, "1.2.0.0/16", berlin);
    insert(w, ref, "1.2.3.0/24", munich);
    insert(w, ref, "10.0.0.0/8", tokyo);
    insert(w, ref, "223.255.255.255/32", munich);
    if (ipVersion == 6) {
      insert(w, ref, "2001:db8::/32", tokyo);
      insert(w, ref, "2a02:2e0::/29", berlin);
      insert(w, ref, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/127", munich);
    }
    try (Reader r = open(w)) {
      checkEnds(r, ref);
      for (String outside :
          new String[] {"0.0.0.0", "1.1.255.255", "1.3.0.0", "9.255.255.255", "255.255.255.255"}) {
        assertNull(r.get(InetAddress.getByName(outside), Map.class), outside);
      }
      if (ipVersion == 6) {
        for (String outside : new String[] {"::", "2001:db7:ffff::", "2001:db9::", "fe80::1"}) {
          assertNull(r.get(InetAddress.getByName(outside), Map.class), outside);
        }
      }
      List<String> expected =
          new ArrayList<>(
              List.of(
                  "1.2.0.0/23",
                  "1.2.2.0/24",
                  "1.2.3.0/24",
                  "1.2.4.0/22",
                  "1.2.8.0/21",
                  "1.2.16.0/20",
                  "1.2.32.0/19",
                  "1.2.64.0/18",
                  "1.2.128.0/17",
                  "10.0.0.0/8",
                  "223.255.255.255/32"));
      if (ipVersion == 6) {
        expected.addAll(
            List.of(
                "2001:db8:0:0:0:0:0:0/32",
                "2a02:2e0:0:0:0:0:0:0/29",
                "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/127"));
      }
      List<Found> found = networks(r, false);
      assertEquals(expected, names(found));
      checkNetworkRecords(found, ref);
      assertSameData(munich.expected, found.get(2).record, "1.2.3.0/24");
      assertEquals(expected, names(blocks(ref, false)));
    }
  }

  @Test
  void everyScalarTypeReadsBackAsTheReaderDecodesIt() throws IOException {
    BigInteger big64 = TWO_63.add(BigInteger.valueOf(12_345));
    BigInteger max64 = TWO_64.subtract(ONE);
    BigInteger big128 = TWO_64.add(BigInteger.valueOf(7));
    BigInteger max128 = TWO_128.subtract(ONE);
    byte[] bytes = {0, 1, (byte) 0x7F, (byte) 0x80, (byte) 0xFF};
    Map<String, Object> written = new LinkedHashMap<>();
    Map<String, Object> expected = new HashMap<>();
    put(written, expected, "string", "Grüße, 東京 ✓", "Grüße, 東京 ✓");
    put(written, expected, "empty string", "", "");
    put(written, expected, "double", -1.5e300, -1.5e300);
    put(written, expected, "double zero", 0.0, 0.0);
    put(written, expected, "float", 3.25f, 3.25f);
    put(written, expected, "float typed", float32(-0.125f), -0.125f);
    put(written, expected, "bytes", bytes, bytes.clone());
    put(written, expected, "no bytes", new byte[0], new byte[0]);
    put(written, expected, "uint16", uint16(65_535), 65_535);
    put(written, expected, "uint16 zero", uint16(0), 0);
    put(written, expected, "uint16 one byte", uint16(200), 200);
    put(written, expected, "uint32", uint32(0xFFFF_FFFFL), 0xFFFF_FFFFL);
    put(written, expected, "uint32 plain Long", 7L, 7L);
    put(written, expected, "uint32 zero", 0L, 0L);
    put(written, expected, "int32 negative", -123_456, -123_456);
    put(written, expected, "int32 min", int32(Integer.MIN_VALUE), Integer.MIN_VALUE);
    put(written, expected, "int32 max", Integer.MAX_VALUE, Integer.MAX_VALUE);
    put(written, expected, "int32 minus one", -1, -1);
    put(written, expected, "int32 small", 200, 200);
    put(written, expected, "uint64 past 2^63", uint64(big64), big64);
    put(written, expected, "uint64 max", uint64(max64), max64);
    put(written, expected, "uint64 plain BigInteger", big64, big64);
    put(written, expected, "uint64 zero", uint64(ZERO), ZERO);
    put(written, expected, "uint128 past 2^64", uint128(big128), big128);
    put(written, expected, "uint128 max", uint128(max128), max128);
    put(written, expected, "uint128 plain BigInteger", max128, max128);
    put(written, expected, "uint128 small", uint128(ONE), ONE);
    put(written, expected, "true", true, true);
    put(written, expected, "false", false, false);
    put(
        written,
        expected,
        "array",
        List.of(1, "two", 3.0, List.of(), Map.of(), List.of(List.of(true))),
        List.of(1, "two", 3.0, List.of(), Map.of(), List.of(List.of(true))));
    put(written, expected, "empty map", Map.of(), Map.of());
    for (boolean pointers : new boolean[] {true, false}) {
      MmdbTestWriter w = MmdbTestWriter.ipv4().pointers(pointers);
      w.insert("8.8.8.0/24", written);
      w.insert("8.8.4.0/24", Map.of("only", written.get("uint128 max")));
      try (Reader r = open(w)) {
        assertSameData(expected, r.get(InetAddress.getByName("8.8.8.8"), Map.class), "8.8.8.8");
        assertSameData(
            Map.of("only", max128), r.get(InetAddress.getByName("8.8.4.4"), Map.class), "8.8.4.4");
      }
    }
  }

  @Test
  void recordsNeedNotBeMaps() throws IOException {
    MmdbTestWriter w = MmdbTestWriter.ipv6().aliasIpv4();
    w.insert("1.0.0.0/24", "just a string");
    w.insert("1.0.1.0/24", List.of("a", 1L, -1));
    w.insert("1.0.2.0/24", 4_000_000_000L);
    w.insert("1.0.3.0/24", true);
    w.insert("1.0.4.0/24", uint128(TWO_128.subtract(ONE)));
    w.insert("2c0f:f248::/32", new byte[] {1, 2, 3});
    try (Reader r = open(w)) {
      assertEquals("just a string", r.get(InetAddress.getByName("1.0.0.9"), Object.class));
      assertEquals(List.of("a", 1L, -1), r.get(InetAddress.getByName("1.0.1.9"), Object.class));
      assertEquals(4_000_000_000L, r.get(InetAddress.getByName("1.0.2.9"), Object.class));
      assertEquals(true, r.get(InetAddress.getByName("2002:100:309::"), Object.class));
      assertEquals(TWO_128.subtract(ONE), r.get(InetAddress.getByName("1.0.4.255"), Object.class));
      assertSameData(
          new byte[] {1, 2, 3},
          r.get(InetAddress.getByName("2c0f:f248:ffff::"), Object.class),
          "bytes");
    }
  }

  @Test
  void sizesPastEveryControlByteBoundary() throws IOException {
    Map<String, Object> written = new LinkedHashMap<>();
    for (int length : new int[] {0, 28, 29, 284, 285, 65_820, 65_821, 70_000}) {
      written.put("string " + length, "é".repeat(length / 2) + "x".repeat(length % 2));
      written.put("bytes " + length, bytes(length, length));
    }
    written.put("bytes 600000", bytes(600_000, 1));
    Map<String, Object> wide = new LinkedHashMap<>();
    for (int i = 0; i < 300; i++) {
      wide.put("key " + i, (long) i);
    }
    written.put("map of 300", wide);
    List<Object> array = new ArrayList<>();
    for (int i = 0; i < 70_000; i++) {
      array.add(i % 3 == 0 ? "x" : i);
    }
    written.put("array of 70000", array);
    written.put("array of 29", Collections.nCopies(29, 1L));
    written.put("map of 29", map29());
    for (boolean pointers : new boolean[] {true, false}) {
      MmdbTestWriter w = MmdbTestWriter.ipv4().pointers(pointers).insert("0.0.0.0/1", written);
      try (Reader r = open(w)) {
        assertSameData(written, r.get(InetAddress.getByName("1.1.1.1"), Map.class), "record");
        assertNull(r.get(InetAddress.getByName("128.0.0.0"), Map.class));
      }
    }
  }

  /**
   * The data section byte for byte as the spec lays it out: control bytes (extended types as a zero
   * type and a second byte of the type less 7), sizes, big-endian payloads of the fewest bytes (a
   * uint64 of 2^64-1 in 8, a uint128 of 2^64 in 9, a uint16 of 256 in 2), a negative int32 in 4, a
   * boolean's value as its size.
   */
  @Test
  void dataSectionIsTheSpecsByteForByte() throws IOException {
    Map<String, Object> record = new HashMap<>();
    record.put("b", true);
    record.put("d", 1.5);
    record.put("f", 1.5f);
    record.put("i", -1);
    record.put("u16", uint16(256));
    record.put("u32", 65_536L);
    record.put("u64", uint64(TWO_64.subtract(ONE)));
    record.put("u128", TWO_64);
    record.put("x", new byte[] {1, 2});
    record.put("y", List.of());
    record.put("z", "");
    byte[] file = Files.readAllBytes(write(MmdbTestWriter.ipv4().insert("1.0.0.0/8", record)));
    int start = dataSection(file);
    byte[] marker = {
      (byte) 0xAB, (byte) 0xCD, (byte) 0xEF, 'M', 'a', 'x', 'M', 'i', 'n', 'd', '.', 'c', 'o', 'm'
    };
    byte[] data = Arrays.copyOfRange(file, start, indexOf(file, marker, 0));
    String expected =
        "eb" // map of 11 pairs, keys in order
            + "4162 0107" // "b": boolean true (extended type 14, size 1)
            + "4164 68 3ff8000000000000" // "d": double 1.5
            + "4166 0408 3fc00000" // "f": float 1.5 (extended type 15)
            + "4169 0401 ffffffff" // "i": int32 -1 (extended type 8)
            + "4475313238 0903 010000000000000000" // "u128": 2^64 (extended 10)
            + "43753136 a2 0100" // "u16": 256
            + "43753332 c3 010000" // "u32": 65,536
            + "43753634 0802 ffffffffffffffff" // "u64": 2^64-1 (extended 9)
            + "4178 82 0102" // "x": bytes
            + "4179 0004" // "y": empty array (extended 11)
            + "417a 40"; // "z": empty string
    assertEquals(expected.replace(" ", ""), hex(data));
  }

  // ---- Dedup and pointers.

  @Test
  void identicalRecordsAreWrittenOnceAndOverwrittenOnesNotAtAll() throws IOException {
    for (boolean pointers : new boolean[] {true, false}) {
      MmdbTestWriter w = MmdbTestWriter.ipv4().pointers(pointers);
      for (int i = 0; i < 50; i++) {
        // Equal maps built apart, keys in different orders; networks apart (not one CIDR).
        Map<String, Object> m = new LinkedHashMap<>();
        if (i % 2 == 0) {
          m.put("marker", "one-record-marker");
          m.put("n", 5L);
        } else {
          m.put("n", 5L);
          m.put("marker", "one-record-marker");
        }
        w.insert((10 + 2 * i) + ".0.0.0/8", m);
      }
      w.insert("200.0.0.0/24", Map.of("marker", "overwritten-marker"));
      w.insert("200.0.0.0/24", Map.of("marker", "the-last-word"));
      Path file = write(w);
      assertEquals(1, count(file, "one-record-marker"), "pointers " + pointers);
      assertEquals(0, count(file, "overwritten-marker"), "pointers " + pointers);
      try (Reader r = new Reader(file.toFile())) {
        assertSameData(
            Map.of("marker", "one-record-marker", "n", 5L),
            r.get(InetAddress.getByName("108.1.2.3"), Map.class),
            "108.1.2.3");
        assertNull(r.get(InetAddress.getByName("109.1.2.3"), Map.class));
        assertSameData(
            Map.of("marker", "the-last-word"),
            r.get(InetAddress.getByName("200.0.0.1"), Map.class),
            "200.0.0.1");
      }
    }
  }

  /**
   * Strings first written at data offsets below 2,048, below 526,336 and past it come back as
   * pointers of each of the three sizes those offsets take (1, 2 and 3 bytes after the control
   * byte), as the spec lays them out; with pointers off they are written again.
   */
  @Test
  void repeatedValuesBecomePointersOfEverySize() throws IOException {
    String near = "near-string-0123456789";
    String mid = "mid-string-0123456789";
    String far = "far-string-0123456789";
    Map<String, Object> first = map("near key", near);
    // Keys are written in order: "a pad" first, the string after it.
    Map<String, Object> second = map("a pad", new byte[3_000], "mid key", mid);
    Map<String, Object> third = map("a pad", new byte[600_000], "far key", far);
    Map<String, Object> again =
        map(
            "near key",
            near,
            "mid key",
            mid,
            "far key",
            far,
            "names",
            List.of(map("near key", near), map("near key", near)));
    Path[] files = new Path[2];
    for (boolean pointers : new boolean[] {true, false}) {
      MmdbTestWriter w = MmdbTestWriter.ipv4().pointers(pointers);
      w.insert("1.0.0.0/8", first).insert("2.0.0.0/8", second).insert("3.0.0.0/8", third);
      w.insert("4.0.0.0/8", again);
      Path file = write(w, pointers ? "pointers.mmdb" : "plain.mmdb");
      files[pointers ? 0 : 1] = file;
      try (Reader r = new Reader(file.toFile())) {
        for (int i = 1; i <= 4; i++) {
          Map<String, Object> expected = List.of(first, second, third, again).get(i - 1);
          assertSameData(expected, r.get(InetAddress.getByName(i + ".1.1.1"), Map.class), "" + i);
        }
      }
    }
    byte[] withPointers = Files.readAllBytes(files[0]);
    byte[] without = Files.readAllBytes(files[1]);
    for (String s : new String[] {near, mid, far, "near key", "mid key", "far key"}) {
      assertEquals(1, count(withPointers, s), s);
    }
    assertEquals(4, count(without, near));
    assertEquals(2, count(without, far));
    // The pointers as the spec lays them out, to where each string was written (at its control
    // byte): 001SSVVV, SS the size, the offset less 0, 2,048 or 526,336.
    int data = dataSection(withPointers);
    long nearAt = indexOf(withPointers, near) - 1 - data;
    long midAt = indexOf(withPointers, mid) - 1 - data;
    long farAt = indexOf(withPointers, far) - 1 - data;
    assertTrue(nearAt < 2048 && midAt >= 2048 && midAt < 526_336 && farAt >= 526_336);
    assertTrue(
        count(withPointers, new byte[] {(byte) (0x20 | nearAt >> 8), (byte) nearAt}) >= 1,
        "1-byte pointers");
    long m = midAt - 2048;
    assertEquals(
        1, count(withPointers, new byte[] {(byte) (0x28 | m >> 16), (byte) (m >> 8), (byte) m}));
    long f = farAt - 526_336;
    assertEquals(
        1,
        count(
            withPointers,
            new byte[] {(byte) (0x30 | f >> 24), (byte) (f >> 16), (byte) (f >> 8), (byte) f}));
  }

  // ---- Record sizes.

  @ParameterizedTest(name = "{0}-bit records")
  @ValueSource(ints = {24, 28, 32})
  void everyRecordSizeCanBeForced(int bits) throws IOException {
    Reference ref = new Reference(true, true);
    MmdbTestWriter w = MmdbTestWriter.ipv6().aliasIpv4().recordSize(bits);
    insert(w, ref, "1.2.0.0/16", city(1, "A", "A", "AA", 1.5, 2.5, 1, "A1", "A2"));
    insert(w, ref, "1.2.3.0/24", city(2, "B", "B", "BB", -1.5, -2.5, 2, "B1", "B2"));
    insert(w, ref, "128.0.0.0/1", city(3, "C", "C", "CC", 0, 0, 3, "C1", "C2"));
    insert(w, ref, "2400::/12", city(4, "D", "D", "DD", 9, 9, 4, "D1", "D2"));
    try (Reader r = open(w)) {
      assertEquals(bits, metadataInt(r.getMetadata(), "recordSize"));
      checkEnds(r, ref);
      assertEquals(names(blocks(ref, false)), names(networks(r, false)));
      assertEquals(names(blocks(ref, true)), names(networks(r, true)));
    }
  }

  /**
   * A data section past 2^24 bytes takes 28-bit records, their top nibbles in the middle byte of
   * each node (the left record's high, the right's low): here nodes whose two records have
   * different top nibbles, both ways round. 24 bits are then refused.
   */
  @Test
  void recordSizeIsTheSmallestThatHoldsEveryPointer() throws IOException {
    MmdbTestWriter small = MmdbTestWriter.ipv4().insert("1.0.0.0/8", "small");
    try (Reader r = open(small)) {
      assertEquals(24, metadataInt(r.getMetadata(), "recordSize"));
    }
    // Records are written in address order: "near" and the big one below 2^24, the others past.
    MmdbTestWriter w =
        MmdbTestWriter.ipv4()
            .insert("1.0.0.0/8", "near")
            .insert("2.0.0.0/8", map("a", bytes(8_500_000, 4), "b", bytes(8_500_000, 5)))
            .insert("3.0.0.0/8", "right, past 2^24")
            .insert("4.0.0.0/8", "left, past 2^24")
            .insert("5.0.0.0/8", "near");
    try (Reader r = open(w)) {
      assertEquals(28, metadataInt(r.getMetadata(), "recordSize"));
      assertEquals("near", r.get(InetAddress.getByName("1.0.0.0"), Object.class));
      Object big = r.get(InetAddress.getByName("2.255.255.255"), Object.class);
      assertEquals(8_500_000, ((byte[]) ((Map<?, ?>) big).get("b")).length);
      assertEquals("right, past 2^24", r.get(InetAddress.getByName("3.0.0.255"), Object.class));
      assertEquals("left, past 2^24", r.get(InetAddress.getByName("4.255.0.0"), Object.class));
      assertEquals("near", r.get(InetAddress.getByName("5.1.2.3"), Object.class));
      assertNull(r.get(InetAddress.getByName("6.0.0.0"), Object.class));
    }
    w.recordSize(24);
    assertThrows(IllegalArgumentException.class, () -> write(w));
  }

  // ---- IPv4 in IPv6 trees, and the aliases.

  @ParameterizedTest(name = "aliased {0}")
  @ValueSource(booleans = {true, false})
  void ipv4AliasesAnswerAsTheIpv4Address(boolean aliased) throws IOException {
    Rec one = city(1, "One", "Eins", "AU", -27.0, 133.0, 1000, "QLD", "AU-QLD");
    Rec two = city(2, "Two", "Zwei", "US", 37.751, -97.822, 1000, "CA", "US-CA");
    MmdbTestWriter w = MmdbTestWriter.ipv6();
    if (aliased) {
      w.aliasIpv4();
    }
    w.insert("1.2.3.0/24", one.written).insert("2400:cb00::/32", two.written);
    try (Reader r = open(w)) {
      assertSameData(one.expected, get(r, InetAddress.getByName("1.2.3.4")), "1.2.3.4");
      assertSameData(one.expected, get(r, v6("::1.2.3.4")), "::1.2.3.4");
      assertSameData(two.expected, get(r, v6("2400:cb00::1")), "2400:cb00::1");
      for (String alias :
          new String[] {"::ffff:1.2.3.4", "2002:0102:0304::1", "2001:0:0102:0304::1"}) {
        assertSameData(aliased ? one.expected : null, get(r, v6(alias)), alias);
      }
      for (String none :
          new String[] {"::ffff:1.2.4.4", "2002:0102:0404::1", "2001:0:0102:0404::"}) {
        assertNull(get(r, v6(none)), none);
      }
      // Java reads "::ffff:1.2.3.4" as the IPv4 address, which the reader looks up at ::/96.
      assertTrue(InetAddress.getByName("::ffff:1.2.3.4") instanceof Inet4Address);
      assertSameData(one.expected, get(r, InetAddress.getByName("::ffff:1.2.3.4")), "mapped");

      assertEquals(
          24,
          r.getRecord(InetAddress.getByName("1.2.3.4"), Map.class).getNetwork().getPrefixLength());
      if (aliased) {
        assertEquals(120, prefix(r, "::ffff:1.2.3.4"));
        assertEquals(40, prefix(r, "2002:0102:0304::1"));
        assertEquals(56, prefix(r, "2001:0:0102:0304::1"));
      }
      assertEquals(List.of("1.2.3.0/24", "2400:cb00:0:0:0:0:0:0/32"), names(networks(r, false)));
      List<String> all = new ArrayList<>();
      all.add("0:0:0:0:0:0:102:300/120");
      if (aliased) {
        // The ::ffff:0:0/96 copy comes back as an IPv4 network (Java makes the address one).
        all.addAll(List.of("1.2.3.0/24", "2001:0:102:300:0:0:0:0/56", "2002:102:300:0:0:0:0:0/40"));
      }
      all.add("2400:cb00:0:0:0:0:0:0/32");
      List<Found> found = networks(r, true);
      assertEquals(all, names(found));
      for (Found f : found) {
        assertSameData(
            f.network.startsWith("2400") ? two.expected : one.expected, f.record, f.network);
      }
    }
  }

  @Test
  void aliasesWinOverAContainingInsertAndRefuseOneInside() throws IOException {
    Reference ref = new Reference(true, true);
    MmdbTestWriter w = MmdbTestWriter.ipv6().aliasIpv4();
    insert(w, ref, "2000::/4", "all of 2000::/4");
    insert(w, ref, "1.2.3.0/24", "1.2.3.0/24");
    insert(w, ref, "0.0.0.0/8", "0.0.0.0/8");
    try (Reader r = open(w)) {
      assertEquals("1.2.3.0/24", r.get(v6("2002:0102:0304::"), Object.class));
      assertEquals("1.2.3.0/24", r.get(v6("2001:0:0102:03ff::"), Object.class));
      assertNull(r.get(v6("2001:0:0505:0505::"), Object.class));
      assertEquals("all of 2000::/4", r.get(v6("2001:1::"), Object.class));
      assertEquals("all of 2000::/4", r.get(v6("2003::"), Object.class));
      checkEnds(r, ref);
      List<Found> found = networks(r, false, Object.class);
      assertEquals(names(blocks(ref, false)), names(found));
      // Two IPv4 networks; 2000::/4 less 2001::/32 and 2002::/16: 2000::/16, 16 networks around
      // 2001::/32, 2003::/16, and 2004::/14 to 2800::/5.
      assertEquals(2 + 1 + 16 + 1 + 10, found.size());
      assertEquals(names(blocks(ref, true)), names(networks(r, true, Object.class)));
    }
    for (String inside : new String[] {"2002:102:300::/40", "2001::/32", "::ffff:0:0/100"}) {
      MmdbTestWriter bad = MmdbTestWriter.ipv6().aliasIpv4().insert(inside, "lost");
      assertThrows(IllegalArgumentException.class, () -> write(bad), inside);
      // Without aliases the same networks are networks like any other.
      try (Reader r = open(MmdbTestWriter.ipv6().insert(inside, "kept"))) {
        assertEquals(1, networks(r, true, Object.class).size(), inside);
      }
    }
    assertThrows(IllegalStateException.class, () -> MmdbTestWriter.ipv4().aliasIpv4());
  }

  /**
   * When all of IPv4 is one record, the aliases point at that record; MaxMind's reader then takes
   * every network of the same record for an alias, and its networks() skips them all.
   */
  @Test
  void aliasesOfAnIpv4SpaceOfOneRecord() throws IOException {
    MmdbTestWriter w =
        MmdbTestWriter.ipv6()
            .aliasIpv4()
            .insert("0.0.0.0/0", "everywhere")
            .insert("2400::/12", "everywhere")
            .insert("2c00::/12", "elsewhere");
    try (Reader r = open(w)) {
      for (String a :
          new String[] {"::ffff:9.9.9.9", "2002:909:909::", "2001:0:909:909::", "2400::"}) {
        assertEquals("everywhere", r.get(v6(a), Object.class), a);
      }
      assertEquals("everywhere", r.get(InetAddress.getByName("9.9.9.9"), Object.class));
      // 2400::/12 is missing: its record is the IPv4 subtree's, the mark of an alias.
      assertEquals(
          List.of("0.0.0.0/0", "2c00:0:0:0:0:0:0:0/12"), names(networks(r, false, Object.class)));
    }
  }

  /**
   * Two more edges of the reader's networks() (3.2.0), on trees as the spec has them: without
   * aliases a network in {@code ::ffff:0:0/96} comes back in IPv4 form, under the same name as its
   * {@code ::/96} twin (and no lookup of an {@link InetAddress} Java made reaches it); a network
   * whose address has 96 leading zero bits and a prefix under 96 comes back in IPv4 form with a
   * negative prefix, and when its record is the one {@code ::/96} lies in, every other network of
   * that record is skipped as an alias: {@code ::/0} yields {@code 0.0.0.0/-95} alone.
   */
  @Test
  void networksOfTheReaderAtTheEdges() throws IOException {
    MmdbTestWriter mapped =
        MmdbTestWriter.ipv6().insert("::ffff:1.2.3.0/120", "mapped").insert("1.2.3.0/24", "v4");
    try (Reader r = open(mapped)) {
      assertEquals(List.of("1.2.3.0/24", "1.2.3.0/24"), names(networks(r, false, Object.class)));
      assertEquals("v4", r.get(InetAddress.getByName("::ffff:1.2.3.4"), Object.class));
      assertEquals("mapped", r.get(v6("::ffff:1.2.3.4"), Object.class));
    }
    try (Reader r = open(MmdbTestWriter.ipv6().insert("::/0", "all"))) {
      assertEquals(List.of("0.0.0.0/-95"), names(networks(r, false, Object.class)));
      assertEquals(
          List.of("0:0:0:0:0:0:0:0/1", "8000:0:0:0:0:0:0:0/1"),
          names(networks(r, true, Object.class)));
      assertEquals("all", r.get(v6("8000::"), Object.class));
    }
  }

  // ---- Overwrites, coverage, metadata.

  @Test
  void laterInsertsOverwriteWhatTheyCover() throws IOException {
    MmdbTestWriter w = MmdbTestWriter.ipv4();
    w.insert("10.0.0.0/16", "a").insert("10.0.5.0/24", "b"); // b inside a
    w.insert("20.0.5.0/24", "c").insert("20.0.0.0/16", "d"); // d over all of c
    w.insert("30.0.0.0/25", "e").insert("30.0.0.128/25", "e"); // one /24 of e
    w.insert("40.0.0.0/24", "f").insert("40.0.0.0/24", "g"); // same network: g
    w.insert("50.0.0.0/8", "h").insert("50.0.0.0/9", "i").insert("50.128.0.0/9", "i");
    try (Reader r = open(w)) {
      assertEquals("a", r.get(InetAddress.getByName("10.0.4.255"), Object.class));
      assertEquals("b", r.get(InetAddress.getByName("10.0.5.0"), Object.class));
      assertEquals("b", r.get(InetAddress.getByName("10.0.5.255"), Object.class));
      assertEquals("a", r.get(InetAddress.getByName("10.0.6.0"), Object.class));
      assertEquals("d", r.get(InetAddress.getByName("20.0.5.5"), Object.class));
      assertEquals("g", r.get(InetAddress.getByName("40.0.0.7"), Object.class));
      assertEquals("i", r.get(InetAddress.getByName("50.200.0.0"), Object.class));
      assertEquals(
          List.of(
              "10.0.0.0/22",
              "10.0.4.0/24",
              "10.0.5.0/24",
              "10.0.6.0/23",
              "10.0.8.0/21",
              "10.0.16.0/20",
              "10.0.32.0/19",
              "10.0.64.0/18",
              "10.0.128.0/17",
              "20.0.0.0/16",
              "30.0.0.0/24",
              "40.0.0.0/24",
              "50.0.0.0/8"),
          names(networks(r, false, Object.class)));
    }
  }

  @Test
  void emptyAndWholeSpaceDatabases() throws IOException {
    try (Reader r = open(MmdbTestWriter.ipv4())) {
      assertEquals(1, metadataInt(r.getMetadata(), "nodeCount"));
      assertNull(r.get(InetAddress.getByName("1.2.3.4"), Object.class));
      assertEquals(List.of(), names(networks(r, false, Object.class)));
    }
    try (Reader r = open(MmdbTestWriter.ipv6().aliasIpv4())) {
      assertNull(r.get(v6("2002:102:304::"), Object.class));
      assertEquals(List.of(), names(networks(r, true, Object.class)));
    }
    try (Reader r = open(MmdbTestWriter.ipv4().insert("0.0.0.0/0", "all"))) {
      assertEquals(1, metadataInt(r.getMetadata(), "nodeCount"));
      assertEquals("all", r.get(InetAddress.getByName("0.0.0.0"), Object.class));
      assertEquals("all", r.get(InetAddress.getByName("255.255.255.255"), Object.class));
      // The root is a node: the reader cannot tell 0.0.0.0/0 from its two halves.
      assertEquals(List.of("0.0.0.0/1", "128.0.0.0/1"), names(networks(r, false, Object.class)));
    }
  }

  @Test
  void metadataReadsBack() throws IOException {
    MmdbTestWriter w =
        MmdbTestWriter.ipv6()
            .databaseType("GeoLite2-City-Test")
            .description("en", "A test database")
            .description("de", "Eine Testdatenbank")
            .languages("de", "en", "pt-BR")
            .buildEpoch(1_717_171_717L)
            .insert("1.2.3.0/24", "x");
    try (Reader r = open(w)) {
      Metadata m = r.getMetadata();
      assertEquals("GeoLite2-City-Test", m.getDatabaseType());
      assertEquals(Map.of("en", "A test database", "de", "Eine Testdatenbank"), m.getDescription());
      assertEquals(List.of("de", "en", "pt-BR"), m.getLanguages());
      assertEquals(1_717_171_717_000L, m.getBuildDate().getTime());
      assertEquals(6, m.getIpVersion());
      assertEquals(2, m.getBinaryFormatMajorVersion());
      assertEquals(0, m.getBinaryFormatMinorVersion());
      assertEquals(24, metadataInt(m, "recordSize"));
      // ::1.2.3.0/120 takes a node for each of its 120 bits.
      assertEquals(120, metadataInt(m, "nodeCount"));
    }
    try (Reader r = open(MmdbTestWriter.ipv4())) {
      Metadata m = r.getMetadata();
      assertEquals("Spindex-Test", m.getDatabaseType());
      assertEquals(Map.of(), m.getDescription());
      assertEquals(List.of(), m.getLanguages());
      assertEquals(0L, m.getBuildDate().getTime());
      assertEquals(4, m.getIpVersion());
    }
  }

  @Test
  void badInputIsRefused() {
    MmdbTestWriter w = MmdbTestWriter.ipv4();
    for (Object bad :
        new Object[] {
          null,
          -1L,
          TWO_32.longValue(),
          BigInteger.valueOf(-1),
          TWO_128,
          (short) 1,
          new Object(),
          Map.of(1, "x"),
          List.of(List.of(new StringBuilder())),
          Collections.singletonMap("k", null)
        }) {
      assertThrows(IllegalArgumentException.class, () -> w.insert("1.0.0.0/8", bad), "" + bad);
    }
    for (String cidr :
        new String[] {
          "1.2.3.4/24",
          "1.2.3.0/33",
          "1.2.3.0",
          "1.2.3/24",
          "256.0.0.0/8",
          "2001:db8::/32",
          "example.com/8",
          "1.2.3.0/-1",
          "1.2.3.0/ 8"
        }) {
      assertThrows(IllegalArgumentException.class, () -> w.insert(cidr, "x"), cidr);
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> MmdbTestWriter.ipv6().insert("2001:db8::1/32", "x"),
        "host bits");
    assertThrows(IllegalArgumentException.class, () -> MmdbTestWriter.ipv6().insert("::/129", "x"));
    assertThrows(IllegalArgumentException.class, () -> w.recordSize(16));
    assertThrows(IllegalArgumentException.class, () -> uint16(65_536));
    assertThrows(IllegalArgumentException.class, () -> uint32(-1));
    assertThrows(IllegalArgumentException.class, () -> uint64(TWO_64));
    assertThrows(IllegalArgumentException.class, () -> uint128(TWO_128));
  }

  // ---- Random databases against the reference.

  /**
   * 2,000 random networks (over a hundred overwritten in part or whole) of 300 records, read back
   * at both ends of every network, at a random address inside each and at 2,000 random addresses;
   * the networks() iterations against the reference's coarsest CIDR cover.
   */
  @ParameterizedTest(name = "ip_version {0}, aliases {1}, record size {2}, pointers {3}")
  @CsvSource({"4, false, 0, true", "6, true, 28, true", "6, false, 32, true", "6, true, 24, false"})
  void randomNetworksAgreeWithTheReference(
      int ipVersion, boolean aliased, int recordSize, boolean pointers) throws IOException {
    Random rnd = new Random(20_240_611L + ipVersion + (aliased ? 10 : 0) + recordSize);
    List<Map<String, Object>> pool = new ArrayList<>();
    String[] countries = {"DE", "US", "JP", "KR", "BR", "FR", "IN", "NG", "AU", "CA"};
    for (int i = 0; i < 300; i++) {
      Map<String, Object> m = new HashMap<>();
      m.put("id", (long) i);
      m.put("country", countries[rnd.nextInt(countries.length)]);
      m.put("score", rnd.nextInt());
      if (rnd.nextBoolean()) {
        m.put(
            "location",
            map(
                "latitude",
                rnd.nextDouble() * 180 - 90,
                "longitude",
                rnd.nextDouble() * 360 - 180));
      }
      if (rnd.nextInt(3) == 0) {
        m.put("tags", List.of(countries[rnd.nextInt(countries.length)], "net-" + (i % 7)));
      }
      pool.add(m);
    }
    MmdbTestWriter w = ipVersion == 4 ? MmdbTestWriter.ipv4() : MmdbTestWriter.ipv6();
    if (aliased) {
      w.aliasIpv4();
    }
    if (recordSize != 0) {
      w.recordSize(recordSize);
    }
    w.pointers(pointers);
    Reference ref = new Reference(ipVersion == 6, aliased);
    for (int i = 0; i < 2000; i++) {
      Map<String, Object> record = pool.get(rnd.nextInt(pool.size()));
      String cidr = ipVersion == 4 || rnd.nextBoolean() ? randomV4(rnd) : randomV6(rnd, aliased);
      w.insert(cidr, record);
      ref.add(cidr, record);
    }
    int overwritten = 0;
    for (Entry e : ref.entries) {
      if (ref.at(e.first, true) != e.record || ref.at(e.last, true) != e.record) {
        overwritten++;
      }
    }
    assertTrue(overwritten > 100, "networks overwritten in part or whole: " + overwritten);
    List<BigInteger> probes = new ArrayList<>();
    BigInteger space = ipVersion == 4 ? TWO_32 : TWO_128;
    for (Entry e : ref.entries) {
      probes.add(e.first);
      probes.add(e.last);
      probes.add(e.first.add(random(rnd, e.last.subtract(e.first).add(ONE))));
    }
    for (int i = 0; i < 2000; i++) {
      probes.add(random(rnd, i % 2 == 0 ? space : TWO_32));
    }
    if (aliased) {
      // IPv4 addresses through each alias.
      for (int i = 0; i < 3000; i++) {
        BigInteger v4 = ref.entries.get(i % ref.entries.size()).first;
        if (v4.compareTo(TWO_32) < 0) {
          probes.add(ALIAS_BASES[i % 3].add(v4.shiftLeft(ALIAS_SHIFTS[i % 3])));
        }
      }
    }
    List<Block> all = blocks(ref, true);
    NavigableMap<BigInteger, Block> byStart = new TreeMap<>();
    for (Block b : all) {
      byStart.put(b.start, b);
    }
    try (Reader r = open(w)) {
      for (BigInteger a : probes) {
        Object expected = ref.at(a, true);
        InetAddress address = address(a, ipVersion == 6);
        DatabaseRecord<?> got = r.getRecord(address, Map.class);
        assertSameData(expected, got.getData(), address.getHostAddress());
        if (expected != null) {
          Block b = byStart.floorEntry(a).getValue();
          assertEquals(b.prefix, got.getNetwork().getPrefixLength(), address.getHostAddress());
        }
        if (ipVersion == 6 && a.compareTo(TWO_32) < 0) {
          InetAddress v4 = address(a, false);
          got = r.getRecord(v4, Map.class);
          assertSameData(expected, got.getData(), v4.getHostAddress());
          if (expected != null) {
            Block b = byStart.floorEntry(a).getValue();
            assertEquals(b.prefix - 96, got.getNetwork().getPrefixLength(), v4.getHostAddress());
          }
        }
      }
      List<Found> found = networks(r, false);
      assertEquals(names(blocks(ref, false)), names(found));
      checkNetworkRecords(found, ref);
      if (ipVersion == 6) {
        assertEquals(names(all), names(networks(r, true)));
      }
    }
  }

  private static String randomV4(Random rnd) {
    int prefix = rnd.nextInt(10) == 0 ? 4 + rnd.nextInt(12) : 16 + rnd.nextInt(17);
    long address = rnd.nextInt() & 0xFFFF_FFFFL & (0xFFFF_FFFFL << (32 - prefix));
    return (address >>> 24)
        + "."
        + (address >>> 16 & 255)
        + "."
        + (address >>> 8 & 255)
        + "."
        + (address & 255)
        + "/"
        + prefix;
  }

  /**
   * An IPv6 network: half of them in 2400::/12, where they overlap, the others anywhere out of
   * {@code ::/8} (the IPv4 subtree's neighbourhood); with aliases none inside one (2001::/32 and
   * 2002::/16), though one may contain one.
   */
  private static String randomV6(Random rnd, boolean aliased) {
    while (true) {
      BigInteger a;
      int prefix;
      if (rnd.nextBoolean()) {
        a = BigInteger.valueOf(0x240).shiftLeft(116).add(new BigInteger(116, rnd));
        prefix = 20 + rnd.nextInt(45);
      } else {
        a = new BigInteger(128, rnd);
        prefix = rnd.nextInt(10) == 0 ? 8 + rnd.nextInt(8) : 16 + rnd.nextInt(113);
      }
      if (a.shiftRight(120).signum() == 0) {
        continue;
      }
      a = a.shiftRight(128 - prefix).shiftLeft(128 - prefix);
      if (aliased && insideAlias(a, prefix)) {
        continue;
      }
      return address(a, true).getHostAddress() + "/" + prefix;
    }
  }

  private static boolean insideAlias(BigInteger a, int prefix) {
    for (int i = 0; i < 3; i++) {
      if (prefix >= ALIAS_PREFIXES[i]
          && a.shiftRight(128 - ALIAS_PREFIXES[i])
              .equals(ALIAS_BASES[i].shiftRight(128 - ALIAS_PREFIXES[i]))) {
        return true;
      }
    }
    return false;
  }

  // ---- The reference.

  /** One inserted network: its first and last address in tree bits, the record decoded. */
  private static final class Entry {
    final BigInteger first;
    final BigInteger last;
    final Object record;

    /** The same addresses as unsigned (high, low) 64-bit halves, for a fast scan. */
    final long firstHi;

    final long firstLo;
    final long lastHi;
    final long lastLo;

    Entry(BigInteger first, BigInteger last, Object record) {
      this.first = first;
      this.last = last;
      this.record = record;
      this.firstHi = first.shiftRight(64).longValue();
      this.firstLo = first.longValue();
      this.lastHi = last.shiftRight(64).longValue();
      this.lastLo = last.longValue();
    }

    boolean holds(long hi, long lo) {
      return compare(firstHi, firstLo, hi, lo) <= 0 && compare(hi, lo, lastHi, lastLo) <= 0;
    }

    private static int compare(long aHi, long aLo, long bHi, long bLo) {
      int c = Long.compareUnsigned(aHi, bHi);
      return c != 0 ? c : Long.compareUnsigned(aLo, bLo);
    }
  }

  /**
   * The inserted networks in order; an address answers with the last one holding it. An IPv4
   * network in an IPv6 tree is at {@code ::a.b.c.d}, the same number; with aliases an address in
   * one answers as the IPv4 address it carries.
   */
  private static final class Reference {
    final boolean v6;
    final boolean aliased;
    final List<Entry> entries = new ArrayList<>();

    Reference(boolean v6, boolean aliased) {
      this.v6 = v6;
      this.aliased = aliased;
    }

    void add(String cidr, Object expected) {
      String[] parts = cidr.split("/");
      byte[] address;
      try {
        address = InetAddress.getByName(parts[0]).getAddress();
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      BigInteger first = new BigInteger(1, address);
      int hostBits = address.length * 8 - Integer.parseInt(parts[1]);
      entries.add(new Entry(first, first.add(ONE.shiftLeft(hostBits)).subtract(ONE), expected));
    }

    /** The record of the address, null for none; in an alias, {@link #ALIAS} unless followed. */
    Object at(BigInteger address, boolean followAliases) {
      long hi = address.shiftRight(64).longValue();
      long lo = address.longValue();
      if (aliased) {
        long v4 = -1;
        if (hi == 0 && lo >>> 32 == 0xFFFF) {
          v4 = lo & 0xFFFF_FFFFL; // ::ffff:a.b.c.d
        } else if (hi >>> 32 == 0x2001_0000L) {
          v4 = hi & 0xFFFF_FFFFL; // 2001:0:<a.b.c.d>::
        } else if (hi >>> 48 == 0x2002) {
          v4 = hi >>> 16 & 0xFFFF_FFFFL; // 2002:<a.b.c.d>::
        }
        if (v4 >= 0) {
          if (!followAliases) {
            return ALIAS;
          }
          hi = 0;
          lo = v4;
        }
      }
      for (int i = entries.size() - 1; i >= 0; i--) {
        Entry e = entries.get(i);
        if (e.holds(hi, lo)) {
          return e.record;
        }
      }
      return null;
    }
  }

  /** A network: its first address (tree bits), prefix (tree bits) and record. */
  private static final class Block {
    final BigInteger start;
    final int prefix;
    final String name;
    final Object record;

    Block(BigInteger start, int prefix, String name, Object record) {
      this.start = start;
      this.prefix = prefix;
      this.name = name;
      this.record = record;
    }
  }

  /**
   * The networks a reader's networks() yields for the reference, in its order and form: the
   * coarsest CIDR cover of each run of addresses with one record (a /0 as its two halves, the root
   * being a node), alias networks left out or, with {@code aliases}, answering as IPv4. Named as
   * the reader names them: IPv4 networks of an IPv6 tree in IPv4 form unless the aliases are
   * included, then only the {@code ::ffff:0:0/96} copies, made IPv4 by Java.
   */
  private static List<Block> blocks(Reference ref, boolean aliases) {
    int bits = ref.v6 ? 128 : 32;
    TreeSet<BigInteger> cuts = new TreeSet<>();
    cuts.add(ZERO);
    cuts.add(ONE.shiftLeft(bits));
    for (Entry e : ref.entries) {
      cuts.add(e.first);
      cuts.add(e.last.add(ONE));
      if (ref.aliased && e.first.compareTo(TWO_32) < 0) {
        BigInteger end = e.last.add(ONE).min(TWO_32);
        for (int i = 0; i < 3; i++) {
          cuts.add(ALIAS_BASES[i].add(e.first.shiftLeft(ALIAS_SHIFTS[i])));
          cuts.add(ALIAS_BASES[i].add(end.shiftLeft(ALIAS_SHIFTS[i])));
        }
      }
    }
    if (ref.aliased) {
      for (int i = 0; i < 3; i++) {
        cuts.add(ALIAS_BASES[i]);
        cuts.add(ALIAS_BASES[i].add(ONE.shiftLeft(128 - ALIAS_PREFIXES[i])));
      }
    }
    List<BigInteger> c = new ArrayList<>(cuts);
    List<Block> out = new ArrayList<>();
    BigInteger runStart = c.get(0);
    Object run = ref.at(runStart, aliases);
    for (int i = 1; i < c.size(); i++) {
      Object v = i < c.size() - 1 ? ref.at(c.get(i), aliases) : END;
      if (!same(v, run)) {
        if (run != null && run != ALIAS) {
          cover(runStart, c.get(i), bits, run, ref.v6, aliases, out);
        }
        runStart = c.get(i);
        run = v;
      }
    }
    return out;
  }

  /** The coarsest CIDR cover of [start, end). */
  private static void cover(
      BigInteger start,
      BigInteger end,
      int bits,
      Object record,
      boolean v6,
      boolean aliases,
      List<Block> out) {
    while (start.compareTo(end) < 0) {
      int k = start.signum() == 0 ? bits - 1 : Math.min(start.getLowestSetBit(), bits - 1);
      while (start.add(ONE.shiftLeft(k)).compareTo(end) > 0) {
        k--;
      }
      int prefix = bits - k;
      out.add(new Block(start, prefix, name(start, prefix, v6, aliases), record));
      start = start.add(ONE.shiftLeft(k));
    }
  }

  private static String name(BigInteger start, int prefix, boolean v6, boolean aliases) {
    if (!v6) {
      return address(start, false).getHostAddress() + "/" + prefix;
    }
    if (!aliases && start.shiftRight(32).signum() == 0) {
      return address(start, false).getHostAddress() + "/" + (prefix - 96);
    }
    if (start.shiftRight(32).equals(BigInteger.valueOf(0xFFFF))) {
      // The reader makes its address with InetAddress.getByAddress, which reads ::ffff:a.b.c.d
      // as IPv4, and then takes 96 off a prefix longer than 96.
      return address(start.and(MASK_32), false).getHostAddress()
          + "/"
          + (prefix > 96 ? prefix - 96 : prefix);
    }
    return address(start, true).getHostAddress() + "/" + prefix;
  }

  // ---- Reading back.

  /** A network as the reader's networks() yields it. */
  private static final class Found {
    final String network;
    final Object record;

    Found(String network, Object record) {
      this.network = network;
      this.record = record;
    }
  }

  private static List<Found> networks(Reader r, boolean includeAliases) throws IOException {
    return networks(r, includeAliases, Map.class);
  }

  private static List<Found> networks(Reader r, boolean includeAliases, Class<?> type)
      throws IOException {
    List<Found> out = new ArrayList<>();
    Networks<?> it;
    try {
      it = r.networks(includeAliases, type);
    } catch (InvalidNetworkException e) {
      throw new AssertionError(e);
    }
    while (it.hasNext()) {
      DatabaseRecord<?> d = it.next();
      out.add(new Found(d.getNetwork().toString(), d.getData()));
    }
    return out;
  }

  private static List<String> names(List<?> networks) {
    List<String> out = new ArrayList<>();
    for (Object n : networks) {
      out.add(n instanceof Found ? ((Found) n).network : ((Block) n).name);
    }
    return out;
  }

  /** Each network's record is what the reference answers at its first address. */
  private static void checkNetworkRecords(List<Found> found, Reference ref) throws IOException {
    for (Found f : found) {
      String host = f.network.substring(0, f.network.indexOf('/'));
      BigInteger first = new BigInteger(1, InetAddress.getByName(host).getAddress());
      assertSameData(ref.at(first, true), f.record, f.network);
    }
  }

  /** Every inserted network's first and last address answers as the reference does. */
  private static void checkEnds(Reader r, Reference ref) throws IOException {
    for (Entry e : ref.entries) {
      for (BigInteger a : new BigInteger[] {e.first, e.last}) {
        InetAddress address = address(a, ref.v6);
        assertSameData(ref.at(a, true), r.get(address, Object.class), address.getHostAddress());
        if (ref.v6 && a.compareTo(TWO_32) < 0) {
          InetAddress v4 = address(a, false);
          assertSameData(ref.at(a, true), r.get(v4, Object.class), v4.getHostAddress());
        }
      }
    }
  }

  /**
   * The address as a lookup: 4 bytes, or 16 as an {@link Inet6Address} even for {@code
   * ::ffff:a.b.c.d} (which {@link InetAddress#getByAddress(byte[])} makes an IPv4 address).
   */
  private static InetAddress address(BigInteger a, boolean v6) {
    byte[] b = new byte[v6 ? 16 : 4];
    byte[] raw = a.toByteArray();
    int n = Math.min(raw.length, b.length);
    System.arraycopy(raw, raw.length - n, b, b.length - n, n);
    try {
      return v6 ? Inet6Address.getByAddress(null, b, -1) : InetAddress.getByAddress(b);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** An IPv6 literal as an {@link Inet6Address}, {@code ::ffff:a.b.c.d} too. */
  private static InetAddress v6(String literal) throws IOException {
    byte[] b = InetAddress.getByName(literal).getAddress();
    BigInteger a = new BigInteger(1, b);
    if (b.length == 4) {
      // Java read ::ffff:a.b.c.d as a.b.c.d.
      a = a.add(ALIAS_BASES[0]);
    }
    return address(a, true);
  }

  private static Object get(Reader r, InetAddress a) throws IOException {
    return r.get(a, Map.class);
  }

  private static int prefix(Reader r, String literal) throws IOException {
    return r.getRecord(v6(literal), Map.class).getNetwork().getPrefixLength();
  }

  /**
   * The reader keeps node_count and record_size to itself (package-private); its toString tells.
   */
  private static int metadataInt(Metadata m, String field) {
    Matcher x = Pattern.compile(field + "=(\\d+)").matcher(m.toString());
    assertTrue(x.find(), m.toString());
    return Integer.parseInt(x.group(1));
  }

  private Reader open(MmdbTestWriter w) throws IOException {
    return new Reader(write(w).toFile());
  }

  private Path write(MmdbTestWriter w) throws IOException {
    return write(w, "test.mmdb");
  }

  private Path write(MmdbTestWriter w, String name) throws IOException {
    Path file = dir.resolve(name);
    w.write(file);
    return file;
  }

  /** Where the data section starts: past the tree (node_count nodes) and the separator. */
  private static int dataSection(byte[] file) throws IOException {
    try (Reader r = new Reader(new java.io.ByteArrayInputStream(file))) {
      Metadata m = r.getMetadata();
      return metadataInt(m, "nodeCount") * metadataInt(m, "recordSize") / 4 + 16;
    }
  }

  // ---- Records and comparisons.

  /** A record as written (typed) and as MaxMind's reader decodes it. */
  private static final class Rec {
    final Map<String, Object> written;
    final Map<String, Object> expected;

    Rec(Map<String, Object> written, Map<String, Object> expected) {
      this.written = written;
      this.expected = expected;
    }
  }

  /** A City-shaped record: geoname_id a uint32, accuracy_radius a uint16, the rest plain. */
  private static Rec city(
      long geonameId,
      String en,
      String de,
      String iso,
      double lat,
      double lon,
      int radius,
      String sub1,
      String sub2) {
    Map<String, Object> written =
        map(
            "city", map("geoname_id", uint32(geonameId), "names", map("en", en, "de", de)),
            "country", map("iso_code", iso),
            "location", map("latitude", lat, "longitude", lon, "accuracy_radius", uint16(radius)),
            "subdivisions", List.of(map("iso_code", sub1), map("iso_code", sub2)));
    Map<String, Object> expected =
        map(
            "city", map("geoname_id", geonameId, "names", map("en", en, "de", de)),
            "country", map("iso_code", iso),
            "location", map("latitude", lat, "longitude", lon, "accuracy_radius", radius),
            "subdivisions", List.of(map("iso_code", sub1), map("iso_code", sub2)));
    return new Rec(written, expected);
  }

  private static void insert(MmdbTestWriter w, Reference ref, String cidr, Rec rec) {
    w.insert(cidr, rec.written);
    ref.add(cidr, rec.expected);
  }

  private static void insert(MmdbTestWriter w, Reference ref, String cidr, Object record) {
    w.insert(cidr, record);
    ref.add(cidr, record);
  }

  private static void put(
      Map<String, Object> written, Map<String, Object> expected, String key, Object w, Object e) {
    written.put(key, w);
    expected.put(key, e);
  }

  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static Map<String, Object> map29() {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < 29; i++) {
      m.put("k" + i, i);
    }
    return m;
  }

  private static byte[] bytes(int length, int seed) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static BigInteger random(Random rnd, BigInteger below) {
    BigInteger r;
    do {
      r = new BigInteger(below.bitLength(), rnd);
    } while (r.compareTo(below) >= 0);
    return r;
  }

  /** Deep equality, byte arrays by content, numbers by type and value. */
  private static boolean same(Object a, Object b) {
    if (a instanceof byte[] && b instanceof byte[]) {
      return Arrays.equals((byte[]) a, (byte[]) b);
    }
    if (a instanceof Map && b instanceof Map) {
      Map<?, ?> x = (Map<?, ?>) a;
      Map<?, ?> y = (Map<?, ?>) b;
      if (!x.keySet().equals(y.keySet())) {
        return false;
      }
      for (Object k : x.keySet()) {
        if (!same(x.get(k), y.get(k))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof List && b instanceof List) {
      List<?> x = (List<?>) a;
      List<?> y = (List<?>) b;
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!same(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    return Objects.equals(a, b);
  }

  private static void assertSameData(Object expected, Object actual, String where) {
    assertTrue(
        same(expected, actual),
        () -> where + ": expected " + show(expected) + " but read " + show(actual));
  }

  private static String show(Object v) {
    if (v instanceof byte[]) {
      byte[] b = (byte[]) v;
      return "bytes[" + b.length + "]" + (b.length <= 16 ? Arrays.toString(b) : "");
    }
    if (v instanceof String && ((String) v).length() > 80) {
      return "string[" + ((String) v).length() + "]";
    }
    if (v instanceof Map) {
      StringBuilder s = new StringBuilder("{");
      for (Map.Entry<?, ?> e : new TreeMap<>((Map<?, ?>) v).entrySet()) {
        s.append(e.getKey()).append('=').append(show(e.getValue())).append(", ");
      }
      return s.append('}').toString();
    }
    return v == null ? "null" : v + " (" + v.getClass().getSimpleName() + ")";
  }

  private static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(String.format("%02x", x & 0xFF));
    }
    return s.toString();
  }

  private static int count(Path file, String s) throws IOException {
    return count(Files.readAllBytes(file), s);
  }

  private static int count(byte[] haystack, String s) {
    return count(haystack, s.getBytes(StandardCharsets.UTF_8));
  }

  private static int count(byte[] haystack, byte[] needle) {
    int n = 0;
    for (int i = indexOf(haystack, needle, 0); i >= 0; i = indexOf(haystack, needle, i + 1)) {
      n++;
    }
    return n;
  }

  private static int indexOf(byte[] haystack, String s) {
    return indexOf(haystack, s.getBytes(StandardCharsets.UTF_8), 0);
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = from; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
