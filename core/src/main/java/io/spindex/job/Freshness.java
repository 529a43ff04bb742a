/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexHeader;
import io.spindex.index.SourceInfo;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How old a database may be: the {@code max-age} (refuse) and {@code warn-age} (one warning line)
 * of every job that reads an index, and of the SQL functions. A database's age is now less when its
 * sources were built ({@link IndexHeader#sourceMillis()}), else less when the index was ({@link
 * IndexHeader#createdMillis()}). Ages are written {@code 30d}, {@code 12h}, {@code 90m}, {@code
 * 45s}, or {@code none} (no limit, the default).
 */
@Internal
public final class Freshness {
  private Freshness() {}

  /** The text of no limit, the default. */
  public static final String NONE = "none";

  private static final Pattern AGE = Pattern.compile("(\\d{1,9})\\s*([smhd])");

  /** The units an age is shown in, largest first: letter, name, length. */
  private static final Object[][] UNITS = {
    {'d', "day", Duration.ofDays(1)},
    {'h', "hour", Duration.ofHours(1)},
    {'m', "minute", Duration.ofMinutes(1)},
    {'s', "second", Duration.ofSeconds(1)}
  };

  /** The database older than this is refused (the job exits 1, the SQL function does not run). */
  public static final JobOption<Duration> MAX_AGE =
      JobOption.of(
          "max-age",
          NONE,
          "refuse an index whose source was built longer ago than this: 30d, 12h, 90m or none",
          Freshness::parse);

  /** The database older than this gets one warning line. */
  public static final JobOption<Duration> WARN_AGE =
      JobOption.of(
          "warn-age",
          NONE,
          "one warning line for an index whose source was built longer ago than this: 30d, 12h",
          Freshness::parse);

  /**
   * An age limit's text as a duration, {@link Duration#ZERO} for {@code none}.
   *
   * @throws IllegalArgumentException saying what an age looks like
   */
  public static Duration parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals(NONE)) {
      return Duration.ZERO;
    }
    Matcher m = AGE.matcher(t);
    if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
      throw new IllegalArgumentException(
          "expected an age such as 30d, 12h, 90m or 45s (days, hours, minutes, seconds), or "
              + NONE
              + ", got '"
              + text
              + "'");
    }
    long n = Long.parseLong(m.group(1));
    for (Object[] u : UNITS) {
      if ((char) u[0] == m.group(2).charAt(0)) {
        return ((Duration) u[2]).multipliedBy(n);
      }
    }
    throw new IllegalStateException(text);
  }

  /**
   * Checks the database {@code name} (the file as the user named it), whose header is {@code h},
   * against the limits at {@code nowMillis}.
   *
   * @param maxAge refuse beyond it ({@link Duration#ZERO}: no limit)
   * @param warnAge warn beyond it ({@link Duration#ZERO}: no limit)
   * @return the warning line ({@code geo.spx: the database is 41 days old (source built …);
   *     warn-age is 30 days}), or null
   * @throws StaleIndexException beyond {@code maxAge}, the same line naming max-age
   */
  public static String check(
      String name, IndexHeader h, Duration maxAge, Duration warnAge, long nowMillis)
      throws StaleIndexException {
    long age = nowMillis - h.freshAsOfMillis();
    if (!maxAge.isZero() && age > maxAge.toMillis()) {
      throw new StaleIndexException(line(name, h, age, MAX_AGE.name(), maxAge));
    }
    if (!warnAge.isZero() && age > warnAge.toMillis()) {
      return line(name, h, age, WARN_AGE.name(), warnAge);
    }
    return null;
  }

  /**
   * A job's check of the index it read, {@code given} as its options name it: refused beyond {@link
   * #MAX_AGE}, a warning line on {@code driver} beyond {@link #WARN_AGE}.
   */
  static void check(JobArgs a, String given, IndexHeader h, Driver driver)
      throws StaleIndexException {
    String warning = check(given, h, a.get(MAX_AGE), a.get(WARN_AGE), System.currentTimeMillis());
    if (warning != null) {
      driver.warn("spindex " + a.job() + ": warning: " + warning);
    }
  }

  private static String line(String name, IndexHeader h, long ageMillis, String limit, Duration d) {
    Object[] unit = unitOf(d);
    long unitMillis = ((Duration) unit[2]).toMillis();
    // Whole units, but to a tenth when whole units would not show it past the limit.
    boolean tenths = Math.floorDiv(ageMillis, unitMillis) * unitMillis <= d.toMillis();
    return name
        + ": the database is "
        + amount(ageMillis, unitMillis, (String) unit[1], tenths)
        + " old ("
        + (h.sourceMillis() >= 0
            ? "source built " + SourceInfo.timeText(h.sourceMillis())
            : "built " + SourceInfo.timeText(h.createdMillis()) + ", its source time not recorded")
        + "); "
        + limit
        + " is "
        + amount(d.toMillis(), unitMillis, (String) unit[1], false);
  }

  /** The largest unit that measures {@code d} whole. */
  private static Object[] unitOf(Duration d) {
    for (Object[] u : UNITS) {
      if (d.toMillis() % ((Duration) u[2]).toMillis() == 0) {
        return u;
      }
    }
    return UNITS[UNITS.length - 1];
  }

  /**
   * {@code millis} in the unit, rounded down to whole units ({@code 41 days}) or with {@code
   * tenths} to a tenth ({@code 30.5 days}).
   */
  private static String amount(long millis, long unitMillis, String unit, boolean tenths) {
    long t = Math.floorDiv(millis * 10, unitMillis);
    if (!tenths) {
      t -= Math.floorMod(t, 10);
    }
    String n =
        t % 10 == 0
            ? Long.toString(t / 10)
            : String.format(Locale.ROOT, "%d.%d", Math.floorDiv(t, 10), t % 10);
    return n + " " + unit + (t == 10 ? "" : "s");
  }
}
