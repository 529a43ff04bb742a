/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import com.google.common.hash.Hashing;
import com.google.common.net.InetAddresses;
import com.maxmind.db.Reader;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.builder.ProductIndexBuilder;
import io.spindex.testing.MmdbTestWriter;
import java.io.IOException;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The golden files of format 1 ({@code core/src/test/resources/format-1}): for each file, its
 * source (committed), how it is built, and the answers it must give. {@link #main} builds the files
 * with today's writer and computes each file's {@code .expected.tsv} of queries and answers from
 * its source with references of its own (a {@link TreeMap} of the ranges, a {@link TreeSet} of the
 * addresses, addresses parsed by Guava, MaxMind's reader for the MaxMind database, Guava's Murmur3
 * for the products): never with the reader under test. Run it once for a new golden file; the
 * files, once committed, do not change ({@code GoldenFilesTest}).
 */
public final class GoldenFiles {
  private GoldenFiles() {}

  /** The created time every golden file carries: 2026-01-01T00:00:00Z. */
  static final long CREATED = 1_767_225_600_000L;

  private static final BigInteger MAPPED = BigInteger.valueOf(0xFFFFL).shiftLeft(32);
  private static final BigInteger MAX = BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE);

  /**
   * One golden file: its name ({@code NAME.spx}, {@code NAME.expected.tsv}), its source, its build.
   */
  enum Golden {
    IPV4_SET("ipv4-set", "ipv4-set.txt"),
    DUAL_STACK_SET("dual-stack-set", "dual-stack-set.txt"),
    IPV4_RANGES("ipv4-ranges", "ipv4-ranges.txt"),
    DUAL_STACK_RANGES("dual-stack-ranges", "dual-stack-ranges.txt"),
    IPV6_RANGES("ipv6-ranges", "ipv6-ranges.txt"),
    TYPED_FIELDS("typed-fields", "typed-fields.csv"),
    IPV4_ALIASES("ipv4-aliases", "ipv4-aliases.mmdb"),
    PRODUCTS("products", "products.tsv");

    final String name;
    final String source;

    Golden(String name, String source) {
      this.name = name;
      this.source = source;
    }

    /** Builds the file from its source as {@code spindex build} does, with these options. */
    void build(Path source, Path out) throws IOException {
      List<Path> in = List.of(source);
      switch (this) {
        case IPV4_SET:
          new IpSetBuilder().createdMillis(CREATED).build(in, out);
          break;
        case DUAL_STACK_SET:
          new IpSetBuilder().createdMillis(CREATED).ipv6Tables(1000).build(in, out);
          break;
        case IPV4_RANGES:
          new IpRangeBuilder().createdMillis(CREATED).subTables(16, 1000).build(in, out);
          break;
        case DUAL_STACK_RANGES:
          new IpRangeBuilder().createdMillis(CREATED).ipv6Tables(100).build(in, out);
          break;
        case TYPED_FIELDS:
          new IpRangeBuilder().createdMillis(CREATED).labelFields(TYPED_NAMES, ",").build(in, out);
          break;
        case PRODUCTS:
          new ProductIndexBuilder()
              .createdMillis(CREATED)
              .extraIntFields(List.of("review_count"))
              .build(in, out);
          break;
        default:
          new IpRangeBuilder().createdMillis(CREATED).build(in, out);
      }
    }
  }

  static final List<String> TYPED_NAMES =
      List.of("country", "city", "lat:double", "asn:bigint", "anycast:boolean");

  /** Writes the MaxMind database source, builds every file and writes its answers. */
  public static void main(String[] args) throws IOException {
    Path dir = Paths.get(args.length > 0 ? args[0] : "core/src/test/resources/format-1");
    writeAliasesDatabase(dir.resolve(Golden.IPV4_ALIASES.source));
    for (Golden g : Golden.values()) {
      Path source = dir.resolve(g.source);
      g.build(source, dir.resolve(g.name + ".spx"));
      List<String> tsv;
      switch (g) {
        case IPV4_SET:
        case DUAL_STACK_SET:
          tsv = setAnswers(source);
          break;
        case IPV4_ALIASES:
          tsv = aliasAnswers(source);
          break;
        case PRODUCTS:
          tsv = productAnswers(source);
          break;
        default:
          tsv = rangeAnswers(source, g == Golden.TYPED_FIELDS);
      }
      Files.write(dir.resolve(g.name + ".expected.tsv"), tsv, StandardCharsets.UTF_8);
    }
  }

  /**
   * An IPv6 MaxMind database as MaxMind's writer makes one: its IPv4 networks in the tree under
   * {@code ::/96}, aliased at {@code ::ffff:0:0/96}, {@code 2001::/32} (Teredo) and {@code
   * 2002::/16} (6to4); records of one field, {@code country}.
   */
  static void writeAliasesDatabase(Path out) throws IOException {
    MmdbTestWriter w =
        MmdbTestWriter.ipv6()
            .databaseType("Golden-Country")
            .description("en", "Golden file of format 1")
            .languages("en")
            .buildEpoch(1_767_225_600L)
            .aliasIpv4();
    w.insert("1.0.0.0/24", Map.of("country", "AU"));
    w.insert("1.0.1.0/24", Map.of("country", "CN"));
    w.insert("8.8.8.0/24", Map.of("country", "US"));
    w.insert("192.0.2.0/24", Map.of("country", "ZZ"));
    w.insert("2400:cb00::/32", Map.of("country", "US"));
    w.insert("2a02:26f0::/29", Map.of("country", "EU"));
    w.write(out);
  }

  /** The lines of a text source that hold data: no blank lines, no {@code #} comments. */
  private static List<String> dataLines(Path source) throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(source, StandardCharsets.UTF_8)) {
      String t = line.trim();
      if (!t.isEmpty() && !t.startsWith("#")) {
        out.add(t);
      }
    }
    return out;
  }

  /** An address as 128 bits, an IPv4 one as its IPv4-mapped address (Guava's parse). */
  static BigInteger key(String text) {
    InetAddress a = InetAddresses.forString(text);
    BigInteger v = new BigInteger(1, a.getAddress());
    return a instanceof Inet4Address ? MAPPED.add(v) : v;
  }

  /** The query text of a key: dotted for an IPv4-mapped one, else Guava's IPv6 text. */
  static String text(BigInteger key) {
    if (key.shiftRight(32).equals(BigInteger.valueOf(0xFFFFL))) {
      return InetAddresses.toAddrString(InetAddresses.fromInteger(key.intValue()));
    }
    byte[] b = new byte[16];
    byte[] raw = key.toByteArray();
    int n = Math.min(raw.length, 16);
    System.arraycopy(raw, raw.length - n, b, 16 - n, n);
    try {
      return InetAddresses.toAddrString(InetAddress.getByAddress(b));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Each key, the keys beside it, and both ends of both spaces. */
  private static Set<BigInteger> probes(Iterable<BigInteger[]> spans) {
    Set<BigInteger> out = new TreeSet<>();
    for (BigInteger[] s : spans) {
      for (BigInteger k :
          new BigInteger[] {
            s[0],
            s[1],
            s[0].subtract(BigInteger.ONE),
            s[1].add(BigInteger.ONE),
            s[0].add(s[1]).shiftRight(1)
          }) {
        if (k.signum() >= 0 && k.compareTo(MAX) <= 0) {
          out.add(k);
        }
      }
    }
    for (String edge :
        new String[] {
          "0.0.0.0", "255.255.255.255", "::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"
        }) {
      out.add(key(edge));
    }
    return out;
  }

  /** {@code query TAB true|false}, by a {@link TreeSet} of the source's addresses. */
  static List<String> setAnswers(Path source) throws IOException {
    TreeSet<BigInteger> members = new TreeSet<>();
    List<BigInteger[]> spans = new ArrayList<>();
    for (String line : dataLines(source)) {
      BigInteger k = key(line);
      members.add(k);
      spans.add(new BigInteger[] {k, k});
    }
    List<String> out = new ArrayList<>();
    out.add("# query\tin the set (true/false); a reference over the source: GoldenFiles");
    for (BigInteger q : probes(spans)) {
      out.add(text(q) + "\t" + members.contains(q));
    }
    return out;
  }

  /**
   * {@code query TAB hit TAB label}, and for typed fields each field's value ({@code \N}: NULL), by
   * a {@link TreeMap} of the source's ranges.
   */
  static List<String> rangeAnswers(Path source, boolean typed) throws IOException {
    TreeMap<BigInteger, Object[]> ranges = new TreeMap<>();
    List<BigInteger[]> spans = new ArrayList<>();
    char delimiter = typed ? ',' : '|';
    for (String line : dataLines(source)) {
      int first = line.indexOf(delimiter);
      String a = line.substring(0, first);
      if (!Character.isDigit(a.charAt(0)) && a.indexOf(':') < 0) {
        continue; // a header line
      }
      BigInteger start;
      BigInteger end;
      String label;
      if (a.contains("/")) {
        int len = Integer.parseInt(a.substring(a.indexOf('/') + 1));
        boolean v4 = a.indexOf(':') < 0;
        start = key(a.substring(0, a.indexOf('/')));
        end = start.add(BigInteger.ONE.shiftLeft((v4 ? 32 : 128) - len)).subtract(BigInteger.ONE);
        label = line.substring(first + 1);
      } else {
        int second = line.indexOf(delimiter, first + 1);
        start = key(a);
        end = key(line.substring(first + 1, second));
        label = line.substring(second + 1);
      }
      ranges.put(start, new Object[] {end, label});
      spans.add(new BigInteger[] {start, end});
    }
    List<String> out = new ArrayList<>();
    out.add(
        "# query\thit\tlabel"
            + (typed ? "\tthe label's fields as values: " + TYPED_NAMES + " (\\N: NULL)" : "")
            + "; a reference over the source: GoldenFiles");
    for (BigInteger q : probes(spans)) {
      Map.Entry<BigInteger, Object[]> f = ranges.floorEntry(q);
      boolean hit = f != null && ((BigInteger) f.getValue()[0]).compareTo(q) >= 0;
      String label = hit ? (String) f.getValue()[1] : "";
      StringBuilder row = new StringBuilder(text(q)).append('\t').append(hit).append('\t');
      row.append(label);
      if (typed && hit) {
        List<String> fields = csvFields(label);
        for (int i = 0; i < TYPED_NAMES.size(); i++) {
          row.append('\t').append(value(TYPED_NAMES.get(i), fields.get(i)));
        }
      }
      out.add(row.toString());
    }
    return out;
  }

  /** A label's fields split at commas, but inside a double-quoted field (its quotes dropped). */
  private static List<String> csvFields(String label) {
    List<String> out = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    for (char c : label.toCharArray()) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        out.add(f.toString());
        f.setLength(0);
      } else {
        f.append(c);
      }
    }
    out.add(f.toString());
    return out;
  }

  /** A field's text as the value of its declared type ({@code \N}: NULL, as the format says). */
  private static String value(String nameAndType, String text) {
    String type = nameAndType.contains(":") ? nameAndType.split(":")[1] : "string";
    if (type.equals("string")) {
      return text;
    }
    if (text.isEmpty()) {
      return "\\N";
    }
    switch (type) {
      case "double":
        return String.valueOf(Double.parseDouble(text));
      case "bigint":
        return String.valueOf(Long.parseLong(text));
      default:
        return String.valueOf(Boolean.parseBoolean(text));
    }
  }

  /** {@code query TAB hit TAB label}, by MaxMind's reader of the source database. */
  static List<String> aliasAnswers(Path source) throws IOException {
    List<String> queries =
        new ArrayList<>(
            Arrays.asList(
                "1.0.0.1",
                "1.0.1.255",
                "1.0.2.0",
                "8.8.8.8",
                "8.8.9.0",
                "192.0.2.200",
                "0.0.0.0",
                "255.255.255.255",
                "::1.0.0.1",
                "::8.8.8.8",
                "::ffff:1.0.1.7",
                "2002:100:1::",
                "2002:808:808:1::5",
                "2002:c000:2ff::",
                "2002:909:909::",
                "2001:0:808:808::",
                "2001:0:100:17::1",
                "2001:1::",
                "2400:cb00::1",
                "2400:cb00:ffff:ffff:ffff:ffff:ffff:ffff",
                "2400:cb01::",
                "2a02:26f0::",
                "2a02:26f7:ffff::",
                "2a02:26f8::",
                "::",
                "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
    List<String> out = new ArrayList<>();
    out.add(
        "# query\thit\tlabel; a reference: MaxMind's reader of ipv4-aliases.mmdb (GoldenFiles)");
    try (Reader reader = new Reader(source.toFile())) {
      for (String q : queries) {
        Map<?, ?> rec = reader.get(InetAddresses.forString(q), Map.class);
        out.add(q + "\t" + (rec != null) + "\t" + (rec == null ? "" : rec.get("country")));
      }
    }
    return out;
  }

  /**
   * {@code id TAB hit TAB price_pc TAB shipping TAB content_hash TAB review_count} ({@code \N}: the
   * int columns' NULL), from the feed: Murmur3 by Guava over the row's non-empty fields.
   */
  static List<String> productAnswers(Path source) throws IOException {
    List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
    String[] names = lines.get(0).split("\t", -1);
    Set<String> ids = new LinkedHashSet<>();
    List<String> out = new ArrayList<>();
    out.add(
        "# id\thit\tprice_pc\tshipping\tcontent_hash\treview_count (\\N: NULL); a reference over"
            + " the feed: GoldenFiles");
    for (String line : lines.subList(1, lines.size())) {
      String[] v = line.split("\t", -1);
      TreeMap<String, String> row = new TreeMap<>();
      for (int i = 0; i < names.length; i++) {
        row.put(names[i], v[i]);
      }
      StringBuilder content = new StringBuilder();
      for (Map.Entry<String, String> e : row.entrySet()) {
        if (!e.getValue().isEmpty()) {
          content.append(e.getKey()).append('\u001f').append(e.getValue()).append('\u001e');
        }
      }
      int hash =
          (int)
              Hashing.murmur3_128()
                  .hashBytes(content.toString().getBytes(StandardCharsets.UTF_8))
                  .asLong();
      ids.add(row.get("id"));
      out.add(
          String.join(
              "\t",
              row.get("id"),
              "true",
              intOrNull(row.get("price_pc")),
              intOrNull(row.get("shipping")),
              String.valueOf(hash),
              intOrNull(row.get("review_count"))));
    }
    for (String other : new String[] {"P004", "p001", "A-9", "P0011"}) {
      if (!ids.contains(other)) {
        out.add(other + "\tfalse");
      }
    }
    return out;
  }

  private static String intOrNull(String v) {
    try {
      return String.valueOf(Integer.parseInt(v));
    } catch (NumberFormatException e) {
      return "\\N";
    }
  }
}
