/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.spindex.annotations.Internal;
import io.spindex.builder.ProductIndexBuilder;
import io.spindex.ep.feed.EpHeader;
import io.spindex.ep.feed.LineCheck;
import io.spindex.index.ProductIndex;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.IndexHolder;
import io.spindex.index.load.Loader;
import io.spindex.text.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A transform spec: a HOCON file (docs/EP.md, {@code conf/ep-transform.example.conf}) with {@code
 * input} options and an ordered list of {@code steps}. Everything that can be checked without an
 * input is checked at {@link #load}: unknown keys, step kinds, normalisers, rule arguments, and the
 * side files and indexes the steps name (loaded there, once). {@link #compile} checks the steps
 * against an input's header. Immutable and thread-safe after loading.
 */
@Internal
public final class TransformSpec {
  /** Default longest line, in bytes (LF excluded); longer lines are rejected. */
  public static final int DEFAULT_MAX_LINE_BYTES = LineCheck.DEFAULT_MAX_LINE_BYTES;

  private static final Set<String> INPUT_KEYS =
      new HashSet<>(Arrays.asList("max-line-bytes", "validate-utf8"));

  private final String name;
  private final int maxLineBytes;
  private final boolean validateUtf8;
  private final List<Step> steps;

  private TransformSpec(String name, int maxLineBytes, boolean validateUtf8, List<Step> steps) {
    this.name = name;
    this.maxLineBytes = maxLineBytes;
    this.validateUtf8 = validateUtf8;
    this.steps = Collections.unmodifiableList(steps);
  }

  /**
   * Loads and validates a spec file; relative paths in it are resolved against its directory.
   *
   * @throws IllegalArgumentException with {@code FILE:LINE} for anything wrong in the spec
   * @throws IOException when a side file or index it names cannot be read or is invalid
   */
  public static TransformSpec load(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString(), null, "no such spec file");
    }
    Config c;
    try {
      c =
          ConfigFactory.parseFile(
                  file.toFile(),
                  ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false))
              .resolve();
    } catch (ConfigException e) {
      throw new IllegalArgumentException("bad transform spec: " + e.getMessage(), e);
    }
    Path base = file.toAbsolutePath().getParent();
    return fromConfig(c, base::resolve, file.toString());
  }

  /** Parses a spec from text (tests); relative paths resolve against {@code base}. */
  public static TransformSpec parse(String hocon, Path base, String name) throws IOException {
    return parse(hocon, base::resolve, name);
  }

  /**
   * Parses a spec from text; {@code sideFiles} turns each side file the spec names (a value map's
   * {@code file}, a filter's {@code index}), as written in the spec, into the file to open. The
   * jobs record these names on the driver and map them to shipped copies in the tasks.
   */
  public static TransformSpec parse(String hocon, Function<String, Path> sideFiles, String name)
      throws IOException {
    Config c;
    try {
      c =
          ConfigFactory.parseString(hocon, ConfigParseOptions.defaults().setOriginDescription(name))
              .resolve();
    } catch (ConfigException e) {
      throw new IllegalArgumentException("bad transform spec: " + e.getMessage(), e);
    }
    return fromConfig(c, sideFiles, name);
  }

  private static TransformSpec fromConfig(Config c, Function<String, Path> sideFiles, String name)
      throws IOException {
    try {
      int maxLine = DEFAULT_MAX_LINE_BYTES;
      boolean utf8 = true;
      if (c.hasPath("input")) {
        Config in = c.getConfig("input");
        onlyKeys(in.root(), INPUT_KEYS, at(in.root().origin()) + ": input");
        if (in.hasPath("max-line-bytes")) {
          maxLine = in.getInt("max-line-bytes");
          if (maxLine < 16 || maxLine > (64 << 20)) {
            throw new IllegalArgumentException(
                at(in.getValue("max-line-bytes").origin())
                    + ": input.max-line-bytes must be in [16, 67108864], not "
                    + maxLine);
          }
        }
        if (in.hasPath("validate-utf8")) {
          utf8 = in.getBoolean("validate-utf8");
        }
      }
      if (!c.hasPath("steps")) {
        throw new IllegalArgumentException(name + ": no 'steps' list (see docs/EP.md)");
      }
      ConfigList list = c.getList("steps");
      List<Step> steps = new ArrayList<>();
      for (ConfigValue v : list) {
        steps.add(StepParser.parse(steps.size() + 1, v, sideFiles));
      }
      return new TransformSpec(name, maxLine, utf8, steps);
    } catch (ConfigException e) {
      throw new IllegalArgumentException("bad transform spec: " + e.getMessage(), e);
    }
  }

  /** {@code file:line} of a spec value. */
  static String at(ConfigOrigin o) {
    String f = o.filename() != null ? o.filename() : o.description();
    return o.lineNumber() >= 0 && o.filename() != null ? f + ":" + o.lineNumber() : f;
  }

  static void onlyKeys(ConfigObject o, Set<String> allowed, String where) {
    for (String k : o.keySet()) {
      if (!allowed.contains(k)) {
        List<String> sorted = new ArrayList<>(allowed);
        Collections.sort(sorted);
        throw new IllegalArgumentException(
            where + ": unknown key '" + k + "' (allowed: " + String.join(", ", sorted) + ")");
      }
    }
  }

  /** Checks that a value is of {@code type}; the message names where it is. */
  static void expect(ConfigValue v, ConfigValueType type, String what) {
    if (v.valueType() != type) {
      throw new IllegalArgumentException(
          at(v.origin())
              + ": "
              + what
              + " must be "
              + type.name().toLowerCase(java.util.Locale.ROOT)
              + ", found "
              + v.valueType().name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  /**
   * A product index named by a filter step, loaded once per JVM and path; a file not ending in
   * {@code .spx} is taken for an EP file (at least an {@code id} column) and indexed in memory.
   */
  static ProductIndex index(Path path, String loader) throws IOException {
    if (!isIndex(path)) {
      return new ProductIndexBuilder().threads(1).buildInMemory(Collections.singletonList(path));
    }
    SpindexIndex index = IndexHolder.acquire(path, Loader.forOption(loader)).index();
    if (!(index instanceof ProductIndex)) {
      throw new InputException(
          path
              + ": a filter step needs a product index (spindex build products), not "
              + index.kind().description());
    }
    return (ProductIndex) index;
  }

  /** Whether a side file is read as an index (a {@code .spx} file), not as text. */
  public static boolean isIndex(Path path) {
    return path.getFileName().toString().endsWith(".spx");
  }

  /** Where the spec came from. */
  public String name() {
    return name;
  }

  /** Longest accepted line in bytes, line end excluded. */
  public int maxLineBytes() {
    return maxLineBytes;
  }

  /** Whether every line is checked to be UTF-8 (default yes). */
  public boolean validateUtf8() {
    return validateUtf8;
  }

  /** Step labels ({@code 1:rename} ...), in order: the names of the per-step counts. */
  public List<String> stepLabels() {
    List<String> l = new ArrayList<>();
    for (Step s : steps) {
      l.add(s.label());
    }
    return l;
  }

  List<Step> steps() {
    return steps;
  }

  /**
   * Checks the steps against an input's header and returns the runnable transform.
   *
   * @throws IllegalArgumentException naming the spec line and step for a field the input does not
   *     have at that step
   */
  public EpTransform compile(EpHeader header) throws IOException {
    Schema schema = new Schema(header);
    List<Step.RowStep> rowSteps = new ArrayList<>();
    for (Step s : steps) {
      Step.RowStep r = s.compile(schema);
      if (r != null) {
        r.position = s.number - 1;
        rowSteps.add(r);
      }
    }
    return new EpTransform(this, header, schema, rowSteps);
  }
}
