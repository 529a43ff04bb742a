/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.text.Clip;
import io.spindex.text.Nearest;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The one grammar of Spindex's settings, for one engine. A setting has one name, kebab-case as the
 * command line writes its options, and the engine's key is its prefix followed by that name as it
 * is: {@code --split-mb 64} is {@code spark.spindex.split-mb=64} in the Spark configuration and
 * {@code spindex.split-mb=64} in the Hadoop one ({@code -D}, {@code -conf}). Settings no option has
 * follow the same rule, a dot before the part of a group ({@code spark.spindex.sql.batch}); a
 * family is a group whose last part the user names ({@code spark.spindex.index.NAME}).
 *
 * <p>Every key under the prefix must name a setting: an unknown one is refused in one line that
 * names the nearest known key ({@link #unknown}), where the engine starts (a job, before its
 * arguments are parsed; the SQL functions, when a query is analysed), so that a mistyped key is an
 * error rather than a default that silently does not apply. Immutable.
 */
@Internal
public final class Settings {
  /** A name: lower-case words joined by '-', groups by '.' ({@code sql.names-only}). */
  private static final Pattern NAME =
      Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*(\\.[a-z0-9]+(-[a-z0-9]+)*)*");

  private final String prefix;
  private final Set<String> names;
  private final Set<String> families;

  private Settings(String prefix, Set<String> names, Set<String> families) {
    this.prefix = prefix;
    this.names = names;
    this.families = families;
  }

  /**
   * The settings of an engine.
   *
   * @param prefix the engine's prefix, ending in '.': {@code spark.spindex.}, {@code spindex.}
   * @param names every setting's name: the options of the engine's jobs ({@link #optionNames}) and
   *     the engine's own settings
   * @param families the groups whose last part the user names ({@code index}: {@code
   *     PREFIX.index.NAME})
   * @throws IllegalArgumentException for a name that is not kebab-case, or a family that is also a
   *     name
   */
  public static Settings of(String prefix, Collection<String> names, Collection<String> families) {
    if (!prefix.endsWith(".")) {
      throw new IllegalArgumentException("a prefix ends in '.': " + prefix);
    }
    for (String n : names) {
      if (!NAME.matcher(n).matches()) {
        throw new IllegalArgumentException("not a setting's name (kebab-case): '" + n + "'");
      }
    }
    for (String f : families) {
      if (!NAME.matcher(f).matches() || names.contains(f)) {
        throw new IllegalArgumentException("not a family's name: '" + f + "'");
      }
    }
    return new Settings(
        prefix,
        Collections.unmodifiableSet(new TreeSet<>(names)),
        Collections.unmodifiableSet(new TreeSet<>(families)));
  }

  /** The names of the options of {@code tables}, each once, in table order. */
  public static Set<String> optionNames(Collection<List<JobOption<?>>> tables) {
    Set<String> all = new LinkedHashSet<>();
    for (List<JobOption<?>> t : tables) {
      for (JobOption<?> o : t) {
        all.add(o.name());
      }
    }
    return all;
  }

  /** The engine's prefix, ending in '.'. */
  public String prefix() {
    return prefix;
  }

  /** Every setting's name, sorted. */
  public Set<String> names() {
    return names;
  }

  /** The families, sorted. */
  public Set<String> families() {
    return families;
  }

  /**
   * The key of the setting {@code name}.
   *
   * @throws IllegalArgumentException when no setting has that name
   */
  public String key(String name) {
    if (!names.contains(name)) {
      throw new IllegalArgumentException("no setting " + prefix + name);
    }
    return prefix + name;
  }

  /** The key of {@code member} of {@code family}: {@code PREFIX.family.member}. */
  public String key(String family, String member) {
    if (!families.contains(family)) {
      throw new IllegalArgumentException("no family " + prefix + family + ".NAME");
    }
    return prefix + family + "." + member;
  }

  /**
   * Whether {@code key} names a setting, or lies outside the prefix (not this engine's to judge).
   */
  public boolean known(String key) {
    if (!key.startsWith(prefix)) {
      return true;
    }
    String rest = key.substring(prefix.length());
    if (names.contains(rest)) {
      return true;
    }
    int dot = rest.lastIndexOf('.');
    while (dot > 0) {
      if (families.contains(rest.substring(0, dot)) && dot + 1 < rest.length()) {
        return true;
      }
      dot = rest.lastIndexOf('.', dot - 1);
    }
    return false;
  }

  /**
   * Null when every key of {@code keys} under the prefix names a setting; else one line about the
   * first that does not (in key order), naming the nearest known key: {@code unknown setting
   * spark.spindex.sql.namesOnly (nearest: spark.spindex.sql.names-only)}.
   */
  public String unknown(Iterable<String> keys) {
    TreeSet<String> bad = new TreeSet<>();
    for (String k : keys) {
      if (!known(k)) {
        bad.add(k);
      }
    }
    if (bad.isEmpty()) {
      return null;
    }
    String key = bad.first();
    return "unknown setting "
        + Clip.of(key, Clip.DEFAULT)
        + " (nearest: "
        + nearest(key.substring(prefix.length()))
        + (bad.size() > 1 ? "; " + (bad.size() - 1) + " more unknown" : "")
        + ")";
  }

  /**
   * The known key nearest to {@code rest} (a key less the prefix): a family, shown as {@code
   * PREFIX.family.NAME}, is measured against the whole and against the part before the first '.'
   * (so that {@code index}, {@code index.} and {@code idnex.geo} are near {@code index.NAME}); of
   * several as near, a name before a family, names in order.
   */
  private String nearest(String rest) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String n : names) {
      int d = Nearest.distance(rest, n);
      if (d < bestDistance) {
        best = prefix + n;
        bestDistance = d;
      }
    }
    int dot = rest.indexOf('.');
    for (String f : families) {
      int d = Nearest.distance(rest, f);
      if (dot >= 0) {
        d = Math.min(d, Nearest.distance(rest.substring(0, dot), f));
      }
      if (d < bestDistance) {
        best = prefix + f + ".NAME";
        bestDistance = d;
      }
    }
    return best;
  }

  /**
   * The value the configuration gives option {@code name} ({@code conf} takes a key), or null when
   * it gives none or no setting has that name.
   */
  public String value(UnaryOperator<String> conf, String name) {
    return names.contains(name) ? conf.apply(prefix + name) : null;
  }

  /**
   * Parses {@code job}'s arguments with defaults from the engine's configuration ({@link
   * JobArgs#parse}); first refuses an unknown key among {@code keys} (every key the configuration
   * holds) with a {@link UsageException}, unless the arguments ask for {@code --help}. An option
   * named like a family takes a member's name too: {@code --index geo} with {@code
   * PREFIX.index.geo=/data/geo.spx} set is {@code --index /data/geo.spx}.
   *
   * @param conf the configuration's value of a key, or null
   * @param keys every key the configuration holds
   * @param confHint the usage text's last line: where defaults can be set
   */
  public JobArgs parse(
      String job,
      List<JobOption<?>> options,
      String[] args,
      UnaryOperator<String> conf,
      Iterable<String> keys,
      String confHint) {
    List<String> given = Arrays.asList(args);
    if (!given.contains("--help") && !given.contains("-h")) {
      String bad = unknown(keys);
      if (bad != null) {
        throw new UsageException(job + ": " + bad);
      }
    }
    JobArgs a = JobArgs.parse(job, options, args, name -> value(conf, name), confHint);
    for (JobOption<?> o : options) {
      if (families.contains(o.name())) {
        String configured = conf.apply(key(o.name(), a.text(o)));
        if (configured != null) {
          a = a.with(o, configured);
        }
      }
    }
    return a;
  }
}
