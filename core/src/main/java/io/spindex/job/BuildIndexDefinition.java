/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import io.spindex.builder.Assembled;
import io.spindex.builder.IpRangeBuilder;
import io.spindex.builder.IpSetBuilder;
import io.spindex.builder.OverlapPolicy;
import io.spindex.builder.ProductIndexBuilder;
import io.spindex.ep.TransformSpec;
import io.spindex.index.IndexHeader;
import io.spindex.index.LabelSchema;
import io.spindex.lookup.Report;
import io.spindex.text.InputException;
import io.spindex.text.LineReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * build-index, the second job shape ("read everything, write one file"), defined once for every
 * engine: the option table of the three kinds (the texts of {@code spindex build ips|ranges|
 * products}), the checks of a kind's options, the builders they configure, where the sort cuts the
 * /16 blocks, and the summary with its reconciliation. An engine reads the splits, sorts and writes
 * the file atomically (the Hadoop file-system part is {@code io.spindex.hadoop.IndexBuild}); what
 * the file holds, and what the summary says, is decided here.
 */
@Internal
public final class BuildIndexDefinition {
  public static final String NAME = "build-index";

  /** Beside the index: the summary and the rejects of its last build ({@code OUT.build/}). */
  public static final String WORK_SUFFIX = ".build";

  public static final JobOption<String> KIND =
      JobOption.choice(
          "kind",
          null,
          "what to build: ips, ranges or products (the texts of 'spindex build"
              + " ips|ranges|products')",
          "ips",
          "ranges",
          "products");
  public static final JobOption<String> OUTPUT =
      JobOption.text(
          "output", null, "index file to write (any Hadoop path), replaced atomically when done");
  public static final JobOption<Boolean> STRICT =
      JobOption.bool("strict", "false", "fail on the first rejected line, before writing");
  public static final JobOption<Boolean> ALLOW_EMPTY =
      JobOption.bool(
          "allow-empty",
          "false",
          "write an index even when no line was accepted (else such a build fails and leaves the"
              + " output as it was)");
  public static final JobOption<Long> PARTITIONS =
      JobOption.integer(
          "partitions", "0", "sort partitions (0: as many as input splits)", 0, 1_000_000);

  public static final JobOption<Character> DELIMITER =
      JobOption.of(
          "delimiter",
          "detect",
          "ranges: field delimiter, one character or 'tab' (detect: tab, '|' or ',' per file)",
          BuildIndexDefinition::delimiter);
  public static final JobOption<OverlapPolicy> ON_OVERLAP =
      JobOption.of(
          "on-overlap",
          "fail",
          "ranges: fail (names both lines), narrowest, first or last (by input order)",
          OverlapPolicy::parse);
  public static final JobOption<List<String>> LABEL_FIELDS =
      JobOption.of(
          "label-fields",
          "none",
          "ranges: the fields a label is made of, e.g. country,region,city,isp",
          BuildIndexDefinition::fieldList);
  public static final JobOption<Boolean> LABEL_FIELDS_FROM_HEADER =
      JobOption.bool(
          "label-fields-from-header", "false", "ranges: take the label fields from the header");
  public static final JobOption<String> LABEL_DELIMITER =
      JobOption.text("label-delimiter", "|", "ranges: what separates the label fields");

  public static final JobOption<List<String>> FIELD =
      JobOption.of(
          "field",
          "none",
          "ranges from MaxMind DB files: NAME=PATH or NAME=FILE:PATH, comma-separated (e.g."
              + " country=country.iso_code,city=city.names.en); none: every key of flat records",
          BuildIndexDefinition::fieldList);
  public static final JobOption<Boolean> ALLOW_MISSING =
      JobOption.bool("allow-missing", "false", "ranges: keep a --field no record has (all NULL)");

  public static final JobOption<List<String>> INT_FIELD =
      JobOption.of(
          "int-field",
          "none",
          "products: fields also stored as int columns, comma-separated (e.g. review_count)",
          BuildIndexDefinition::fieldList);
  public static final JobOption<Long> MAX_LINE_BYTES =
      JobOption.integer(
          "max-line-bytes",
          String.valueOf(TransformSpec.DEFAULT_MAX_LINE_BYTES),
          "products: longest accepted line in bytes",
          1,
          LineReader.MAX_LINE_BYTES);

  /** The options only {@code --kind ranges} takes. */
  private static final List<JobOption<?>> RANGE_OPTIONS =
      List.of(
          DELIMITER,
          ON_OVERLAP,
          LABEL_FIELDS,
          LABEL_FIELDS_FROM_HEADER,
          LABEL_DELIMITER,
          FIELD,
          ALLOW_MISSING);

  /** The options only {@code --kind products} takes. */
  private static final List<JobOption<?>> PRODUCT_OPTIONS = List.of(INT_FIELD, MAX_LINE_BYTES);

  public static final List<JobOption<?>> OPTIONS = options();

  private static List<JobOption<?>> options() {
    List<JobOption<?>> all =
        new ArrayList<>(
            Arrays.asList(
                KIND, LineJob.INPUT, OUTPUT, STRICT, ALLOW_EMPTY, PARTITIONS, LineJob.SPLIT_MB));
    all.addAll(RANGE_OPTIONS);
    all.addAll(PRODUCT_OPTIONS);
    return java.util.Collections.unmodifiableList(all);
  }

  /** The options only one kind takes, by kind. */
  private static final Map<String, List<JobOption<?>>> KIND_OPTIONS =
      Map.of("ips", List.of(), "ranges", RANGE_OPTIONS, "products", PRODUCT_OPTIONS);

  private BuildIndexDefinition() {}

