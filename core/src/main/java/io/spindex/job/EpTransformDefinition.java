/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.ep.EpCounts;
import io.spindex.ep.EpTransform;
import io.spindex.ep.TransformSpec;
import io.spindex.ep.feed.EpHeader;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.Loader;
import io.spindex.index.load.OncePerJvm;
import io.spindex.lookup.Report;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ep-transform: cleans EP feeds with a transform spec (docs/EP.md). The spec is read and checked on
 * the driver, with every side file it names (value maps, membership indexes); those are shipped
 * like an index, and each task JVM parses and compiles the spec once, against its local copies.
 * Outputs: {@code OUT/part-*}, each a complete EP file with its header (or one {@code OUT/ep.tsv}
 * with {@code --single-file true}); {@code OUT/_rejects/part-*} (reject records, {@code
 * source<TAB>offset<TAB>reason<TAB>detail<TAB>line}: docs/BAD-INPUT.md); {@code OUT/_summary.json}.
 */
@Internal
public final class EpTransformDefinition extends LineJob<EpTransformDefinition.Plan> {
  private static final long serialVersionUID = 1L;

  public static final String NAME = "ep-transform";

  static final JobOption<String> SPEC =
      JobOption.text(
          "spec",
          null,
          "transform spec (HOCON) on the driver; its side files are shipped as --index-ship says");
  static final JobOption<Boolean> SINGLE_FILE =
      JobOption.bool("single-file", "false", "true: merge the parts into OUT/ep.tsv, one header");

  private static final List<JobOption<?>> OPTIONS =
      Arrays.asList(
          INPUT, OUTPUT, SPEC, SHIP, SPLIT_MB, SINGLE_FILE, Freshness.MAX_AGE, Freshness.WARN_AGE);

  /** Specs compiled in this JVM, by spec text and local side files. */
  private static final OncePerJvm<String, TransformSpec> SPECS = new OncePerJvm<>();

  /** What ep-transform's tasks need. */
  public static final class Plan extends LineJob.Plan {
    private static final long serialVersionUID = 1L;

    final String specText;
    final String specFile;
    final Map<String, SideFile> sideFiles;
    final EpHeader header;
    final byte[] outputHeader;
    final int outputColumns;
    final List<String> stepLabels;
    final boolean single;

    /**
     * The version of each side index, by its name in the spec ({@link IndexHeader#versionText}).
     */
    final Map<String, String> indexVersions;

    @Override
    public Map<String, String> reads() {
      Map<String, String> r = new LinkedHashMap<>();
      r.put("--spec", specFile);
      sideFiles.forEach((name, f) -> r.put("side file of --spec", f.given()));
      return r;
    }

    Plan(
        String specText,
        String specFile,
        Map<String, SideFile> sideFiles,
        EpHeader header,
        EpTransform t,
        List<String> stepLabels,
        boolean single,
        Map<String, String> indexVersions) {
      this.specText = specText;
      this.indexVersions = indexVersions;
      this.specFile = specFile;
      this.sideFiles = sideFiles;
      this.header = header;
      this.outputHeader = t.outputHeader().toLine();
      this.outputColumns = t.outputHeader().size();
      this.stepLabels = stepLabels;
      this.single = single;
    }

    @Override
    public String singleFile() {
      return single ? "ep.tsv" : null;
    }

    @Override
    public byte[] singleFileHeader() {
      return outputHeader;
    }
  }

  public EpTransformDefinition() {
    super(NAME, "clean EP product feeds with a transform spec (docs/EP.md)", OPTIONS);
  }

