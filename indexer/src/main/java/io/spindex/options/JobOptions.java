/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.options;

import io.spindex.job.UsageException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Parsed job options, shared by the Spark and MapReduce jobs. Precedence: {@code --name value} (or
 * {@code --name=value}) on the command line, then the engine's configuration (looked up by option
 * name through {@code conf}), then the built-in default. Unknown options and missing required ones
 * fail with the job's usage text. Not thread-safe.
 */
public final class JobOptions {
  private final Map<String, String> values = new HashMap<>();
  private final String job;

  private JobOptions(String job) {
    this.job = job;
  }

  /**
   * Parses {@code args} against {@code keys}.
   *
   * @param conf the engine configuration's value for an option name, or null
   * @param confHint one line for the usage text saying where defaults can be set
   * @throws UsageException on a bad command line
   */
  public static <K extends Enum<K> & OptionKey> JobOptions parse(
      String job, Class<K> keys, String[] args, UnaryOperator<String> conf, String confHint) {
    JobOptions o = new JobOptions(job);
    Map<String, K> byName = new HashMap<>();
    for (K k : keys.getEnumConstants()) {
      byName.put(k.optionName(), k);
      String v = conf == null ? null : conf.apply(k.optionName());
      o.values.put(k.optionName(), v != null ? v : k.defaultValue());
    }
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        throw UsageException.help(usage(job, keys, confHint));
      }
      if (!a.startsWith("--")) {
        throw new UsageException("unexpected argument '" + a + "'\n" + usage(job, keys, confHint));
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
        throw new UsageException(
            "option --" + name + " needs a value\n" + usage(job, keys, confHint));
      }
      if (!byName.containsKey(name)) {
        throw new UsageException("unknown option --" + name + "\n" + usage(job, keys, confHint));
      }
      o.values.put(name, value);
    }
    for (K k : keys.getEnumConstants()) {
      if (o.values.get(k.optionName()) == null) {
        throw new UsageException(
            "option --" + k.optionName() + " is required\n" + usage(job, keys, confHint));
      }
    }
    return o;
  }

  /** The usage text: one line per option with its default, then {@code confHint}. */
  public static <K extends Enum<K> & OptionKey> String usage(
      String job, Class<K> keys, String confHint) {
    StringBuilder sb = new StringBuilder("usage: ").append(job).append(" [options]\n");
    for (K k : keys.getEnumConstants()) {
      sb.append(String.format(Locale.ROOT, "  --%-16s %s", k.optionName(), k.description()));
      sb.append(k.defaultValue() == null ? " (required)" : " (default: " + k.defaultValue() + ")");
      sb.append('\n');
    }
    return sb.append(confHint).append('\n').toString();
  }

  /** The value as given (or defaulted). */
  public String get(OptionKey key) {
    return values.get(key.optionName());
  }

  /** The value trimmed and in lower case. */
  public String lower(OptionKey key) {
    return get(key).trim().toLowerCase(Locale.ROOT);
  }

  public int getInt(OptionKey key) {
    String v = get(key);
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new UsageException(
          job + ": --" + key.optionName() + " must be an integer, got '" + v + "'");
    }
  }

  /** An integer that may contain {@code _} separators. */
  public long getLong(OptionKey key) {
    String v = get(key);
    try {
      return Long.parseLong(v.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      throw new UsageException(
          job + ": --" + key.optionName() + " must be an integer, got '" + v + "'");
    }
  }

  public double getDouble(OptionKey key) {
    String v = get(key);
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new UsageException(
          job + ": --" + key.optionName() + " must be a number, got '" + v + "'");
    }
  }
}