  /** The options only {@code kind} takes. */
  public static List<JobOption<?>> kindOptions(String kind) {
    return KIND_OPTIONS.get(kind);
  }

  /** The kind the options name, after checking that no option of another kind was given. */
  public static String kind(JobArgs o) {
    String kind = o.get(KIND);
    KIND_OPTIONS.forEach(
        (k, options) -> {
          for (JobOption<?> opt : k.equals(kind) ? List.<JobOption<?>>of() : options) {
            if (!o.text(opt).equals(opt.defaultValue())) {
              throw new UsageException(NAME + ": --" + opt.name() + " is for --kind " + k);
            }
          }
        });
    return kind;
  }

  /** The IP list builder the options describe. */
  public static IpSetBuilder setBuilder(JobArgs o) {
    IpSetBuilder b = new IpSetBuilder().strict(o.get(STRICT)).allowEmpty(o.get(ALLOW_EMPTY));
    stamp(b::createdMillis);
    return b;
  }

  /** The range builder the options describe; a bad combination is a usage error. */
  public static IpRangeBuilder rangeBuilder(JobArgs o) {
    IpRangeBuilder b =
        new IpRangeBuilder()
            .strict(o.get(STRICT))
            .allowEmpty(o.get(ALLOW_EMPTY))
            .onOverlap(o.get(ON_OVERLAP));
    List<String> fields = o.get(LABEL_FIELDS);
    if (!fields.isEmpty() && o.get(LABEL_FIELDS_FROM_HEADER)) {
      throw new UsageException(
          o.job() + ": --label-fields and --label-fields-from-header exclude each other");
    }
    try {
      if (!fields.isEmpty()) {
        b.labelFields(fields, o.get(LABEL_DELIMITER));
      }
      if (!o.get(FIELD).isEmpty() || o.get(ALLOW_MISSING)) {
        b.mmdbFields(o.get(FIELD), o.get(ALLOW_MISSING));
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(o.job() + ": " + e.getMessage());
    }
    if (o.get(LABEL_FIELDS_FROM_HEADER)) {
      b.labelFieldsFromHeader();
    }
    if (o.get(DELIMITER) != 0) {
      b.delimiter(o.get(DELIMITER));
    }
    stamp(b::createdMillis);
    return b;
  }

  /** The product index builder the options describe. */
  public static ProductIndexBuilder productBuilder(JobArgs o) {
    ProductIndexBuilder b =
        new ProductIndexBuilder()
            .strict(o.get(STRICT))
            .allowEmpty(o.get(ALLOW_EMPTY))
            .extraIntFields(o.get(INT_FIELD))
            .maxLineBytes(o.get(MAX_LINE_BYTES).intValue());
    stamp(b::createdMillis);
    return b;
  }

  /** {@code detect} (0), {@code tab}, or one character the range parser can split on. */
  static Character delimiter(String v) {
    if (v.equals("detect")) {
      return 0;
    }
    char c = v.equals("tab") || v.equals("\\t") ? '\t' : v.length() == 1 ? v.charAt(0) : 0;
    if (c == 0) {
      throw new IllegalArgumentException(
          "expected one character, 'tab' or detect, got '" + v + "'");
    }
    new IpRangeBuilder().delimiter(c); // its own check: no quote, dot, slash or line end
    return c;
  }

  private static List<String> fieldList(String v) {
    return v.trim().equals("none") ? List.of() : Arrays.asList(v.split(LabelSchema.LIST_SPLIT, -1));
  }

  /** Gives {@code setter} the SOURCE_DATE_EPOCH time, when it is set. */
  private static void stamp(LongConsumer setter) {
    Long created = createdMillis();
    if (created != null) {
      setter.accept(created);
    }
  }

  /** SOURCE_DATE_EPOCH (seconds), as the CLI honours it, for reproducible files. */
  public static Long createdMillis() {
    String epoch = System.getenv("SOURCE_DATE_EPOCH");
    return epoch == null || epoch.trim().isEmpty() ? null : Long.parseLong(epoch.trim()) * 1000;
  }

  /** Fails a strict build on its first rejected line, before anything is written. */
  public static void strict(JobArgs o, long rejected, String firstReject, String expected)
      throws InputException {
    if (o.get(STRICT) && rejected > 0) {
      throw new InputException("rejected line (--strict): " + firstReject + " (" + expected + ")");
    }
  }

  /**
   * The first /16 block of each partition after the first: where the running count of {@code
   * histogram} reaches each of {@code partitions} equal shares. Fewer cuts when blocks are few.
   */
  public static int[] cuts(int[] histogram, int partitions) {
    long total = 0;
    for (int c : histogram) {
      total += c;
    }
    List<Integer> cuts = new ArrayList<>();
    long running = 0;
    int next = 1;
    for (int block = 0; block < 65536 && next < partitions; block++) {
      if (running >= total * next / partitions && running > 0 && running < total) {
        cuts.add(block);
        while (next < partitions && running >= total * next / partitions) {
          next++;
        }
      }
      running += histogram[block];
    }
    return cuts.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The summary of a written index: the build's counts, the rejects by reason, the file (a build
   * that does not reconcile writes none: {@link Assembled#reconciles}).
   */
  public static void summarize(
      Report r,
      Assembled index,
      Map<String, Long> rejectCounts,
      String output,
      IndexHeader header,
      String rejects) {
    index.counts.forEach(r::put);
    rejectCounts.forEach((k, v) -> r.put("rejected: " + k, v));
    r.put("output", output).put("index bytes", header.fileLength());
    r.put("source sha256", header.sourceDigestHex());
    if (index.counts.get("rejected") > 0) {
      r.put("rejects", rejects);
    }
  }
}
