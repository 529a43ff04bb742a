/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import io.spindex.gen.AccessLogGenerator;
import io.spindex.text.RejectReason;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.zip.GZIPOutputStream;

/**
 * Test data for ip-lookup with its expected answers computed independently of the job: a dual-stack
 * range index (reference: TreeMaps), a dual-stack set index (reference: HashMaps), and access-log
 * input files (30 % IPv6 clients), one of them gzip-compressed, with the byte offset of every line.
 * Shared by the Spark and MapReduce job tests through the core test-jar.
 *
 * <p>{@link #address} gives a line's address as one {@code long}: an IPv4 address in [0, 2^32), an
 * IPv6 address as a key from 2^32 up that stands for it (numbered as first seen), or a negative
 * reject code.
 */
public final class IpLookupFixture {
  public static final long SEED = 77;

  public final Path ranges;
  public final Path set;
  public final Path inputDir;
  public final List<Line> lines = new ArrayList<>();
  private final TreeMap<Long, Object[]> rangeRef = new TreeMap<>();
  private final TreeMap<BigInteger, Object[]> rangeRef6 = new TreeMap<>();
  private final Map<Long, Boolean> setRef = new HashMap<>();

  /** IPv6 addresses by the key {@link #address} gives them, and back. */
  private static final Map<Long, BigInteger> V6_BY_KEY = new ConcurrentHashMap<>();

  private static final Map<BigInteger, Long> V6_KEYS = new ConcurrentHashMap<>();

  /** One input line with where it came from. */
  public static final class Line {
    public final String text;
    public final String file;
    public final long offset;

    Line(String text, String file, long offset) {
      this.text = text;
      this.file = file;
      this.offset = offset;
    }
  }

