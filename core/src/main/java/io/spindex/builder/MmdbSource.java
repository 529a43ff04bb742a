/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import static io.spindex.builder.MmdbFields.assign;
import static io.spindex.builder.MmdbFields.fields;
import static io.spindex.builder.MmdbFields.flatFields;
import static io.spindex.builder.MmdbFields.missing;
import static io.spindex.builder.MmdbFields.schema;
import static io.spindex.builder.MmdbJoin.join;
import static io.spindex.builder.MmdbNetworks.readDb;

import io.spindex.builder.MmdbFields.Field;
import io.spindex.builder.MmdbNetworks.Clash;
import io.spindex.builder.MmdbNetworks.Db;
import io.spindex.index.LabelSchema;
import io.spindex.index.SourceInfo;
import io.spindex.mmdb.MmdbFile;
import io.spindex.text.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
  static final String[] DELIMITERS = {"|", "\t", "\u001f"};

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

  static boolean binary(Path p) throws IOException {
    try (InputStream in = Files.newInputStream(p)) {
      return MmdbFile.mayBeDatabase(in);
    }
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

  /** Each database's metadata, as {@code inspect} shows it. */
  static SourceInfo info(List<MmdbFile> dbs, Db[] read) {
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
  static long[] aliases(List<MmdbFile> dbs) {
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
  static void digest(List<Path> inputs, Result r) throws IOException {
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
