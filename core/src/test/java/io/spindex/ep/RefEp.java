/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import com.google.common.hash.Hashing;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The slow, obvious reference for EP tests: whole-file String work with the JDK's strict UTF-8
 * decoder, {@code String.split}, a {@code TreeMap} for the content hash and Guava's Murmur3. Shares
 * no code with the byte-level implementation.
 */
public final class RefEp {
  private RefEp() {}

  /** One product as the reference sees it. */
  public static final class Product {
    public String id;
    public int pricePc;
    public int shipping;
    public int contentHash;
    public int[] extra;
    public Map<String, String> fields;
  }

  /** Lines of a file (LF, a CR before it dropped), the BOM of the first line removed. */
  public static List<byte[]> lines(Path file) throws IOException {
    byte[] all = Files.readAllBytes(file);
    List<byte[]> out = new ArrayList<>();
    int start = all.length >= 3 && (all[0] & 0xFF) == 0xEF && (all[1] & 0xFF) == 0xBB ? 3 : 0;
    for (int i = start; i <= all.length; i++) {
      if (i == all.length || all[i] == '\n') {
        if (i == all.length && i == start) {
          break;
        }
        int end = i > start && all[i - 1] == '\r' ? i - 1 : i;
        out.add(Arrays.copyOfRange(all, start, end));
        start = i + 1;
      }
    }
    return out;
  }

  /** The strict decoding of {@code b}, or {@code null} when it is not UTF-8. */
  public static String decode(byte[] b) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  static int intColumn(String v) {
    if (v == null || !v.matches("-?[0-9]{1,18}")) {
      return Integer.MIN_VALUE;
    }
    long x = Long.parseLong(v);
    return x > Integer.MIN_VALUE && x <= Integer.MAX_VALUE ? (int) x : Integer.MIN_VALUE;
  }

  /** The content hash as docs/EP.md defines it. */
  public static int contentHash(Map<String, String> fields) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> e : new TreeMap<>(fields).entrySet()) {
      if (e.getValue().isEmpty()
          || e.getKey().equals("class")
          || e.getKey().equals("update_time")) {
        continue;
      }
      sb.append(e.getKey()).append('\u001F').append(e.getValue()).append('\u001E');
    }
    return (int) Hashing.murmur3_128().hashString(sb, StandardCharsets.UTF_8).asLong();
  }

  /**
   * The products of a full EP: rows that are UTF-8, within 64 KiB, with the header's field count
   * and a non-empty id; the first row of each id.
   */
  public static Map<String, Product> products(Path file, List<String> extra) throws IOException {
    List<byte[]> lines = lines(file);
    String[] header = decode(lines.get(0)).split("\t", -1);
    Map<String, Product> out = new LinkedHashMap<>();
    for (byte[] line : lines.subList(1, lines.size())) {
      Map<String, String> f = row(header, line);
      if (f == null || f.get("id").isEmpty() || out.containsKey(f.get("id"))) {
        continue;
      }
      Product p = new Product();
      p.id = f.get("id");
      p.pricePc = intColumn(f.get("price_pc"));
      p.shipping = intColumn(f.get("shipping"));
      p.contentHash = contentHash(f);
      p.extra = new int[extra.size()];
      for (int i = 0; i < extra.size(); i++) {
        p.extra[i] = intColumn(f.get(extra.get(i)));
      }
      p.fields = f;
      out.put(p.id, p);
    }
    return out;
  }

  /** A line as field name to value, or {@code null} when the line checks reject it. */
  public static Map<String, String> row(String[] header, byte[] line) {
    if (line.length > TransformSpec.DEFAULT_MAX_LINE_BYTES || line.length == 0) {
      return null;
    }
    String s = decode(line);
    if (s == null) {
      return null;
    }
    String[] v = s.split("\t", -1);
    if (v.length != header.length) {
      return null;
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < v.length; i++) {
      m.put(header[i], v[i]);
    }
    return m;
  }
}
