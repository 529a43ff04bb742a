/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** Turns one element of a spec's {@code steps} list into a {@link Step}, checking everything. */
final class StepParser {
  static final List<String> KINDS =
      Arrays.asList(
          "rename",
          "drop",
          "select",
          "reorder",
          "normalize",
          "default",
          "map",
          "filter",
          "require");

  private static final Set<String> RULES =
      new HashSet<>(
          Arrays.asList("required", "max-chars", "chars", "integer", "max-items", "digits"));

  private StepParser() {}

  static Step parse(int n, ConfigValue v, Function<String, Path> sideFiles) throws IOException {
    String at = TransformSpec.at(v.origin());
    TransformSpec.expect(v, ConfigValueType.OBJECT, "step " + n);
    ConfigObject o = (ConfigObject) v;
    if (o.size() != 1 || !KINDS.contains(o.keySet().iterator().next())) {
      throw new IllegalArgumentException(
          at
              + ": step "
              + n
              + " must be an object with one key, the step kind ("
              + String.join(", ", KINDS)
              + "); found keys "
              + o.keySet());
    }
    String kind = o.keySet().iterator().next();
    ConfigValue body = o.get(kind);
    String where = at + ": step " + n + " (" + kind + ")";
    switch (kind) {
      case "rename":
        return new ColumnSteps.Rename(n, at, stringMap(body, where));
      case "drop":
        return new ColumnSteps.Drop(n, at, names(body, where));
      case "select":
        return new ColumnSteps.Select(n, at, names(body, where));
      case "reorder":
        return new ColumnSteps.Reorder(n, at, names(body, where));
      case "normalize":
        return normalize(n, at, body, where);
      case "default":
        return defaultStep(n, at, body, where);
      case "map":
        return map(n, at, body, where, sideFiles);
      case "filter":
        return filter(n, at, body, where, sideFiles);
      default:
        return require(n, at, body, where);
    }
  }

  private static Config object(ConfigValue body, String where, String... keys) {
    TransformSpec.expect(body, ConfigValueType.OBJECT, where);
    TransformSpec.onlyKeys((ConfigObject) body, new HashSet<>(Arrays.asList(keys)), where);
    return ((ConfigObject) body).toConfig();
  }

  private static Map<String, String> stringMap(ConfigValue body, String where) {
    TransformSpec.expect(body, ConfigValueType.OBJECT, where);
    Map<String, String> m = new LinkedHashMap<>();
    for (Map.Entry<String, ConfigValue> e : ((ConfigObject) body).entrySet()) {
      TransformSpec.expect(e.getValue(), ConfigValueType.STRING, where + ": '" + e.getKey() + "'");
      m.put(e.getKey(), (String) e.getValue().unwrapped());
    }
    if (m.isEmpty()) {
      throw new IllegalArgumentException(where + ": nothing to rename");
    }
    return m;
  }

  /** A non-empty list of distinct field names. */
  private static List<String> names(ConfigValue body, String where) {
    TransformSpec.expect(body, ConfigValueType.LIST, where);
    List<String> out = new ArrayList<>();
    for (Object x : (List<?>) body.unwrapped()) {
      if (!(x instanceof String) || ((String) x).isEmpty()) {
        throw new IllegalArgumentException(where + ": field names must be non-empty strings");
      }
      if (out.contains(x)) {
        throw new IllegalArgumentException(where + ": field '" + x + "' listed twice");
      }
      out.add((String) x);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(where + ": an empty list of fields");
    }
    return out;
  }

  private static Step normalize(int n, String at, ConfigValue body, String where) {
    Config c = object(body, where, "fields", "ops");
    List<String> fields = names(c.getValue("fields"), where + ": fields");
    List<Normalizer> ops = new ArrayList<>();
    for (String op : names(c.getValue("ops"), where + ": ops")) {
      try {
        ops.add(Normalizer.byName(op));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
      }
    }
    return new RowSteps.Normalize(n, at, fields, ops);
  }

  private static Step defaultStep(int n, String at, ConfigValue body, String where) {
    Config c = object(body, where, "field", "value", "from");
    if (c.hasPath("value") == c.hasPath("from")) {
      throw new IllegalArgumentException(where + ": give exactly one of 'value' and 'from'");
    }
    String value = c.hasPath("value") ? c.getString("value") : null;
    if (value != null && (value.indexOf('\t') >= 0 || value.indexOf('\n') >= 0)) {
      throw new IllegalArgumentException(where + ": a value cannot hold a tab or line end");
    }
    return new RowSteps.Default(
        n, at, c.getString("field"), value, c.hasPath("from") ? c.getString("from") : null);
  }

