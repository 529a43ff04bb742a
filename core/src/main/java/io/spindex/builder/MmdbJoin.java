/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import static io.spindex.builder.MmdbFields.ANY;

import io.spindex.builder.MmdbFields.Field;
import io.spindex.builder.MmdbNetworks.Db;
import io.spindex.builder.MmdbNetworks.Family;
import io.spindex.index.LabelSchema;
import io.spindex.text.InputException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Several databases' ranges joined by address into the build's rows: at each boundary of any
 * database a new range begins; its label has each field from the database that holds the address,
 * NULL from one that does not; adjacent ranges of the same label are one.
 */
// MaxMind's reader decodes records into the class it is given, and Map.class is a raw type.
@SuppressWarnings("rawtypes")
final class MmdbJoin {
  private MmdbJoin() {}

  /**
   * The databases' ranges joined by address into rows: at each boundary of any database a new range
   * begins; its label has each field from the database that holds the address, NULL from one that
   * does not; adjacent ranges of the same label are one.
   */
  static void join(
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
  static final class Labeler {
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
  static String valueOf(Db[] dbs, int[][] position, int[] parts, int field, int db) {
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

  interface Emit {
    void range(long sHi, long sLo, long eHi, long eLo, int label);
  }

  static int compare(long aHi, long aLo, long bHi, long bLo) {
    int c = Long.compareUnsigned(aHi, bHi);
    return c != 0 ? c : Long.compareUnsigned(aLo, bLo);
  }

  /** A family's ranges by start; two that overlap are an error naming the file. */
  static Family sorted(Family f, String name) throws InputException {
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
  static Family withMapped(Family v4, Family mapped) throws InputException {
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
  static void sweep(Family[] fam, long maxHi, long maxLo, Labeler labeler, Emit emit) {
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
}
