/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.lookup;

import static io.spindex.text.Json.quote;

import io.spindex.annotations.Internal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A job summary: ordered key/value facts and small tables, rendered as an aligned text table for
 * people and as JSON for machines (the same content). Values are strings, numbers or booleans. Not
 * thread-safe.
 */
@Internal
public final class Report {
  private final String title;
  private final List<Object[]> entries = new ArrayList<>();

  public Report(String title) {
    this.title = title;
  }

  /** Adds a fact; {@code value} is a String, Number or Boolean. */
  public Report put(String key, Object value) {
    entries.add(new Object[] {key, value});
    return this;
  }

  /** Adds a table: one JSON array of objects, one text block. Rows hold strings and numbers. */
  public Report table(String key, List<String> columns, List<List<Object>> rows) {
    entries.add(new Object[] {key, new Table(columns, rows)});
    return this;
  }

  private static final class Table {
    final List<String> columns;
    final List<List<Object>> rows;

    Table(List<String> columns, List<List<Object>> rows) {
      this.columns = Collections.unmodifiableList(new ArrayList<>(columns));
      this.rows = Collections.unmodifiableList(new ArrayList<>(rows));
    }
  }

  /** The facts as aligned {@code key value} lines, tables as aligned columns. */
  public String toText() {
    StringBuilder sb = new StringBuilder();
    sb.append("== ").append(title).append(" ==\n");
    int w = 0;
    for (Object[] e : entries) {
      if (!(e[1] instanceof Table)) {
        w = Math.max(w, ((String) e[0]).length());
      }
    }
    for (Object[] e : entries) {
      if (e[1] instanceof Table) {
        sb.append(e[0]).append(":\n");
        appendTable(sb, (Table) e[1]);
      } else {
        sb.append(String.format(Locale.ROOT, "%-" + w + "s  %s%n", e[0], text(e[1])));
      }
    }
    return sb.toString();
  }

  private static void appendTable(StringBuilder sb, Table t) {
    int[] w = new int[t.columns.size()];
    for (int c = 0; c < w.length; c++) {
      w[c] = t.columns.get(c).length();
      for (List<Object> row : t.rows) {
        w[c] = Math.max(w[c], text(row.get(c)).length());
      }
    }
    StringBuilder line = new StringBuilder("  ");
    for (int c = 0; c < w.length; c++) {
      line.append(String.format(Locale.ROOT, "%-" + w[c] + "s  ", t.columns.get(c)));
    }
    sb.append(line.toString().replaceAll("\\s+$", "")).append('\n');
    for (List<Object> row : t.rows) {
      line.setLength(0);
      line.append("  ");
      for (int c = 0; c < w.length; c++) {
        Object v = row.get(c);
        String s = text(v);
        String fmt = v instanceof Number ? "%" + w[c] + "s  " : "%-" + w[c] + "s  ";
        line.append(String.format(Locale.ROOT, fmt, s));
      }
      sb.append(line.toString().replaceAll("\\s+$", "")).append('\n');
    }
  }

  private static String text(Object v) {
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return Double.isNaN(d) ? "-" : String.format(Locale.ROOT, "%.2f", d);
    }
    return String.valueOf(v);
  }

  /** The same content as one JSON object (keys in insertion order). */
  public String toJson() {
    StringBuilder sb = new StringBuilder("{\n  \"title\": ").append(quote(title));
    for (Object[] e : entries) {
      sb.append(",\n  ").append(quote((String) e[0])).append(": ");
      if (e[1] instanceof Table) {
        Table t = (Table) e[1];
        sb.append('[');
        for (int r = 0; r < t.rows.size(); r++) {
          sb.append(r == 0 ? "\n    {" : ",\n    {");
          for (int c = 0; c < t.columns.size(); c++) {
            sb.append(c == 0 ? "" : ", ").append(quote(t.columns.get(c))).append(": ");
            sb.append(json(t.rows.get(r).get(c)));
          }
          sb.append('}');
        }
        sb.append(t.rows.isEmpty() ? "]" : "\n  ]");
      } else {
        sb.append(json(e[1]));
      }
    }
    return sb.append("\n}\n").toString();
  }

  private static String json(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return Double.isNaN(d) || Double.isInfinite(d)
          ? "null"
          : String.format(Locale.ROOT, "%.3f", d);
    }
    if (v instanceof Number || v instanceof Boolean) {
      return v.toString();
    }
    return quote(v.toString());
  }
}