  public IpLookupFixture(Path dir, int linesPerFile) throws IOException {
    Random rnd = new Random(SEED);
    List<long[]> rs = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (long at = 0; ; ) {
      at += 1 + (long) (rnd.nextDouble() * 30_000_000L);
      long end = at + (long) (rnd.nextDouble() * 40_000_000L);
      if (end > 0xFFFF_FFFFL) {
        break;
      }
      String label = "R" + rnd.nextInt(12) + (rnd.nextInt(8) == 0 ? " ünï\tcode" : "");
      rs.add(new long[] {at, end});
      labels.add(label);
      rangeRef.put(at, new Object[] {end, label});
      at = end;
    }
    // IPv6 ranges in the registries' blocks the generated clients come from, about half covered.
    List<long[]> rs6 = new ArrayList<>();
    List<String> labels6 = new ArrayList<>();
    for (long region : new long[] {0x2400, 0x2600, 0x2800, 0x2a00}) {
      long at = region << 48;
      long limit = at + (1L << 52);
      while (true) {
        at += 1 + (long) (rnd.nextDouble() * (1L << 47));
        long end = at + (long) (rnd.nextDouble() * (1L << 47));
        if (end >= limit) {
          break;
        }
        String label = "V" + rnd.nextInt(6) + (rnd.nextInt(8) == 0 ? " ünï" : "");
        rs6.add(new long[] {at, 0, end, -1L});
        labels6.add(label);
        rangeRef6.put(big(at, 0), new Object[] {big(end, -1L), label});
        at = end + 1;
      }
    }
    ranges = dir.resolve("ranges.spx");
    TestIndexes.writeRanges(
        ranges,
        rs.toArray(new long[0][]),
        labels.toArray(new String[0]),
        rs6.toArray(new long[0][]),
        labels6.toArray(new String[0]));

    inputDir = Files.createDirectories(dir.resolve("in"));
    AccessLogGenerator gen = new AccessLogGenerator(SEED, 30, 300);
    int[] setAddresses = new int[2000];
    List<long[]> set6 = new ArrayList<>();
    long n = 0;
    for (String name : new String[] {"a.log", "b.log.gz", "c.log"}) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      for (int i = 0; i < linesPerFile; i++) {
        String text = gen.text(n++);
        if (i % 1000 == 1) {
          text = "  "; // blank
        } else if (i % 1000 == 2) {
          text = "300.1.2.3 - - impossible address";
        }
        lines.add(new Line(text, name, bytes.size()));
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        bytes.write(b, 0, b.length);
        bytes.write(i % 500 == 3 ? '\r' : '\n');
        if (i % 500 == 3) {
          bytes.write('\n');
        }
        long[] v6 = new long[2];
        long a = IpLocator.first().locate(b, 0, b.length, v6);
        if (a == IpLocator.IPV6 && i % 3 == 0 && set6.size() < 1000) {
          set6.add(v6);
          setRef.put(address(text), Boolean.TRUE);
        } else if (a >= 0 && a < IpLocator.IPV6 && i % 3 == 0 && i / 3 < setAddresses.length) {
          setAddresses[i / 3] = (int) a;
        }
      }
      try (OutputStream out =
          name.endsWith(".gz")
              ? new GZIPOutputStream(Files.newOutputStream(inputDir.resolve(name)))
              : Files.newOutputStream(inputDir.resolve(name))) {
        bytes.writeTo(out);
      }
    }
    for (int a : setAddresses) {
      setRef.put(Integer.toUnsignedLong(a), Boolean.TRUE);
    }
    set = dir.resolve("set.spx");
    TestIndexes.writeSet(set, setAddresses, set6.toArray(new long[0][]));
  }

  private static BigInteger big(long hi, long lo) {
    return new BigInteger(Long.toUnsignedString(hi))
        .shiftLeft(64)
        .add(new BigInteger(Long.toUnsignedString(lo)));
  }

  /**
   * The address of a line (an IPv6 one as its key, see the class comment), or the reject reason's
   * negative code (via the unit-tested locator).
   */
  public static long address(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    long[] v6 = new long[2];
    long a = IpLocator.first().locate(b, 0, b.length, v6);
    if (a != IpLocator.IPV6) {
      return a;
    }
    BigInteger v = big(v6[0], v6[1]);
    return V6_KEYS.computeIfAbsent(
        v,
        k -> {
          synchronized (V6_BY_KEY) {
            long key = (1L << 32) + V6_BY_KEY.size();
            V6_BY_KEY.put(key, k);
            return key;
          }
        });
  }

  public static RejectReason reason(String text) {
    return RejectReason.ofCode(address(text));
  }

  public String rangeLabel(long a) {
    if (a >= 1L << 32) {
      BigInteger v = V6_BY_KEY.get(a);
      Map.Entry<BigInteger, Object[]> e = rangeRef6.floorEntry(v);
      return e != null && ((BigInteger) e.getValue()[0]).compareTo(v) >= 0
          ? (String) e.getValue()[1]
          : "\\N";
    }
    Map.Entry<Long, Object[]> e = rangeRef.floorEntry(a);
    return e != null && (Long) e.getValue()[0] >= a ? (String) e.getValue()[1] : "\\N";
  }

  public boolean inSet(long a) {
    return setRef.containsKey(a);
  }

  /**
   * What ip-lookup must write over the input with the range index, computed here: the annotated
   * lines ({@code line<TAB>label}) and the reject records ({@code source<TAB>offset<TAB>reason
   * <TAB><TAB>line}, the source named by {@code source} from the file's name), each sorted.
   */
  public List<List<String>> annotateReference(Function<String, String> source) {
    List<String> out = new ArrayList<>();
    List<String> rejects = new ArrayList<>();
    for (Line l : lines) {
      long a = address(l.text);
      if (a < 0) {
        rejects.add(
            source.apply(l.file)
                + "\t"
                + l.offset
                + "\t"
                + RejectReason.ofCode(a).label()
                + "\t\t"
                + l.text);
      } else {
        out.add(l.text + "\t" + rangeLabel(a));
      }
    }
    Collections.sort(out);
    Collections.sort(rejects);
    return List.of(out, rejects);
  }

  /** What ip-lookup's count mode must write with the set index: {@code true|false<TAB>lines}. */
  public List<String> setCountsReference() {
    Map<String, Long> counts = new TreeMap<>();
    for (Line l : lines) {
      long a = address(l.text);
      if (a >= 0) {
        counts.merge(Boolean.toString(inSet(a)), 1L, Long::sum);
      }
    }
    List<String> rows = new ArrayList<>();
    counts.entrySet().stream()
        .sorted((x, y) -> Long.compare(y.getValue(), x.getValue()))
        .forEach(e -> rows.add(e.getKey() + "\t" + e.getValue()));
    return rows;
  }

  /**
   * Bad input both engines must name in one line: an input directory {@code DIR/nested} with a
   * directory {@code inner} in it, and {@code DIR/cut/cut.log.gz}, a gzip file cut in the middle.
   * Returns {nested/inner, cut.log.gz}.
   */
  public static Path[] badInputs(Path dir) throws IOException {
    Path inner = Files.createDirectories(dir.resolve("nested/inner"));
    Files.write(inner.resolveSibling("a.log"), List.of("1.2.3.4 x"));
    Files.write(inner.resolve("b.log"), List.of("1.2.3.5 y"));
    Path cut = Files.createDirectories(dir.resolve("cut")).resolve("cut.log.gz");
    java.io.ByteArrayOutputStream whole = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream z = new java.util.zip.GZIPOutputStream(whole)) {
      for (int i = 0; i < 20000; i++) {
        z.write(("10.0." + (i % 250) + "." + (i % 199) + " line " + i + "\n").getBytes());
      }
    }
    Files.write(cut, java.util.Arrays.copyOf(whole.toByteArray(), whole.size() / 2));
    return new Path[] {inner, cut};
  }
}
