/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.annotations.Internal;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The fields a range label is made of: their names, their types and the delimiter that joins their
 * text into the label (sections {@code label_fields} and {@code label_types}). A label stays text
 * in the index, so that {@code spindex_label} and every older reader see what they always saw; the
 * types say how {@code spindex_lookup}, {@code lookup --json} and {@link IpRanges#labelValues} read
 * each field: an empty field is NULL for every type but {@link FieldType#STRING}, whose empty text
 * is the empty string (a database's record that lacks a field has the text {@value #NULL_TEXT}
 * then, which reads as NULL for every type). Immutable and serializable (a distributed build ships
 * it to the tasks that check the labels' values).
 */
public final class LabelSchema implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The text of a NULL field in a label whose fields are typed. */
  public static final String NULL_TEXT = "\\N";

  /** The type of one label field, by the name the index and {@code --label-fields} use. */
  public enum FieldType {
    /** Text, as in the label. */
    STRING("string"),
    /** A signed 64-bit integer: decimal digits, an optional leading '-'. */
    BIGINT("bigint"),
    /** A 64-bit float: decimal digits with an optional fraction and exponent (no NaN, no ∞). */
    DOUBLE("double"),
    /** {@code true} or {@code false}, in any case. */
    BOOLEAN("boolean"),
    /**
     * An unsigned 64-bit integer, read as a decimal of 20 digits and no fraction (a database's
     * uint64: beyond a BIGINT, and a DOUBLE would round it).
     */
    DECIMAL_20("decimal(20,0)");

    private final String sqlName;

    FieldType(String sqlName) {
      this.sqlName = sqlName;
    }

    /** The name in the index, in {@code --label-fields} and in messages. */
    public String sqlName() {
      return sqlName;
    }

    /** The type with this name (any case), or {@code null}. */
    public static FieldType named(String name) {
      String n = name.trim().toLowerCase(Locale.ROOT);
      for (FieldType t : values()) {
        if (t.sqlName.equals(n)) {
          return t;
        }
      }
      return null;
    }

    /** The names, as usage messages list them. */
    public static String names() {
      List<String> out = new ArrayList<>();
      for (FieldType t : values()) {
        out.add(t.sqlName);
      }
      return String.join(", ", out);
    }
  }

  private final List<String> names;
  private final List<FieldType> types;
  private final String delimiter;

  /** {@link #delimiter} in UTF-8, as the labels' bytes hold it. */
  private final byte[] delimiterBytes;

  private final boolean typed;

  /**
   * @param typed whether the types were declared (a {@code label_types} section is written); an
   *     index without one has only STRING fields
   */
  @Internal
  public LabelSchema(List<String> names, List<FieldType> types, String delimiter, boolean typed) {
    if (names.isEmpty() || names.size() != types.size()) {
      throw new IllegalArgumentException(
          "label fields need names, and a type for each: " + names + " " + types);
    }
    if (delimiter.isEmpty() || delimiter.contains("\n")) {
      throw new IllegalArgumentException(
          "label fields need a one-line delimiter, got '" + delimiter + "'");
    }
    for (String n : names) {
      if (n.trim().isEmpty() || n.contains("\n") || names.indexOf(n) != names.lastIndexOf(n)) {
        throw new IllegalArgumentException(
            "--label-fields: names must be distinct and not empty, got " + names);
      }
    }
    this.names = Collections.unmodifiableList(new ArrayList<>(names));
    this.types = Collections.unmodifiableList(new ArrayList<>(types));
    this.delimiter = delimiter;
    this.delimiterBytes = delimiter.getBytes(StandardCharsets.UTF_8);
    this.typed = typed;
  }

  /**
   * How a {@code --label-fields} list splits (a regex): at each comma outside parentheses, so that
   * {@code id:decimal(20,0)} stays one entry.
   */
  public static final String LIST_SPLIT = ",(?![^()]*\\))";

  /**
   * The schema {@code --label-fields} declares: each entry {@code name} (STRING) or {@code
   * name:type}; typed when any entry names a type.
   */
  @Internal
  public static LabelSchema declared(List<String> entries, String delimiter) {
    List<String> names = new ArrayList<>();
    List<FieldType> types = new ArrayList<>();
    boolean typed = false;
    for (String e : entries) {
      int colon = e.lastIndexOf(':');
      FieldType t = FieldType.STRING;
      String name = e;
      if (colon >= 0) {
        t = FieldType.named(e.substring(colon + 1));
        if (t == null) {
          throw new IllegalArgumentException(
              "--label-fields: unknown type in '"
                  + e
                  + "' (expected name or name:type, the type one of "
                  + FieldType.names()
                  + ")");
        }
        name = e.substring(0, colon);
        typed = true;
      }
      names.add(name.trim());
      types.add(t);
    }
    return new LabelSchema(names, types, delimiter, typed);
  }

  public List<String> names() {
    return names;
  }

  public List<FieldType> types() {
    return types;
  }

  public String delimiter() {
    return delimiter;
  }

  /** Whether the types were declared: the index holds a {@code label_types} section. */
  public boolean typed() {
    return typed;
  }

  /** {@code name type, …} as {@code inspect} shows it. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < names.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(names.get(i)).append(' ').append(types.get(i).sqlName);
    }
    return sb.toString();
  }

  /** Section {@code label_fields}: the delimiter line, then one name a line. */
  @Internal
  public byte[] fieldsSection() {
    return (delimiter + "\n" + String.join("\n", names)).getBytes(StandardCharsets.UTF_8);
  }

  /** Section {@code label_types}: one type name a line, in field order. */
  @Internal
  public byte[] typesSection() {
    List<String> t = new ArrayList<>();
    for (FieldType f : types) {
      t.add(f.sqlName);
    }
    return String.join("\n", t).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Why a label's text does not fit the schema, as a reject reason ({@code field-count}, {@code
   * not-double:latitude}), or {@code null} when it fits. A label must have as many fields as the
   * schema (a double-quoted field is one field, delimiters inside it included); a typed field's
   * text must parse as its type (or be empty or {@value #NULL_TEXT}).
   */
  @Internal
  public String misfit(byte[] b, int from, int to) {
    List<String> parts = split(b, from, to, -1);
    if (parts.size() != names.size()) {
      return "field-count";
    }
    for (int i = 0; i < parts.size(); i++) {
      FieldType t = types.get(i);
      if (t != FieldType.STRING && parse(t, parts.get(i)) == INVALID) {
        return "not-" + t.sqlName.replace("(20,0)", "") + ":" + names.get(i);
      }
    }
    return null;
  }

  /**
   * How many fields the label {@code [from, to)} of {@code b} has when split on {@code delimiter}
   * (UTF-8) as {@link #fieldEnd} splits it.
   */
  @Internal
  public static int fieldCount(byte[] b, int from, int to, byte[] delimiter) {
    int n = 1;
    for (int end = fieldEnd(b, from, to, delimiter);
        end >= 0;
        end = fieldEnd(b, end + delimiter.length, to, delimiter)) {
      n++;
    }
    return n;
  }

  /**
   * A label's fields: split on the delimiter, except inside a field that is double-quoted as in CSV
   * ({@code "Sydney, NSW",AU} is {@code Sydney, NSW} and {@code AU}; {@code ""} inside is one
   * quote). With {@code max > 0}, the last of {@code max} fields keeps the rest of the label.
   */
  List<String> split(byte[] b, int from, int to, int max) {
    byte[] d = delimiterBytes;
    List<String> out = new ArrayList<>();
    int at = from;
    while (true) {
      int end = max > 0 && out.size() == max - 1 ? -1 : fieldEnd(b, at, to, d);
      if (end < 0) {
        out.add(unquoted(new String(b, at, to - at, StandardCharsets.UTF_8)));
        return out;
      }
      out.add(unquoted(new String(b, at, end - at, StandardCharsets.UTF_8)));
      at = end + d.length;
    }
  }

  /**
   * Where the field of the label's bytes at {@code from} ends (its delimiter), or -1 when it is the
   * last (the label ends at {@code to}): a field that starts with a double quote runs to the
   * closing quote that a delimiter or the label's end follows ({@code ""} inside is a quote); any
   * other field, or one with text after its closing quote, to the next delimiter. The one rule of
   * the build's checks, the labels by field and every read of a label's fields.
   */
  @Internal
  public static int fieldEnd(byte[] b, int from, int to, byte[] delimiter) {
    if (from < to && b[from] == '"') {
      for (int i = from + 1; i < to; i++) {
        if (b[i] != '"') {
          continue;
        }
        if (i + 1 < to && b[i + 1] == '"') {
          i++;
          continue;
        }
        if (i + 1 == to) {
          return -1;
        }
        if (startsWith(b, i + 1, to, delimiter)) {
          return i + 1;
        }
        break; // text after the closing quote: not a quoted field
      }
    }
    for (int i = from; i + delimiter.length <= to; i++) {
      if (startsWith(b, i, to, delimiter)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean startsWith(byte[] b, int at, int to, byte[] d) {
    if (at + d.length > to) {
      return false;
    }
    for (int i = 0; i < d.length; i++) {
      if (b[at + i] != d[i]) {
        return false;
      }
    }
    return true;
  }

  /** A field without its enclosing double quotes ({@code ""} inside is one quote), else as is. */
  private static String unquoted(String f) {
    if (f.length() >= 2 && f.startsWith("\"") && f.endsWith("\"")) {
      String inner = f.substring(1, f.length() - 1);
      if (!inner.replace("\"\"", "").contains("\"")) {
        return inner.replace("\"\"", "\"");
      }
    }
    return f;
  }

  /** What {@link #misfit}'s reasons mean, as a build's rejects explain them. */
  @Internal
  public String expected() {
    return names.size()
        + " label field(s) split on '"
        + delimiter
        + "': "
        + describe().replace(" string", "");
  }

  /**
   * A label's fields as Java values by type: String, Long, Double, Boolean or BigDecimal, or {@code
   * null}, split as {@link #split} does (a double-quoted field is its text). A label of an older or
   * untyped index with fewer fields than the schema gives NULL for the missing ones and keeps any
   * extra text in the last field; a typed field whose text does not parse (only an index not built
   * by Spindex could hold one) is NULL.
   */
  public Object[] values(String label) {
    byte[] b = label.getBytes(StandardCharsets.UTF_8);
    return values(b, 0, b.length);
  }

  /** {@link #values(String)} of the label {@code [from, to)} of {@code b} (UTF-8). */
  public Object[] values(byte[] b, int from, int to) {
    Object[] out = new Object[names.size()];
    List<String> parts = split(b, from, to, out.length);
    for (int i = 0; i < parts.size(); i++) {
      Object v = typed ? parse(types.get(i), parts.get(i)) : parts.get(i);
      out[i] = v == INVALID ? null : v;
    }
    return out;
  }

  private static final Object INVALID = new Object();

  /**
   * Whether {@code s} is {@code -?[0-9]{1,max}}, with the sign only when {@code signed}: the text
   * of a BIGINT (19 digits) or DECIMAL(20,0) (20, no sign). Scanned, not matched by a regex: every
   * typed label is parsed at its first use, field by field.
   */
  static boolean integerText(String s, boolean signed, int max) {
    int i = signed && s.startsWith("-") ? 1 : 0;
    int d = digits(s, i);
    return d >= 1 && d <= max && i + d == s.length();
  }

  /** Whether {@code s} is {@code -?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,3})?}. */
  static boolean doubleText(String s) {
    int n = s.length();
    int i = s.startsWith("-") ? 1 : 0;
    int whole = digits(s, i);
    i += whole;
    int fraction = 0;
    if (i < n && s.charAt(i) == '.') {
      fraction = digits(s, i + 1);
      i += 1 + fraction;
    }
    if (whole == 0 && fraction == 0) {
      return false;
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      i += i < n && (s.charAt(i) == '+' || s.charAt(i) == '-') ? 1 : 0;
      int e = digits(s, i);
      if (e < 1 || e > 3) {
        return false;
      }
      i += e;
    }
    return i == n;
  }

  /** How many ASCII digits {@code s} has from {@code i} on, in a row. */
  private static int digits(String s, int i) {
    int j = i;
    while (j < s.length() && s.charAt(j) >= '0' && s.charAt(j) <= '9') {
      j++;
    }
    return j - i;
  }

  /** The value of one field's text, {@code null} for NULL, or {@link #INVALID}. */
  static Object parse(FieldType t, String s) {
    if (s.equals(NULL_TEXT) || (s.isEmpty() && t != FieldType.STRING)) {
      return null;
    }
    switch (t) {
      case STRING:
        return s;
      case BIGINT:
        return integerText(s, true, 19) ? parseLong(s) : INVALID;
      case DOUBLE:
        return doubleText(s) ? finite(Double.parseDouble(s)) : INVALID;
      case BOOLEAN:
        return s.equalsIgnoreCase("true")
            ? Boolean.TRUE
            : s.equalsIgnoreCase("false") ? Boolean.FALSE : INVALID;
      case DECIMAL_20:
        return integerText(s, false, 20) ? new BigDecimal(s) : INVALID;
      default:
        throw new AssertionError(t);
    }
  }

  private static Object parseLong(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return INVALID;
    }
  }

  private static Object finite(double d) {
    return Double.isInfinite(d) ? INVALID : (Object) d;
  }

  /**
   * The schema of an index's sections: {@code label_fields} (delimiter line, names) and, when
   * present, {@code label_types}; {@code null} message when they are well formed, else what is
   * wrong.
   */
  static LabelSchema read(String fields, String typeLines) {
    String[] lines = fields.split("\n", -1);
    List<String> names = Arrays.asList(Arrays.copyOfRange(lines, 1, lines.length));
    List<FieldType> types = new ArrayList<>();
    if (typeLines == null) {
      for (int i = 0; i < names.size(); i++) {
        types.add(FieldType.STRING);
      }
    } else {
      for (String t : typeLines.split("\n", -1)) {
        FieldType f = FieldType.named(t);
        if (f == null || !t.equals(f.sqlName)) {
          throw new IllegalArgumentException("unknown type '" + t + "'");
        }
        types.add(f);
      }
    }
    return new LabelSchema(names, types, lines[0], typeLines != null);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LabelSchema)) {
      return false;
    }
    LabelSchema s = (LabelSchema) o;
    return names.equals(s.names)
        && types.equals(s.types)
        && delimiter.equals(s.delimiter)
        && typed == s.typed;
  }

  @Override
  public int hashCode() {
    return names.hashCode() * 31 + types.hashCode();
  }

  @Override
  public String toString() {
    return describe() + " (split on '" + delimiter + "')";
  }
}
