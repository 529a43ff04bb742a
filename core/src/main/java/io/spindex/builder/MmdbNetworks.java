/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import static io.spindex.builder.MmdbFields.ANY;
import static io.spindex.builder.MmdbFields.BOOL;
import static io.spindex.builder.MmdbFields.DBL;
import static io.spindex.builder.MmdbFields.INT;
import static io.spindex.builder.MmdbFields.NEGATIVE;
import static io.spindex.builder.MmdbFields.TEXT;
import static io.spindex.builder.MmdbFields.U64;
import static io.spindex.builder.MmdbFields.WIDE;
import static io.spindex.builder.MmdbFields.kindOf;
import static io.spindex.builder.MmdbFields.leafPaths;
import static io.spindex.builder.MmdbFields.listed;
import static io.spindex.builder.MmdbFields.prefixed;

import com.maxmind.db.DatabaseRecord;
import com.maxmind.db.Networks;
import io.spindex.builder.MmdbFields.Field;
import io.spindex.index.LabelSchema;
import io.spindex.mmdb.MmdbFile;
import io.spindex.text.InputException;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One MaxMind database read into ranges: each network ({@code networks()} of MaxMind's reader) a
 * range of its family (IPv4-mapped networks as IPv4), each distinct record a part with the chosen
 * fields' text; a damaged database is an input error naming the file and the last network read.
 */
// MaxMind's reader decodes records into the class it is given, and Map.class is a raw type.
@SuppressWarnings("rawtypes")
final class MmdbNetworks {
  private MmdbNetworks() {}

  /** One database's ranges: starts and ends as (hi, lo), and the values of each part. */
  static final class Db {
    final String name;
    long networks;
    final Family v4 = new Family();
    final Family v6 = new Family();

    /** IPv4 ranges from IPv4-mapped networks: where the IPv4 tree has none. */
    final Family mapped = new Family();

    final List<String[]> parts = new ArrayList<>();
    List<String> samplePaths = new ArrayList<>();

    Db(String name) {
      this.name = name;
    }
  }

  /** Ranges of one family of one database, in address order. */
  static final class Family {
    int size;
    long[] sHi = new long[1024];
    long[] sLo = new long[1024];
    long[] eHi = new long[1024];
    long[] eLo = new long[1024];
    int[] part = new int[1024];

    void add(long a, long b, long c, long d, int p) {
      if (size == sHi.length) {
        int n = size * 2;
        sHi = Arrays.copyOf(sHi, n);
        sLo = Arrays.copyOf(sLo, n);
        eHi = Arrays.copyOf(eHi, n);
        eLo = Arrays.copyOf(eLo, n);
        part = Arrays.copyOf(part, n);
      }
      sHi[size] = a;
      sLo[size] = b;
      eHi[size] = c;
      eLo[size] = d;
      part[size] = p;
      size++;
    }
  }

  static final class Clash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Clash() {
      super(null, null, false, false);
    }
  }

  static Db readDb(MmdbFile file, int index, List<Field> fields, String delimiter)
      throws IOException {
    Db db = new Db(file.path().toString());
    List<Field> mine = new ArrayList<>();
    for (Field f : fields) {
      if (f.db == index || f.db == ANY) {
        mine.add(f);
      }
    }
    Map<List<String>, Integer> partIds = new HashMap<>();
    // The reader's cache hands out one object per decoded record: a record seen before is the
    // part it was, without reading its fields again. Bounded, like the reader's cache.
    Map<Object, Integer> seen = new java.util.IdentityHashMap<>();
    int samples = 0;
    TreeSet<String> paths = new TreeSet<>();
    String[] network = {null};
    for (Networks<Map> it = networks(file); hasNext(file, it, network); ) {
      DatabaseRecord<Map> rec = next(file, it, network);
      db.networks++;
      Object data = rec.getData();
      Integer known = seen.get(data);
      int part;
      if (known != null) {
        part = known;
      } else {
        if (samples < 256) {
          samples++;
          paths.addAll(leafPaths(data, 1000));
        }
        String[] values = new String[mine.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = text(mine.get(i), data, delimiter, file, rec);
        }
        part = partIds.computeIfAbsent(Arrays.asList(values), k -> partIds.size());
        if (part == db.parts.size()) {
          db.parts.add(values);
        }
        if (seen.size() >= 1 << 17) {
          seen.clear();
        }
        seen.put(data, part);
      }
      add(db, rec.getNetwork().getNetworkAddress(), rec.getNetwork().getPrefixLength(), part);
    }
    db.samplePaths = new ArrayList<>(paths);
    return db;
  }

  @SuppressWarnings("unchecked")
  static Networks<Map> networks(MmdbFile f) throws InputException {
    try {
      return f.reader().networks(Map.class);
    } catch (Exception e) {
      throw new InputException(f.path() + ": " + e.getMessage());
    }
  }

  static boolean hasNext(MmdbFile f, Networks<Map> it, String[] network) throws InputException {
    try {
      return it.hasNext();
    } catch (RuntimeException | StackOverflowError e) {
      throw damaged(f, network, e);
    }
  }

  static DatabaseRecord<Map> next(MmdbFile f, Networks<Map> it, String[] network)
      throws InputException {
    try {
      DatabaseRecord<Map> r = it.next();
      if (network != null) {
        network[0] = String.valueOf(r.getNetwork());
      }
      return r;
    } catch (RuntimeException | StackOverflowError e) {
      throw damaged(f, network, e);
    }
  }

  static InputException damaged(MmdbFile f, String[] network, Throwable e) {
    Throwable c = e.getCause() != null ? e.getCause() : e;
    String what =
        e instanceof StackOverflowError
            ? "a data record nested too deep, or a data pointer that loops"
            : c.getMessage() == null ? c.toString() : c.getMessage();
    return new InputException(
        f.path()
            + ": damaged"
            + (network != null && network[0] != null ? " after network " + network[0] : "")
            + ": "
            + what);
  }

  static final long MAPPED_FIRST = 0x0000_FFFF_0000_0000L;

  static final long MAPPED_LAST = 0x0000_FFFF_FFFF_FFFFL;

  /**
   * A network as a range of its family. IPv4-mapped addresses ({@code ::ffff:0:0/96}) are looked up
   * as IPv4, so that part of an IPv6 network is IPv4 ranges; MaxMind's reader names a network that
   * holds the whole IPv4 tree ({@code ::/96}) in IPv4 form with a negative prefix, and it holds
   * every IPv4 address and the IPv6 addresses around them.
   */
  static void add(Db db, InetAddress a, int prefix, int part) {
    byte[] b = a.getAddress();
    if (b.length == 4 && prefix >= 0) {
      long s = toLong(b, 0, 4);
      long span = prefix == 0 ? 0xFFFF_FFFFL : (1L << (32 - prefix)) - 1;
      db.v4.add(0, s, 0, s | span, part);
      return;
    }
    long hi = b.length == 4 ? 0 : toLong(b, 0, 8);
    long lo = b.length == 4 ? toLong(b, 0, 4) : toLong(b, 8, 8);
    int p = b.length == 4 ? prefix + 96 : prefix;
    long mHi = p >= 64 ? 0 : p == 0 ? -1L : -1L >>> p;
    long mLo = p <= 64 ? -1L : p >= 128 ? 0 : -1L >>> (p - 64);
    long eHi = hi | mHi;
    long eLo = lo | mLo;
    boolean holdsIpv4Tree = hi == 0 && Long.compareUnsigned(lo, 0xFFFF_FFFFL) <= 0 && p <= 96;
    if (holdsIpv4Tree) {
      db.v4.add(0, 0, 0, 0xFFFF_FFFFL, part);
    }
    boolean below = hi == 0 && Long.compareUnsigned(lo, MAPPED_FIRST) < 0;
    boolean above = eHi != 0 || Long.compareUnsigned(eLo, MAPPED_LAST) > 0;
    boolean outside =
        hi != 0
            || Long.compareUnsigned(lo, MAPPED_LAST) > 0
            || (eHi == 0 && Long.compareUnsigned(eLo, MAPPED_FIRST) < 0);
    if (outside) {
      db.v6.add(hi, lo, eHi, eLo, part);
      return;
    }
    if (below) {
      db.v6.add(hi, lo, 0, MAPPED_FIRST - 1, part);
    }
    if (!holdsIpv4Tree) {
      long from = below ? 0 : lo & 0xFFFF_FFFFL;
      long to = above ? 0xFFFF_FFFFL : eLo & 0xFFFF_FFFFL;
      db.mapped.add(0, from, 0, to, part);
    }
    if (above) {
      db.v6.add(0, MAPPED_LAST + 1, eHi, eLo, part);
    }
  }

  static long toLong(byte[] b, int from, int n) {
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = v << 8 | (b[from + i] & 0xFF);
    }
    return v;
  }

  /** The text of one field of a record, {@value LabelSchema#NULL_TEXT} when it has none. */
  static String text(Field f, Object data, String delimiter, MmdbFile file, Object rec) {
    Object v = data;
    for (String step : f.steps) {
      if (v instanceof Map) {
        v = ((Map<?, ?>) v).get(step);
      } else if (v instanceof List && step.matches("[0-9]{1,9}")) {
        List<?> l = (List<?>) v;
        int i = Integer.parseInt(step);
        v = i < l.size() ? l.get(i) : null;
      } else {
        v = null;
      }
      if (v == null) {
        return LabelSchema.NULL_TEXT;
      }
    }
    f.found++;
    String t;
    if (v instanceof String) {
      t = (String) v;
      f.kinds |= TEXT;
    } else if (v instanceof Integer || v instanceof Long) {
      long n = ((Number) v).longValue();
      t = Long.toString(n);
      f.kinds |= INT | (n < 0 ? NEGATIVE : 0);
    } else if (v instanceof Float) {
      t = Double.toString((double) (Float) v);
      f.kinds |= DBL;
    } else if (v instanceof Double) {
      t = Double.toString((Double) v);
      f.kinds |= DBL;
    } else if (v instanceof Boolean) {
      t = v.toString();
      f.kinds |= BOOL;
    } else if (v instanceof BigInteger) {
      BigInteger n = (BigInteger) v;
      t = n.toString();
      f.kinds |= n.bitLength() <= 64 ? U64 : WIDE;
    } else if (v instanceof byte[]) {
      t = Base64.getEncoder().encodeToString((byte[]) v);
      f.kinds |= TEXT;
    } else {
      throw new IllegalArgumentException(
          "--field "
              + f.spec()
              + ": in "
              + file.path()
              + " the path holds "
              + kindOf(v)
              + " (network "
              + ((DatabaseRecord<?>) rec).getNetwork()
              + "), not a value; its paths: "
              + listed(prefixed(f.path, leafPaths(v, 40))));
    }
    if (t.contains(delimiter) || t.equals(LabelSchema.NULL_TEXT)) {
      throw new Clash();
    }
    // A label's field that starts with a double quote is read as CSV-quoted: quote it so.
    return t.startsWith("\"") ? "\"" + t.replace("\"", "\"\"") + "\"" : t;
  }
}
