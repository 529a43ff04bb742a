/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * One row of a job's option table: its name, its default ({@code null}: required), its usage line
 * and its check. The check turns the text into the value the job uses; text it rejects is a usage
 * error ({@code --name: why}) raised while the arguments are parsed, on the driver, before anything
 * runs. Immutable.
 *
 * @param <T> the value's type
 */
@Internal
public final class JobOption<T> {
  private final String name;
  private final String defaultValue;
  private final String description;
  private final Function<String, T> check;

  /** Whether the command line takes it as a flag ({@code --strict} for {@code --strict true}). */
  private boolean flag;

  private JobOption(
      String name, String defaultValue, String description, Function<String, T> check) {
    this.name = Objects.requireNonNull(name, "name");
    this.defaultValue = defaultValue;
    this.description = Objects.requireNonNull(description, "description");
    this.check = Objects.requireNonNull(check, "check");
  }

  /**
   * An option whose value {@code check} derives from its text; {@code check} throws {@link
   * IllegalArgumentException} with a message saying what was expected.
   */
  public static <T> JobOption<T> of(
      String name, String defaultValue, String description, Function<String, T> check) {
    return new JobOption<>(name, defaultValue, description, check);
  }

  /** Free text (a path, a glob, a name), taken as given but not blank. */
  public static JobOption<String> text(String name, String defaultValue, String description) {
    return of(
        name,
        defaultValue,
        description,
        v -> {
          if (v.trim().isEmpty()) {
            throw new IllegalArgumentException("expected a value, got an empty one");
          }
          return v;
        });
  }

  /** One of {@code choices}, compared in lower case; the value is the choice's lower-case text. */
  public static JobOption<String> choice(
      String name, String defaultValue, String description, String... choices) {
    return of(name, defaultValue, description, v -> choiceOf(v, choices));
  }

  /** {@code true} or {@code false}. */
  public static JobOption<Boolean> bool(String name, String defaultValue, String description) {
    JobOption<Boolean> o =
        of(
            name,
            defaultValue,
            description,
            v -> Boolean.valueOf(choiceOf(v, "true", "false").equals("true")));
    o.flag = true;
    return o;
  }

  /** Whether a command line may give it alone, meaning {@code true} ({@link #bool} options). */
  public boolean isFlag() {
    return flag;
  }

  /** A whole number from {@code min} to {@code max}; {@code _} separators allowed. */
  public static JobOption<Long> integer(
      String name, String defaultValue, String description, long min, long max) {
    return of(
        name,
        defaultValue,
        description,
        v -> {
          long n;
          try {
            n = Long.parseLong(v.trim().replace("_", ""));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a whole number, got '" + v + "'");
          }
          if (n < min || n > max) {
            throw new IllegalArgumentException("expected " + min + " to " + max + ", got " + n);
          }
          return n;
        });
  }

  /** A number at least {@code min}. */
  public static JobOption<Double> number(
      String name, String defaultValue, String description, double min) {
    return of(
        name,
        defaultValue,
        description,
        v -> {
          double d;
          try {
            d = Double.parseDouble(v.trim());
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a number, got '" + v + "'");
          }
          if (!(d >= min) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("expected a number from " + min + ", got " + v);
          }
          return d;
        });
  }

  private static String choiceOf(String v, String... choices) {
    String c = v.trim().toLowerCase(Locale.ROOT);
    if (!Arrays.asList(choices).contains(c)) {
      throw new IllegalArgumentException(
          "expected " + String.join(" | ", choices) + ", got '" + v + "'");
    }
    return c;
  }

  /** The option name without dashes, e.g. {@code loader}. */
  public String name() {
    return name;
  }

  /** The built-in default, or {@code null} when the option is required. */
  public String defaultValue() {
    return defaultValue;
  }

  /** One line for usage text. */
  public String description() {
    return description;
  }

  /** Checks {@code text}; a usage error naming the option when the check rejects it. */
  T check(String job, String text) {
    try {
      return check.apply(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException(job + ": --" + name + ": " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return "--" + name;
  }
}
