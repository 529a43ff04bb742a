/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A job's arguments, parsed and checked against its option table. Precedence: {@code --name value}
 * (or {@code --name=value}) on the command line, then the engine's configuration (looked up by
 * option name through {@code conf}: {@code spark.spindex.<name>}, {@code -D spindex.<name>}), then
 * the built-in default. Every value is checked at parse time, so a bad one is a {@link
 * UsageException} before the job starts. Immutable.
 */
@Internal
public final class JobArgs {
  private final String job;
  private final Map<String, String> text;
  private final Map<String, Object> values;

  private JobArgs(String job, Map<String, String> text, Map<String, Object> values) {
    this.job = job;
    this.text = text;
    this.values = values;
  }

  /**
   * Parses and checks {@code args} against {@code options}.
   *
   * @param conf the engine configuration's value for an option name, or null
   * @param confHint one line for the usage text saying where defaults can be set
   * @throws UsageException on a bad command line, and for {@code --help}
   */
  public static JobArgs parse(
      String job,
      List<JobOption<?>> options,
      String[] args,
      UnaryOperator<String> conf,
      String confHint) {
    Map<String, JobOption<?>> byName = new HashMap<>();
    Map<String, String> text = new LinkedHashMap<>();
    for (JobOption<?> o : options) {
      byName.put(o.name(), o);
      String v = conf == null ? null : conf.apply(o.name());
      text.put(o.name(), v != null ? v : o.defaultValue());
    }
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        throw UsageException.help(usage(job, options, confHint));
      }
      if (!a.startsWith("--")) {
        throw usageError(job, "unexpected argument '" + a + "'");
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
        throw usageError(job, "option --" + name + " needs a value");
      }
      if (!byName.containsKey(name)) {
        throw usageError(job, "unknown option --" + name);
      }
      text.put(name, value);
    }
    Map<String, Object> values = new HashMap<>();
    for (JobOption<?> o : options) {
      String v = text.get(o.name());
      if (v == null) {
        throw usageError(job, "option --" + o.name() + " is required");
      }
      values.put(o.name(), o.check(job, v));
    }
    return new JobArgs(job, text, values);
  }

  /** One line: what is wrong, and where the options are listed. */
  private static UsageException usageError(String job, String what) {
    return new UsageException(job + ": " + what + " ('" + job + " --help' lists the options)");
  }

  /** The usage text: one line per option with its default, then {@code confHint}. */
  public static String usage(String job, List<JobOption<?>> options, String confHint) {
    StringBuilder sb = new StringBuilder("usage: ").append(job).append(" [options]\n");
    for (JobOption<?> o : options) {
      sb.append(String.format(Locale.ROOT, "  --%-16s %s", o.name(), o.description()));
      sb.append(o.defaultValue() == null ? " (required)" : " (default: " + o.defaultValue() + ")");
      sb.append('\n');
    }
    return sb.append(confHint).append('\n').toString();
  }

  /** The job these arguments are for, as messages name it. */
  public String job() {
    return job;
  }

  /** The checked value of {@code option}. */
  @SuppressWarnings("unchecked")
  public <T> T get(JobOption<T> option) {
    if (!values.containsKey(option.name())) {
      throw new IllegalArgumentException(job + " has no option " + option);
    }
    return (T) values.get(option.name());
  }

  /** The text of {@code option} as given (or defaulted). */
  public String text(JobOption<?> option) {
    return text.get(option.name());
  }

  /** These arguments with {@code option} set to {@code value}, checked as a given one is. */
  JobArgs with(JobOption<?> option, String value) {
    Map<String, String> t = new LinkedHashMap<>(text);
    Map<String, Object> v = new HashMap<>(values);
    t.put(option.name(), value);
    v.put(option.name(), option.check(job, value));
    return new JobArgs(job, t, v);
  }
}
