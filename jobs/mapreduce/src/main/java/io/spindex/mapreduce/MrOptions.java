/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Job options after {@code ToolRunner} has taken the generic ones ({@code -D}, {@code -files},
 * {@code -libjars}, {@code -conf}). Precedence: {@code --name value} (or {@code --name=value}),
 * then {@code spindex.<name>} in the Hadoop configuration, then the default. Each option is a
 * {@code {name, default or null if required, description}} triple.
 */
final class MrOptions {
  /** Prefix of option defaults in the Hadoop configuration ({@code -D spindex.loader=nio}). */
  static final String CONF_PREFIX = "spindex.";

  private final Map<String, String> values = new LinkedHashMap<>();
  private final String job;

  private MrOptions(String job) {
    this.job = job;
  }

  static MrOptions parse(String job, String[][] keys, String[] args, Configuration conf) {
    MrOptions o = new MrOptions(job);
    for (String[] k : keys) {
      o.values.put(k[0], conf.get(CONF_PREFIX + k[0], k[1]));
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
      if (!o.values.containsKey(name)) {
        throw new UsageException("unknown option --" + name + "\n" + usage(job, keys));
      }
      o.values.put(name, value);
    }
    for (Map.Entry<String, String> e : o.values.entrySet()) {
      if (e.getValue() == null) {
        throw new UsageException("option --" + e.getKey() + " is required\n" + usage(job, keys));
      }
    }
    return o;
  }

  static String usage(String job, String[][] keys) {
    StringBuilder sb =
        new StringBuilder("usage: ").append(job).append(" [generic options] [options]\n");
    for (String[] k : keys) {
      sb.append(String.format(Locale.ROOT, "  --%-16s %s", k[0], k[2]));
      sb.append(k[1] == null ? " (required)" : " (default: " + k[1] + ")");
      sb.append('\n');
    }
    return sb.append(
            "Defaults can also be set as -D spindex.<option>=<value>. Generic options: -D, -conf,"
                + " -files, -libjars, -archives.\n")
        .toString();
  }

  String get(String name) {
    return values.get(name).trim();
  }

  String lower(String name) {
    return get(name).toLowerCase(Locale.ROOT);
  }

  int getInt(String name) {
    try {
      return Integer.parseInt(get(name));
    } catch (NumberFormatException e) {
      throw new UsageException(
          job + ": --" + name + " must be an integer, got '" + get(name) + "'");
    }
  }

  double getDouble(String name) {
    try {
      return Double.parseDouble(get(name));
    } catch (NumberFormatException e) {
      throw new UsageException(job + ": --" + name + " must be a number, got '" + get(name) + "'");
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
