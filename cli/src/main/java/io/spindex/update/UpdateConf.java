/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.spindex.annotations.Internal;
import io.spindex.builder.IndexBuilder;
import io.spindex.job.BuildIndexDefinition;
import io.spindex.job.JobArgs;
import io.spindex.job.JobOption;
import io.spindex.job.UsageException;
import io.spindex.text.InputException;
import io.spindex.text.Nearest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The databases a configuration file declares for {@code spindex update --conf FILE} (HOCON; see
 * {@code conf/spindex-update.example.conf}): under {@code spindex.update}, the defaults {@code
 * keep}, {@code lock-wait} and {@code geoip-conf}, and {@code databases.NAME} with {@code kind},
 * {@code sources}, {@code output}, optional {@code keep} and {@code allow-empty}, and {@code
 * build}: the build options by their command-line names. Every key is checked: an unknown one is an
 * error naming its line and the nearest known key.
 */
@Internal
public final class UpdateConf {
  private static final Set<String> TOP = Set.of("keep", "lock-wait", "geoip-conf", "databases");
  private static final Set<String> DATABASE =
      Set.of("kind", "sources", "output", "keep", "allow-empty", "build");

  /** Default for {@code keep} (and {@code --keep}). */
  public static final int DEFAULT_KEEP = 3;

  /** Default for {@code lock-wait} (and {@code --lock-wait}). */
  public static final Duration DEFAULT_LOCK_WAIT = Duration.ofMinutes(5);

  /** The databases by name, in name order. */
  public final Map<String, Updater.Database> databases = new TreeMap<>();

  public final Duration lockWait;
  public final Path geoipConf;

  private UpdateConf(Duration lockWait, Path geoipConf) {
    this.lockWait = lockWait;
    this.geoipConf = geoipConf;
  }

  /**
   * Reads {@code file}.
   *
   * @throws InputException one line naming the file and line: a syntax error, an unknown key, a
   *     missing or mistyped field, a bad build option
   */
  public static UpdateConf read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new InputException(file + ": no such file");
    }
    Config root;
    try {
      root = ConfigFactory.parseFile(file.toFile()).resolve();
    } catch (ConfigException e) {
      throw new InputException(e.getMessage());
    }
    if (!root.hasPath("spindex.update")) {
      throw new InputException(file + ": expected a 'spindex.update' block, found none");
    }
    try {
      Config u = root.getConfig("spindex.update");
      known(file, u.root(), TOP, "spindex.update");
      int keep = u.hasPath("keep") ? u.getInt("keep") : DEFAULT_KEEP;
      UpdateConf c =
          new UpdateConf(
              u.hasPath("lock-wait") ? u.getDuration("lock-wait") : DEFAULT_LOCK_WAIT,
              u.hasPath("geoip-conf") ? Paths.get(u.getString("geoip-conf")) : null);
      if (!u.hasPath("databases") || u.getObject("databases").isEmpty()) {
        throw new InputException(
            where(file, u.root()) + "expected at least one database under 'databases', found none");
      }
      ConfigObject dbs = u.getObject("databases");
      for (String name : new TreeSet<>(dbs.keySet())) {
        ConfigValue v = dbs.get(name);
        if (v.valueType() != ConfigValueType.OBJECT) {
          throw new InputException(
              where(file, v) + "databases." + name + ": expected a block, found " + v.valueType());
        }
        c.databases.put(name, database(file, name, (ConfigObject) v, keep));
      }
      return c;
    } catch (ConfigException e) {
      throw new InputException(e.getMessage());
    } catch (UsageException e) {
      throw new InputException(file + ": " + e.getMessage());
    }
  }

  private static Updater.Database database(Path file, String name, ConfigObject o, int keep)
      throws IOException {
    known(file, o, DATABASE, "databases." + name);
    Config d = o.toConfig();
    for (String required : new String[] {"kind", "sources", "output"}) {
      if (!d.hasPath(required)) {
        throw new InputException(
            where(file, o) + "databases." + name + ": expected '" + required + "', found none");
      }
    }
    String kind = d.getString("kind");
    List<String> sources = d.getStringList("sources");
    if (sources.isEmpty()) {
      throw new InputException(
          where(file, o.get("sources")) + "databases." + name + ".sources: expected at least one");
    }
    ConfigObject build = d.hasPath("build") ? d.getObject("build") : null;
    List<String> allowed = new ArrayList<>();
    for (JobOption<?> opt : buildOptions(kind)) {
      allowed.add(opt.name());
    }
    if (build != null) {
      known(file, build, new TreeSet<>(allowed), "databases." + name + ".build");
    }
    UnaryOperator<String> values =
        key -> {
          ConfigValue v = build == null ? null : build.get(key);
          if (v == null) {
            return null;
          }
          Object u = v.unwrapped();
          return u instanceof List
              ? String.join(",", ((List<?>) u).stream().map(String::valueOf).toArray(String[]::new))
              : String.valueOf(u);
        };
    JobArgs args = args("databases." + name, kind, values);
    return new Updater.Database(
        sources,
        d.getString("output"),
        d.hasPath("keep") ? d.getInt("keep") : keep,
        d.hasPath("allow-empty") && d.getBoolean("allow-empty"),
        build(args));
  }

  /** The build options a kind of database takes: the common ones and the kind's own. */
  public static List<JobOption<?>> buildOptions(String kind) {
    List<JobOption<?>> kindOptions = BuildIndexDefinition.kindOptions(kind);
    if (kindOptions == null) {
      throw new UsageException("kind: expected ips, ranges or products, got '" + kind + "'");
    }
    List<JobOption<?>> all = new ArrayList<>();
    all.add(BuildIndexDefinition.STRICT);
    all.addAll(kindOptions);
    return all;
  }

  /**
   * The build options of a database of {@code kind}, each taken from {@code values} (by its
   * command-line name; null: the default), checked as {@code spindex build} checks them.
   */
  public static JobArgs args(String job, String kind, UnaryOperator<String> values) {
    buildOptions(kind);
    return JobArgs.parse(
        job,
        BuildIndexDefinition.OPTIONS,
        new String[] {"--kind", kind, "--input", "-", "--output", "-"},
        values,
        "");
  }

  /** How a database with the build options {@code o} is built. */
  public static Updater.Build build(JobArgs o) {
    return (inputs, out) -> {
      IndexBuilder<?> b;
      switch (BuildIndexDefinition.kind(o)) {
        case "ips":
          b = BuildIndexDefinition.setBuilder(o);
          break;
        case "ranges":
          b = BuildIndexDefinition.rangeBuilder(o);
          break;
        default:
          b = BuildIndexDefinition.productBuilder(o);
          break;
      }
      // The build writes a scratch version; whether an empty one is published is the
      // Updater's decision (its --allow-empty, the message that names what stays published).
      return b.allowEmpty(true).build(inputs, out);
    };
  }

  /** Every key of {@code o} is one of {@code known}; else one line naming it and its line. */
  private static void known(Path file, ConfigObject o, Set<String> known, String where)
      throws InputException {
    for (Map.Entry<String, ConfigValue> e : new TreeMap<>(o).entrySet()) {
      if (!known.contains(e.getKey())) {
        throw new InputException(
            where(file, e.getValue())
                + "unknown key '"
                + io.spindex.text.Clip.of(e.getKey())
                + "' in "
                + where
                + " (nearest known key: '"
                + Nearest.of(e.getKey(), known)
                + "')");
      }
    }
  }

  private static String where(Path file, ConfigValue v) {
    int line = v == null ? -1 : v.origin().lineNumber();
    return file + (line > 0 ? ":" + line : "") + ": ";
  }
}