  @Override
  public Plan plan(JobArgs args, Driver driver) throws IOException {
    Path file = Paths.get(args.get(SPEC)).toAbsolutePath();
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString(), null, "no such spec file");
    }
    String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    Path base = file.getParent();
    Map<String, SideFile> sideFiles = new LinkedHashMap<>();
    TransformSpec spec;
    EpHeader header = driver.firstEpHeader(args.get(INPUT));
    EpTransform t;
    try {
      spec =
          TransformSpec.parse(
              text,
              name -> {
                Path p = base.resolve(name);
                sideFiles.put(name, null);
                return p;
              },
              file.toString());
      t = spec.compile(header);
    } catch (IllegalArgumentException e) {
      throw new UsageException(NAME + ": " + e.getMessage());
    }
    Map<String, Path> inPlace = new LinkedHashMap<>();
    Map<String, String> versions = new LinkedHashMap<>();
    for (String name : sideFiles.keySet()) {
      Path local = base.resolve(name);
      if (TransformSpec.isIndex(local) && startsLikeIndex(local)) {
        // A filter's product index: as old as a job's index may be, and named in the summary.
        IndexHeader h = Loader.readVersion(local);
        Freshness.check(args, name, h, driver);
        versions.put(name, h.versionText());
      }
      SideFile f = driver.ship(local.toString(), args.get(SHIP));
      sideFiles.put(name, f);
      if (f.ship() == SideFile.Ship.LOCAL) {
        inPlace.put(name, Paths.get(f.location()));
      }
    }
    if (inPlace.size() == sideFiles.size()) {
      // Tasks in this JVM that open the side files in place (the local driver) take this spec
      // instead of parsing it again: the key is theirs (see task).
      TransformSpec parsed = spec;
      SPECS.get(text + "\n" + inPlace, "compiling " + file, () -> parsed);
    }
    return new Plan(
        text,
        file.toString(),
        sideFiles,
        header,
        t,
        spec.stepLabels(),
        args.get(SINGLE_FILE),
        versions);
  }

  /** Whether {@code file} starts with the index magic (a value map may end in .spx too). */
  private static boolean startsLikeIndex(Path file) throws IOException {
    try (java.io.InputStream in = Files.newInputStream(file)) {
      return IndexHeader.startsLikeIndex(in.readNBytes(16));
    }
  }

  @Override
  public LineTask task(Plan p, TaskSide side) throws IOException {
    Map<String, Path> local = new LinkedHashMap<>();
    for (Map.Entry<String, SideFile> e : p.sideFiles.entrySet()) {
      local.put(e.getKey(), side.local(e.getValue()));
    }
    TransformSpec spec =
        SPECS
            .get(
                p.specText + "\n" + local,
                "compiling " + p.specFile,
                () -> TransformSpec.parse(p.specText, local::get, p.specFile))
            .value();
    EpTransform.Worker w = spec.compile(p.header).worker();
    return new EpLineTask(
        w, () -> w.counts().asMap(), p.header, p.single ? null : p.outputHeader, side.source());
  }

  @Override
  public boolean summarize(
      Plan p, JobArgs args, Map<String, Long> totals, List<Object[]> countRows, Report r) {
    r.put("spec", p.specFile).put("single file", p.single);
    StringBuilder shipped = new StringBuilder();
    p.sideFiles.values().forEach(f -> shipped.append(shipped.length() > 0 ? " " : "").append(f));
    r.put("side files shipped as", shipped.toString());
    p.indexVersions.forEach((name, v) -> r.put("index version (" + name + ")", v));
    r.put("output columns", p.outputColumns);
    Map<String, Long> c = new LinkedHashMap<>();
    new EpCounts(p.stepLabels).asMap().keySet().forEach(k -> c.put(k, 0L));
    totals.forEach(
        (k, v) -> {
          if (k.startsWith("rows ") || k.startsWith("rejected ") || k.startsWith("step ")) {
            c.put(k, v);
          }
        });
    c.forEach(r::put);
    r.put(TASKS, totals.getOrDefault(TASKS, 0L));
    long in = c.get("rows in");
    long out = c.get("rows out");
    long rejected = c.get("rows rejected");
    long byReason =
        c.entrySet().stream()
            .filter(e -> e.getKey().startsWith("rejected "))
            .mapToLong(Map.Entry::getValue)
            .sum();
    boolean balanced = in == out + rejected && byReason == rejected;
    r.put("balanced", balanced)
        .put("balance", in + " in = " + out + " out + " + rejected + " rejected");
    return balanced;
  }
}
