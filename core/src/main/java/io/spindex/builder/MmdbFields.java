/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import static io.spindex.builder.MmdbNetworks.hasNext;
import static io.spindex.builder.MmdbNetworks.networks;
import static io.spindex.builder.MmdbNetworks.next;

import com.maxmind.db.DatabaseRecord;
import com.maxmind.db.Networks;
import io.spindex.builder.MmdbNetworks.Db;
import io.spindex.index.LabelSchema;
import io.spindex.index.LabelSchema.FieldType;
import io.spindex.mmdb.MmdbFile;
import io.spindex.text.Clip;
import io.spindex.text.Nearest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The fields a {@code .mmdb} range build takes from the databases' records: the {@code --field
 * NAME=[FILE:]PATH} specs (or every key of flat records), which database each reads, the type each
 * field's values had, and the messages that name a path no record has (with the nearest ones).
 */
// MaxMind's reader decodes records into the class it is given, and Map.class is a raw type.
@SuppressWarnings("rawtypes")
final class MmdbFields {
  private MmdbFields() {}

  static final int INT = 1;

  static final int DBL = 2;

  static final int BOOL = 4;

  static final int U64 = 8;

  static final int WIDE = 16;

  static final int TEXT = 32;

  static final int NEGATIVE = 64;

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

  /** A field without {@code FILE:}: read from every database that has it. */
  static final int ANY = -1;

  /**
   * Each field's database: the one its FILE prefix names, else {@link #ANY} (files of one database,
   * such as {@code -ipv4.mmdb} and {@code -ipv6.mmdb}, then combine as text inputs do).
   */
  static void assign(List<Field> fields, List<Path> inputs) {
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
  static List<Field> flatFields(List<MmdbFile> dbs) throws IOException {
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

  static List<String> prefixed(String path, List<String> leaves) {
    List<String> out = new ArrayList<>();
    for (String l : leaves) {
      out.add(path + "." + l);
    }
    return out;
  }

  static String kindOf(Object v) {
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

  static void leaves(String prefix, Object v, List<String> out, int max) {
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
  static void missing(List<Field> fields, Db[] dbs, boolean allow, List<String> notes) {
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
    sorted.sort((a, b) -> Integer.compare(Nearest.distance(path, a), Nearest.distance(path, b)));
    return sorted.subList(0, Math.min(n, sorted.size()));
  }

  /** Each field's type from the values it had. */
  static LabelSchema schema(List<Field> fields, String delimiter, List<String> notes) {
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
}