  private static Step map(
      int n, String at, ConfigValue body, String where, Function<String, Path> sideFiles)
      throws IOException {
    Config c = object(body, where, "key", "separator", "file", "to", "overwrite", "on-missing");
    ConfigValue k = c.getValue("key");
    List<String> key =
        k.valueType() == ConfigValueType.STRING
            ? Arrays.asList((String) k.unwrapped())
            : names(k, where + ": key");
    String sep = c.hasPath("separator") ? c.getString("separator") : ">";
    boolean overwrite = c.hasPath("overwrite") && c.getBoolean("overwrite");
    RowSteps.OnMissing onMissing = RowSteps.OnMissing.KEEP;
    if (c.hasPath("on-missing")) {
      String m = c.getString("on-missing");
      try {
        onMissing = RowSteps.OnMissing.valueOf(m.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            where + ": on-missing must be keep, empty or reject, not '" + m + "'", e);
      }
    }
    ValueMap map = ValueMap.load(sideFiles.apply(c.getString("file")));
    return new RowSteps.MapStep(n, at, key, sep, map, c.getString("to"), overwrite, onMissing);
  }

  private static Step filter(
      int n, String at, ConfigValue body, String where, Function<String, Path> sideFiles)
      throws IOException {
    Config c = object(body, where, "field", "index", "keep", "loader");
    String keep = c.hasPath("keep") ? c.getString("keep") : "present";
    if (!keep.equals("present") && !keep.equals("absent")) {
      throw new IllegalArgumentException(
          where + ": keep must be present or absent, not '" + keep + "'");
    }
    String loader = c.hasPath("loader") ? c.getString("loader") : "nio";
    try {
      io.spindex.index.load.Loader.forOption(loader);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
    String field = c.hasPath("field") ? c.getString("field") : "id";
    Path index = sideFiles.apply(c.getString("index"));
    return new RowSteps.Filter(
        n, at, field, TransformSpec.index(index, loader), keep.equals("present"));
  }

  private static Step require(int n, String at, ConfigValue body, String where) {
    if (body.valueType() == ConfigValueType.STRING) {
      if (!"ep-limits".equals(body.unwrapped())) {
        throw new IllegalArgumentException(
            where + ": the only preset is ep-limits, not '" + body.unwrapped() + "'");
      }
      return new Require(n, at);
    }
    TransformSpec.expect(body, ConfigValueType.OBJECT, where);
    Map<String, List<Rule>> rules = new LinkedHashMap<>();
    for (Map.Entry<String, ConfigValue> e : ((ConfigObject) body).entrySet()) {
      String fw = where + ": " + e.getKey();
      Config c = object(e.getValue(), fw, RULES.toArray(new String[0]));
      List<Rule> list = new ArrayList<>();
      if (c.hasPath("required") && c.getBoolean("required")) {
        list.add(Rule.required());
      }
      if (c.hasPath("max-chars")) {
        list.add(Rule.maxChars(positive(c.getInt("max-chars"), fw + ": max-chars")));
      }
      if (c.hasPath("chars")) {
        try {
          list.add(Rule.chars(c.getString("chars")));
        } catch (IllegalArgumentException x) {
          throw new IllegalArgumentException(fw + ": " + x.getMessage(), x);
        }
      }
      if (c.hasPath("integer")) {
        Config i = object(c.getValue("integer"), fw + ": integer", "min", "max");
        long min = i.hasPath("min") ? i.getLong("min") : Long.MIN_VALUE + 1;
        long max = i.hasPath("max") ? i.getLong("max") : Long.MAX_VALUE;
        if (min > max) {
          throw new IllegalArgumentException(fw + ": integer: min " + min + " > max " + max);
        }
        list.add(Rule.integer(min, max));
      }
      if (c.hasPath("max-items")) {
        Config i = object(c.getValue("max-items"), fw + ": max-items", "max", "separator");
        String sep = i.hasPath("separator") ? i.getString("separator") : "|";
        if (sep.length() != 1 || sep.charAt(0) > 127) {
          throw new IllegalArgumentException(fw + ": max-items: separator must be one ASCII char");
        }
        list.add(
            Rule.maxItems(positive(i.getInt("max"), fw + ": max-items"), (byte) sep.charAt(0)));
      }
      if (c.hasPath("digits")) {
        list.add(Rule.digits(positive(c.getInt("digits"), fw + ": digits")));
      }
      if (list.isEmpty()) {
        throw new IllegalArgumentException(fw + ": no rules");
      }
      rules.put(e.getKey(), list);
    }
    return new Require(n, at, rules);
  }

  private static int positive(int v, String where) {
    if (v < 1) {
      throw new IllegalArgumentException(where + " must be at least 1, not " + v);
    }
    return v;
  }
}
