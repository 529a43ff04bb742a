/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.SparkConf;

/**
 * Parsed job options. Precedence: {@code --name value} (or {@code --name=value}) on the command
 * line, then {@code spark.spindex.<name>} in the Spark configuration, then the built-in default.
 * Unknown options and missing required ones fail with the job's usage text.
 */
final class JobOptions {
  /** Prefix of option defaults in the Spark configuration. */
  static final String CONF_PREFIX = "spark.spindex.";

  private final Map<String, String> values = new HashMap<>();
  private final String job;

  private JobOptions(String job) {
    this.job = job;
  }

  static <K extends Enum<K> & OptionKey> JobOptions parse(
      String job, Class<K> keys, String[] args, SparkConf conf) {
    JobOptions o = new JobOptions(job);
    Map<String, K> byName = new HashMap<>();
    for (K k : keys.getEnumConstants()) {
      byName.put(k.optionName(), k);
      String v = conf == null ? null : conf.get(CONF_PREFIX + k.optionName(), null);
      o.values.put(k.optionName(), v != null ? v : k.defaultValue());
    }
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        throw new UsageException(usage(job, keys));
      }
      if (!a.startsWith("--")) {
        throw new UsageException("unexpected argument '" + a + "'\n" + usage(job, keys));
      }
      String name = a.substring(2);
      String value;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new UsageException("option --" + name + " needs a value\n" + usage(job, keys));
      }
      if (!byName.containsKey(name)) {
        throw new UsageException("unknown option --" + name + "\n" + usage(job, keys));
      }
      o.values.put(name, value);
    }
    for (K k : keys.getEnumConstants()) {
      if (o.values.get(k.optionName()) == null) {
        throw new UsageException(
            "option --" + k.optionName() + " is required\n" + usage(job, keys));
      }
    }
    return o;
  }

  static <K extends Enum<K> & OptionKey> String usage(String job, Class<K> keys) {
    StringBuilder sb = new StringBuilder("usage: ").append(job).append(" [options]\n");
    for (K k : keys.getEnumConstants()) {
      sb.append(String.format(Locale.ROOT, "  --%-16s %s", k.optionName(), k.description()));
      sb.append(k.defaultValue() == null ? " (required)" : " (default: " + k.defaultValue() + ")");
      sb.append('\n');
    }
    return sb.append("Defaults can also be set as spark.spindex.<option> in the Spark conf.\n")
        .toString();
  }

  String get(OptionKey key) {
    return values.get(key.optionName());
  }

  int getInt(OptionKey key) {
    String v = get(key);
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new UsageException(
          job + ": --" + key.optionName() + " must be an integer, got '" + v + "'");
    }
  }

  long getLong(OptionKey key) {
    String v = get(key);
    try {
      return Long.parseLong(v.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      throw new UsageException(
          job + ": --" + key.optionName() + " must be an integer, got '" + v + "'");
    }
  }

  double getDouble(OptionKey key) {
    String v = get(key);
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new UsageException(
          job + ": --" + key.optionName() + " must be a number, got '" + v + "'");
    }
  }

  /** Bad command line: the message is meant for the person who typed it. */
  static final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }
}
