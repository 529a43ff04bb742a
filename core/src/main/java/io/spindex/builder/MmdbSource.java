/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import com.maxmind.db.DatabaseRecord;
import com.maxmind.db.Networks;
import io.spindex.index.LabelSchema;
import io.spindex.index.LabelSchema.FieldType;
import io.spindex.index.SourceInfo;
import io.spindex.mmdb.MmdbFile;
import io.spindex.text.Clip;
import io.spindex.text.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * MaxMind DB files as the source of a range build: each database's networks (MaxMind's reader,
 * {@code networks()}) become ranges labelled with the chosen fields of their records, and several
 * databases are joined by address — the ranges split at every boundary of every database, each
 * field taken from its own, {@value LabelSchema#NULL_TEXT} (NULL) where that one has no network —
 * with adjacent ranges of the same label merged. The fields keep their database types ({@link
 * LabelSchema}); the databases' metadata and their IPv6 aliases of the IPv4 tree go into the index.
 */
// MaxMind's reader decodes records into the class it is given, and Map.class is a raw type.
@SuppressWarnings("rawtypes")
final class MmdbSource {
  /** Label delimiters, in order of preference: the first that no value contains is used. */
  private static final String[] DELIMITERS = {"|", "\t", "\u001f"};

  private static final int INT = 1;
  private static final int DBL = 2;
  private static final int BOOL = 4;
  private static final int U64 = 8;
  private static final int WIDE = 16;
  private static final int TEXT = 32;
  private static final int NEGATIVE = 64;

  /** One {@code --field NAME=[FILE:]PATH}. */
  static final class Field {
    final String name;
    final String file;
    final String path;
    final String[] steps;
    int db;
    int kinds;
    long found;

    Field(String name, String file, String path) {
      this.name = name;
      this.file = file;
      this.path = path;
      this.steps = path.split("\\.", -1);
    }

    String spec() {
      return name + "=" + (file == null ? "" : file + ":") + path;
    }
  }

  /** What the databases gave: rows are in the build's {@link RangeRows}. */
  static final class Result {
    long networks;
    LabelSchema schema;
    SourceInfo info;

    /** When the newest database was built (its {@code build_epoch}, ms), or -1. */
    long buildMillis = -1;

    long[] aliases;
    byte[] digest;
    long sourceBytes;
  }

  /** Whether the inputs are MaxMind databases: all of them, or none (else a usage error). */
  static boolean all(List<Path> inputs) throws IOException {
    int n = 0;
    for (Path p : inputs) {
      if (MmdbFile.isMmdb(p)) {
        n++;
      } else if (Files.isRegularFile(p) && binary(p)) {
        throw new InputException(
            p
                + ": neither text nor a MaxMind DB file (binary, and no metadata marker"
                + " '\\xAB\\xCD\\xEFMaxMind.com' in its last 128 KiB: a database cut short?)");
      }
    }
    if (n > 0 && n < inputs.size()) {
      throw new IllegalArgumentException(
          "build ranges: "
              + n
              + " of "
              + inputs.size()
              + " inputs are MaxMind DB files: give databases or text range files, not both");
    }
    return n > 0;
  }

  private static boolean binary(Path p) throws IOException {
    try (InputStream in = Files.newInputStream(p)) {
      return MmdbFile.mayBeDatabase(in);
    }
  }

  /** Parses {@code NAME=[FILE:]PATH} specs. */
  static List<Field> fields(List<String> specs) {
    List<Field> out = new ArrayList<>();
    for (String s : specs) {
      int eq = s.indexOf('=');
      String name = eq < 0 ? "" : s.substring(0, eq).trim();
      String rest = eq < 0 ? "" : s.substring(eq + 1).trim();
      int colon = rest.lastIndexOf(':');
      String file = colon < 0 ? null : rest.substring(0, colon);
      String path = colon < 0 ? rest : rest.substring(colon + 1);
      if (name.isEmpty() || path.isEmpty() || path.startsWith(".") || path.endsWith(".")) {
        throw new IllegalArgumentException(
            "--field: expected NAME=PATH or NAME=FILE:PATH (e.g. country=country.iso_code), found '"
                + Clip.of(s)
                + "'");
      }
      for (Field f : out) {
        if (f.name.equals(name)) {
          throw new IllegalArgumentException(
              "--field: the name '" + Clip.of(name) + "' is given twice");
        }
      }
      out.add(new Field(name, file, path));
    }
    return out;
  }

  private MmdbSource() {}

  /**
   * Reads the databases into {@code rows} and {@code rows6}.
   *
   * @param specs the {@code --field} specs; empty: every scalar key of flat records
   */
  static Result read(
      List<Path> inputs,
      List<String> specs,
      boolean allowMissing,
      RangeRows rows,
      Ipv6RangeRows rows6,
      List<String> notes)
      throws IOException {
    List<MmdbFile> dbs = new ArrayList<>();
    try {
      for (Path p : inputs) {
        dbs.add(MmdbFile.open(p));
      }
      List<Field> fields = specs.isEmpty() ? flatFields(dbs) : fields(specs);
      assign(fields, inputs);
      Result r = new Result();
      Db[] read = null;
      String delimiter = null;
      for (String d : DELIMITERS) {
        try {
          read = new Db[dbs.size()];
          for (int i = 0; i < dbs.size(); i++) {
            read[i] = readDb(dbs.get(i), i, fields, d);
          }
          delimiter = d;
          break;
        } catch (Clash c) {
          for (Field f : fields) {
            f.kinds = 0;
            f.found = 0;
          }
        }
      }
      if (delimiter == null) {
        throw new InputException(
            inputs + ": values hold every label delimiter ('|', tab and \\u001f)");
      }
      missing(fields, read, allowMissing, notes);
      r.schema = schema(fields, delimiter, notes);
      for (Db db : read) {
        r.networks += db.networks;
      }
      join(read, fields, delimiter, rows, rows6);
      r.info = info(dbs, read);
      for (MmdbFile f : dbs) {
        Object epoch = f.metadata().get("build_epoch");
        // 0 is no build time (a writer that set none): the files' time is taken instead.
        if (epoch instanceof Number && ((Number) epoch).longValue() > 0) {
          r.buildMillis = Math.max(r.buildMillis, ((Number) epoch).longValue() * 1000);
        }
      }
      r.aliases = aliases(dbs);
      digest(inputs, r);
      return r;
    } finally {
      for (MmdbFile f : dbs) {
        f.close();
      }
    }
  }

  /** A field without {@code FILE:}: read from every database that has it. */
  static final int ANY = -1;

  /**
   * Each field's database: the one its FILE prefix names, else {@link #ANY} (files of one database,
   * such as {@code -ipv4.mmdb} and {@code -ipv6.mmdb}, then combine as text inputs do).
   */
  private static void assign(List<Field> fields, List<Path> inputs) {
    for (Field f : fields) {
      f.db = ANY;
      if (f.file == null) {
        continue;
      }
      for (int i = 0; i < inputs.size() && f.db == ANY; i++) {
        Path p = inputs.get(i);
        if (p.toString().equals(f.file) || p.getFileName().toString().equals(f.file)) {
          f.db = i;
        }
      }
      if (f.db == ANY) {
        throw new IllegalArgumentException(
            "--field "
                + f.spec()
                + ": no input is named '"
                + f.file
                + "' (inputs: "
                + inputs
                + ")");
      }
    }
  }

  /** Every scalar key of the databases' records, sorted; a nested record is a usage error. */
  private static List<Field> flatFields(List<MmdbFile> dbs) throws IOException {
    TreeSet<String> keys = new TreeSet<>();
    for (MmdbFile db : dbs) {
      Object last = null;
      for (Networks<Map> it = networks(db); hasNext(db, it, null); ) {
        DatabaseRecord<Map> rec = next(db, it, null);
        Object data = rec.getData();
        if (data == last) {
          continue;
        }
        last = data;
        if (!(data instanceof Map)) {
          throw new IllegalArgumentException(
              db.path() + ": records are not maps (" + kindOf(data) + "): name them with --field");
        }
        for (Object e : ((Map<?, ?>) data).entrySet()) {
          Map.Entry<?, ?> en = (Map.Entry<?, ?>) e;
          if (en.getValue() instanceof Map || en.getValue() instanceof List) {
            throw new IllegalArgumentException(
                db.path()
                    + ": records are nested (network "
                    + rec.getNetwork()
                    + "): choose fields with --field NAME=PATH, e.g. from this record's paths: "
                    + listed(leafPaths(data, 40)));
          }
          keys.add(String.valueOf(en.getKey()));
        }
      }
    }
    if (keys.isEmpty()) {
      throw new IllegalArgumentException(dbs.get(0).path() + ": no record has a key");
    }
    List<Field> out = new ArrayList<>();
    for (String k : keys) {
      out.add(new Field(k, null, k));
    }
    return out;
  }

  /** One database's ranges: starts and ends as (hi, lo), and the values of each part. */
  private static final class Db {
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
  private static final class Family {
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

  private static final class Clash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Clash() {
      super(null, null, false, false);
    }
  }

  private static Db readDb(MmdbFile file, int index, List<Field> fields, String delimiter)
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
  private static Networks<Map> networks(MmdbFile f) throws InputException {
    try {
      return f.reader().networks(Map.class);
    } catch (Exception e) {
      throw new InputException(f.path() + ": " + e.getMessage());
    }
  }

  private static boolean hasNext(MmdbFile f, Networks<Map> it, String[] network)
      throws InputException {
    try {
      return it.hasNext();
    } catch (RuntimeException | StackOverflowError e) {
      throw damaged(f, network, e);
    }
  }

  private static DatabaseRecord<Map> next(MmdbFile f, Networks<Map> it, String[] network)
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

  private static InputException damaged(MmdbFile f, String[] network, Throwable e) {
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

  private static final long MAPPED_FIRST = 0x0000_FFFF_0000_0000L;
  private static final long MAPPED_LAST = 0x0000_FFFF_FFFF_FFFFL;

  /**
   * A network as a range of its family. IPv4-mapped addresses ({@code ::ffff:0:0/96}) are looked up
   * as IPv4, so that part of an IPv6 network is IPv4 ranges; MaxMind's reader names a network that
   * holds the whole IPv4 tree ({@code ::/96}) in IPv4 form with a negative prefix, and it holds
   * every IPv4 address and the IPv6 addresses around them.
   */
  private static void add(Db db, InetAddress a, int prefix, int part) {
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

  private static long toLong(byte[] b, int from, int n) {
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = v << 8 | (b[from + i] & 0xFF);
    }
    return v;
  }

  /** The text of one field of a record, {@value LabelSchema#NULL_TEXT} when it has none. */
  private static String text(Field f, Object data, String delimiter, MmdbFile file, Object rec) {
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

  private static List<String> prefixed(String path, List<String> leaves) {
    List<String> out = new ArrayList<>();
    for (String l : leaves) {
      out.add(path + "." + l);
    }
    return out;
  }

  private static String kindOf(Object v) {
    return v instanceof Map
        ? "a map"
        : v instanceof List ? "an array" : v.getClass().getSimpleName();
  }

  /**
   * Paths for a message: as many as fit in about 200 characters (each clipped), then how many more;
   * a message stays a line a person reads.
   */
  static String listed(List<String> paths) {
    StringBuilder sb = new StringBuilder();
    int shown = 0;
    for (String p : paths) {
      if (sb.length() > 200) {
        break;
      }
      sb.append(shown++ == 0 ? "" : ", ").append(Clip.of(p, 60));
    }
    if (shown < paths.size()) {
      sb.append(", ... (").append(paths.size() - shown).append(" more)");
    }
    return sb.toString();
  }

  /** The dotted paths of a record's values (map keys, array indices), at most {@code max}. */
  static List<String> leafPaths(Object data, int max) {
    List<String> out = new ArrayList<>();
    leaves("", data, out, max);
    return out;
  }

  private static void leaves(String prefix, Object v, List<String> out, int max) {
    if (out.size() >= max) {
      return;
    }
    if (v instanceof Map) {
      for (Map.Entry<?, ?> e : new TreeMap<>((Map<?, ?>) v).entrySet()) {
        leaves(
            prefix.isEmpty() ? e.getKey() + "" : prefix + "." + e.getKey(), e.getValue(), out, max);
      }
    } else if (v instanceof List) {
      List<?> l = (List<?>) v;
      for (int i = 0; i < l.size(); i++) {
        leaves(prefix.isEmpty() ? i + "" : prefix + "." + i, l.get(i), out, max);
      }
    } else if (!prefix.isEmpty()) {
      out.add(prefix);
    }
  }

  /** A field no record has: an error naming the nearest paths, unless allowed. */
  private static void missing(List<Field> fields, Db[] dbs, boolean allow, List<String> notes) {
    for (Field f : fields) {
      if (f.found > 0) {
        continue;
      }
      String where = f.db == ANY ? (dbs.length == 1 ? dbs[0].name : "the inputs") : dbs[f.db].name;
      if (allow) {
        notes.add("--field " + f.spec() + ": no record of " + where + " has it (all NULL)");
        continue;
      }
      java.util.Set<String> paths = new java.util.TreeSet<>();
      for (int d = 0; d < dbs.length; d++) {
        if (f.db == ANY || f.db == d) {
          paths.addAll(dbs[d].samplePaths);
        }
      }
      throw new IllegalArgumentException(
          "--field "
              + f.spec()
              + ": no record of "
              + where
              + " has this path (nearest: "
              + String.join(", ", nearest(f.path, paths, 5))
              + "; --allow-missing to keep it as NULL)");
    }
  }

  /** The {@code n} paths closest to {@code path} by edit distance. */
  static List<String> nearest(String path, Collection<String> paths, int n) {
    List<String> sorted = new ArrayList<>(paths);
    sorted.sort((a, b) -> Integer.compare(distance(path, a), distance(path, b)));
    return sorted.subList(0, Math.min(n, sorted.size()));
  }

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  /** Each field's type from the values it had. */
  private static LabelSchema schema(List<Field> fields, String delimiter, List<String> notes) {
    List<String> names = new ArrayList<>();
    List<FieldType> types = new ArrayList<>();
    for (Field f : fields) {
      int k = f.kinds & ~NEGATIVE;
      FieldType t;
      if (k == INT) {
        t = FieldType.BIGINT;
      } else if (k == DBL) {
        t = FieldType.DOUBLE;
      } else if (k == BOOL) {
        t = FieldType.BOOLEAN;
      } else if ((k == U64 || k == (U64 | INT)) && (f.kinds & NEGATIVE) == 0) {
        t = FieldType.DECIMAL_20;
      } else {
        t = FieldType.STRING;
        if (k != TEXT && k != 0) {
          notes.add(
              "--field "
                  + f.spec()
                  + ": "
                  + (k == WIDE || k == (WIDE | U64) || k == (WIDE | U64 | INT)
                      ? "uint128 values, kept as decimal text"
                      : "values of several types, kept as text"));
        }
      }
      names.add(f.name);
      types.add(t);
    }
    return new LabelSchema(names, types, delimiter, true);
  }

  /**
   * The databases' ranges joined by address into rows: at each boundary of any database a new range
   * begins; its label has each field from the database that holds the address, NULL from one that
   * does not; adjacent ranges of the same label are one.
   */
  private static void join(
      Db[] dbs, List<Field> fields, String delimiter, RangeRows rows, Ipv6RangeRows rows6)
      throws InputException {
    Family[] v4 = new Family[dbs.length];
    Family[] v6 = new Family[dbs.length];
    for (int i = 0; i < dbs.length; i++) {
      v4[i] = withMapped(sorted(dbs[i].v4, dbs[i].name), sorted(dbs[i].mapped, dbs[i].name));
      v6[i] = sorted(dbs[i].v6, dbs[i].name);
    }
    // position[d][i]: where field i is among database d's values, or -1.
    int[][] position = new int[dbs.length][fields.size()];
    for (int d = 0; d < dbs.length; d++) {
      int n = 0;
      for (int i = 0; i < fields.size(); i++) {
        int db = fields.get(i).db;
        position[d][i] = db == d || db == ANY ? n++ : -1;
      }
    }
    Labeler labeler = new Labeler(dbs, fields, position, delimiter, rows);
    sweep(
        v4,
        0,
        0xFFFF_FFFFL,
        labeler,
        (sh, sl, eh, el, label) -> rows.addLabelled(sl, el, label, 0, 0));
    sweep(v6, -1L, -1L, labeler, (sh, sl, eh, el, label) -> rows6.add(sh, sl, eh, el, label, 0, 0));
  }

  /** Interns the label of each combination of parts, once. */
  private static final class Labeler {
    final Db[] dbs;
    final List<Field> fields;
    final int[][] position;
    final String delimiter;
    final RangeRows rows;
    final Map<List<Integer>, Integer> ids = new HashMap<>();

    Labeler(Db[] dbs, List<Field> fields, int[][] position, String delimiter, RangeRows rows) {
      this.dbs = dbs;
      this.fields = fields;
      this.position = position;
      this.delimiter = delimiter;
      this.rows = rows;
    }

    String value(int[] parts, int field) {
      return valueOf(dbs, position, parts, field, fields.get(field).db);
    }

    int label(int[] parts) {
      List<Integer> key = new ArrayList<>(parts.length);
      for (int p : parts) {
        key.add(p);
      }
      Integer id = ids.get(key);
      if (id == null) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
          sb.append(i == 0 ? "" : delimiter).append(value(parts, i));
        }
        byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
        id = rows.internLabel(b, 0, b.length);
        ids.put(key, id);
      }
      return id;
    }
  }

  /** A field's text where these parts meet: from its database, or the first that has it. */
  private static String valueOf(Db[] dbs, int[][] position, int[] parts, int field, int db) {
    for (int d = db == ANY ? 0 : db; d < (db == ANY ? dbs.length : db + 1); d++) {
      if (parts[d] >= 0) {
        String v = dbs[d].parts.get(parts[d])[position[d][field]];
        if (!v.equals(LabelSchema.NULL_TEXT)) {
          return v;
        }
      }
    }
    return LabelSchema.NULL_TEXT;
  }

  private interface Emit {
    void range(long sHi, long sLo, long eHi, long eLo, int label);
  }

  private static int compare(long aHi, long aLo, long bHi, long bLo) {
    int c = Long.compareUnsigned(aHi, bHi);
    return c != 0 ? c : Long.compareUnsigned(aLo, bLo);
  }

  /** A family's ranges by start; two that overlap are an error naming the file. */
  private static Family sorted(Family f, String name) throws InputException {
    boolean inOrder = true;
    for (int i = 1; i < f.size && inOrder; i++) {
      inOrder = compare(f.sHi[i - 1], f.sLo[i - 1], f.sHi[i], f.sLo[i]) < 0;
    }
    Family out = f;
    if (!inOrder) {
      Integer[] order = new Integer[f.size];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> compare(f.sHi[a], f.sLo[a], f.sHi[b], f.sLo[b]));
      out = new Family();
      for (int i : order) {
        out.add(f.sHi[i], f.sLo[i], f.eHi[i], f.eLo[i], f.part[i]);
      }
    }
    for (int i = 1; i < out.size; i++) {
      if (compare(out.sHi[i], out.sLo[i], out.eHi[i - 1], out.eLo[i - 1]) <= 0) {
        throw new InputException(
            name + ": two networks hold the same addresses (from " + out.sLo[i] + ")");
      }
    }
    return out;
  }

  /**
   * The IPv4 ranges with those of IPv4-mapped networks where no IPv4 range is: an index answers
   * {@code ::ffff:a.b.c.d} as {@code a.b.c.d}, so where a database holds both (it does not alias
   * the one to the other) the IPv4 tree answers.
   */
  private static Family withMapped(Family v4, Family mapped) throws InputException {
    if (mapped.size == 0) {
      return v4;
    }
    Family all = new Family();
    for (int i = 0; i < v4.size; i++) {
      all.add(0, v4.sLo[i], 0, v4.eLo[i], v4.part[i]);
    }
    int j = 0;
    for (int i = 0; i < mapped.size; i++) {
      long from = mapped.sLo[i];
      long to = mapped.eLo[i];
      while (j < v4.size && v4.eLo[j] < from) {
        j++;
      }
      int k = j;
      while (from <= to) {
        if (k == v4.size || v4.sLo[k] > to) {
          all.add(0, from, 0, to, mapped.part[i]);
          break;
        }
        if (v4.sLo[k] > from) {
          all.add(0, from, 0, v4.sLo[k] - 1, mapped.part[i]);
        }
        from = v4.eLo[k] + 1;
        k++;
      }
    }
    return sorted(all, "");
  }

  /** Splits the families' ranges at every boundary and emits labelled, merged ranges. */
  private static void sweep(Family[] fam, long maxHi, long maxLo, Labeler labeler, Emit emit) {
    int k = fam.length;
    int[] at = new int[k];
    int[] parts = new int[k];
    boolean any = false;
    long posHi = 0;
    long posLo = 0;
    boolean first = true;
    for (Family f : fam) {
      if (f.size > 0 && (first || compare(f.sHi[0], f.sLo[0], posHi, posLo) < 0)) {
        posHi = f.sHi[0];
        posLo = f.sLo[0];
        first = false;
        any = true;
      }
    }
    if (!any) {
      return;
    }
    long runSHi = 0;
    long runSLo = 0;
    long runEHi = 0;
    long runELo = 0;
    int runLabel = -1;
    while (true) {
      boolean covered = false;
      long endHi = maxHi;
      long endLo = maxLo;
      boolean more = false;
      for (int d = 0; d < k; d++) {
        Family f = fam[d];
        while (at[d] < f.size && compare(f.eHi[at[d]], f.eLo[at[d]], posHi, posLo) < 0) {
          at[d]++;
        }
        parts[d] = -1;
        if (at[d] == f.size) {
          continue;
        }
        int i = at[d];
        more = true;
        if (compare(f.sHi[i], f.sLo[i], posHi, posLo) <= 0) {
          covered = true;
          parts[d] = f.part[i];
          if (compare(f.eHi[i], f.eLo[i], endHi, endLo) < 0) {
            endHi = f.eHi[i];
            endLo = f.eLo[i];
          }
        } else {
          long bHi = f.sLo[i] == 0 ? f.sHi[i] - 1 : f.sHi[i];
          long bLo = f.sLo[i] - 1;
          if (compare(bHi, bLo, endHi, endLo) < 0) {
            endHi = bHi;
            endLo = bLo;
          }
        }
      }
      if (!more) {
        break;
      }
      if (covered) {
        int label = labeler.label(parts);
        boolean adjacent =
            runLabel == label
                && runELo + 1 == posLo
                && (runELo == -1L ? runEHi + 1 == posHi : runEHi == posHi);
        if (adjacent) {
          runEHi = endHi;
          runELo = endLo;
        } else {
          if (runLabel >= 0) {
            emit.range(runSHi, runSLo, runEHi, runELo, runLabel);
          }
          runSHi = posHi;
          runSLo = posLo;
          runEHi = endHi;
          runELo = endLo;
          runLabel = label;
        }
      }
      if (endHi == maxHi && endLo == maxLo) {
        break;
      }
      posLo = endLo + 1;
      posHi = posLo == 0 ? endHi + 1 : endHi;
    }
    if (runLabel >= 0) {
      emit.range(runSHi, runSLo, runEHi, runELo, runLabel);
    }
  }

  /** Each database's metadata, as {@code inspect} shows it. */
  private static SourceInfo info(List<MmdbFile> dbs, Db[] read) {
    SourceInfo.Builder b = new SourceInfo.Builder();
    for (int i = 0; i < dbs.size(); i++) {
      MmdbFile f = dbs.get(i);
      Map<String, Object> m = f.metadata();
      b.put("source", f.path().getFileName().toString());
      b.put("database_type", String.valueOf(m.get("database_type")));
      b.put("ip_version", String.valueOf(f.ipVersion()));
      Object epoch = m.get("build_epoch");
      if (epoch instanceof Number) {
        b.put("build_epoch", Instant.ofEpochSecond(((Number) epoch).longValue()).toString());
      }
      Object languages = m.get("languages");
      if (languages instanceof List && !((List<?>) languages).isEmpty()) {
        List<String> l = new ArrayList<>();
        for (Object o : (List<?>) languages) {
          l.add(String.valueOf(o));
        }
        b.put("languages", String.join(",", l));
      }
      Object description = m.get("description");
      if (description instanceof Map) {
        for (Map.Entry<?, ?> e : new TreeMap<>((Map<?, ?>) description).entrySet()) {
          b.put("description." + e.getKey(), String.valueOf(e.getValue()));
        }
      }
      b.put("networks", Long.toString(read[i].networks));
    }
    return b.build();
  }

  /**
   * The IPv4 aliases every database has (an IPv4 database has none, so joining one keeps only those
   * every input shares).
   */
  private static long[] aliases(List<MmdbFile> dbs) {
    List<List<Long>> common = null;
    for (MmdbFile f : dbs) {
      long[] a = f.ipv4Aliases();
      List<List<Long>> these = new ArrayList<>();
      for (int i = 0; i < a.length; i += 3) {
        these.add(Arrays.asList(a[i], a[i + 1], a[i + 2]));
      }
      if (common == null) {
        common = these;
      } else {
        common.retainAll(these);
      }
    }
    long[] out = new long[common == null ? 0 : common.size() * 3];
    for (int i = 0; common != null && i < common.size(); i++) {
      for (int j = 0; j < 3; j++) {
        out[3 * i + j] = common.get(i).get(j);
      }
    }
    return out;
  }

  /** SHA-256 of the databases' stored bytes, in order. */
  private static void digest(List<Path> inputs, Result r) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    byte[] buf = new byte[1 << 16];
    for (Path p : inputs) {
      try (InputStream in = Files.newInputStream(p)) {
        int n;
        while ((n = in.read(buf)) > 0) {
          md.update(buf, 0, n);
          r.sourceBytes += n;
        }
      }
    }
    r.digest = md.digest();
  }
}
