/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.index.IndexHeader;
import io.spindex.index.IndexKind;
import io.spindex.index.IpRanges;
import io.spindex.index.Ipv4Aliases;
import io.spindex.index.LabelSchema;
import io.spindex.index.Section;
import io.spindex.index.SectionEntry;
import io.spindex.index.SourceInfo;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.Loader;
import io.spindex.text.Json;
import io.spindex.text.Tsv;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code spindex inspect}: what an index holds, from its header (and label count), and how fresh it
 * is: when it was created and when its source was built.
 */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description =
        "Show kind, version, counts, sections, sizes, checksums, source digest, and when the"
            + " index and its source were built.")
final class InspectCommand implements Callable<Integer> {
  @Parameters(paramLabel = "INDEX", description = "Index file.")
  Path file;

  @Option(names = "--json", description = "Print one JSON object.")
  boolean json;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    SpindexIndex index = Loader.mappedUnchecked().load(file);
    IndexHeader h = index.header();
    Integer labels = index instanceof IpRanges ? ((IpRanges) index).labelCount() : null;
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(json(h, labels, index instanceof IpRanges ? (IpRanges) index : null));
    } else {
      out.printf(Locale.ROOT, "file           %s%n", Tsv.escape(String.valueOf(h.file())));
      out.printf(Locale.ROOT, "kind           %s%n", h.kind().displayName());
      out.printf(Locale.ROOT, "format         %s%n", h.formatVersion());
      out.printf(Locale.ROOT, "rows           %,d%n", h.rowCount());
      if (h.kind() != IndexKind.PRODUCTS) {
        out.printf(Locale.ROOT, "ipv4 rows      %,d%n", h.rowCount() - h.ipv6Rows());
        out.printf(Locale.ROOT, "ipv6 rows      %,d%n", h.ipv6Rows());
      }
      if (labels != null) {
        out.printf(Locale.ROOT, "labels         %,d%n", labels);
      }
      if (index instanceof IpRanges) {
        ranges(out, (IpRanges) index);
      }
      out.printf(Locale.ROOT, "bytes          %,d%n", h.fileLength());
      out.printf(Locale.ROOT, "created        %s%n", Instant.ofEpochMilli(h.createdMillis()));
      out.printf(Locale.ROOT, "source built   %s%n", sourceTime(h));
      out.printf(Locale.ROOT, "source sha256  %s%n", h.sourceDigestHex());
      out.printf(Locale.ROOT, "header crc32c  %08x%n", h.headerCrc32c());
      out.printf(
          Locale.ROOT,
          "%-21s %12s %14s %14s %9s%n",
          "section",
          "offset",
          "bytes",
          "elements",
          "crc32c");
      for (SectionEntry e : h.sections()) {
        out.printf(
            Locale.ROOT,
            "%-21s %12d %,14d %,14d %08x%n",
            e.section() != null ? e.name() : e.name() + " (optional)",
            e.offset(),
            e.length(),
            e.elements(),
            e.crc32c());
      }
    }
    out.flush();
    return 0;
  }

  /** The label fields (with their types when typed), the sources' metadata and the aliases. */
  private static void ranges(PrintWriter out, IpRanges r) {
    out.printf(Locale.ROOT, "ipv4 gap rows  %,d%n", r.size() - r.rangeCount());
    if (r.ipv6Size() > 0) {
      out.printf(Locale.ROOT, "ipv6 gap rows  %,d%n", r.ipv6Size() - r.ipv6RangeCount());
    }
    LabelSchema schema = r.labelSchema();
    if (schema != null) {
      out.printf(
          Locale.ROOT,
          "label fields   %s (split on '%s')%n",
          Tsv.escape(schema.typed() ? schema.describe() : String.join(", ", schema.names())),
          Tsv.escape(schema.delimiter()));
    }
    SectionEntry values = r.header().find(Section.FIELD_VALUE_OFFSETS);
    if (values != null) {
      out.printf(
          Locale.ROOT,
          "label store    by field, %,d distinct values (labels stored as their value ids)%n",
          values.elements() - 1);
    }
    for (Map.Entry<String, String> e : sources(r)) {
      // Metadata of a database: its text escaped, so that every entry stays one line.
      out.printf(Locale.ROOT, "%-14s %s%n", Tsv.escape(e.getKey()), Tsv.escape(e.getValue()));
    }
    Ipv4Aliases a = r.ipv4Aliases();
    for (int i = 0; i < a.size(); i++) {
      out.printf(Locale.ROOT, "ipv4 alias     %s%n", a.prefixText(i));
    }
  }

  /**
   * When the index's source was built: its {@code source_time}, or a note that the file does not
   * say (an index written before Spindex recorded it).
   */
  private static String sourceTime(IndexHeader h) {
    return h.sourceMillis() < 0
        ? "not recorded"
        : Instant.ofEpochMilli(h.sourceMillis()).toString();
  }

  /** The lines of the sources a range index read (its own source time is shown apart). */
  private static List<Map.Entry<String, String>> sources(IpRanges r) {
    List<Map.Entry<String, String>> out = new ArrayList<>();
    for (Map.Entry<String, String> e : r.sourceInfo().entries()) {
      if (!e.getKey().equals(SourceInfo.SOURCE_TIME)) {
        out.add(e);
      }
    }
    return out;
  }

  static String json(IndexHeader h, Integer labels, IpRanges ranges) {
    StringBuilder sb = new StringBuilder();
    sb.append("{\"file\":").append(Json.quote(h.file().toString()));
    sb.append(",\"kind\":").append(Json.quote(h.kind().name()));
    sb.append(",\"format\":").append(Json.quote(h.formatVersion()));
    sb.append(",\"rows\":").append(h.rowCount());
    if (h.kind() != IndexKind.PRODUCTS) {
      sb.append(",\"ipv4Rows\":").append(h.rowCount() - h.ipv6Rows());
      sb.append(",\"ipv6Rows\":").append(h.ipv6Rows());
    }
    if (ranges != null) {
      // Ranges, not rows: the rows of ranges stored without their ends count the gaps too.
      sb.append(",\"ipv4Ranges\":").append(ranges.rangeCount());
      sb.append(",\"ipv6Ranges\":").append(ranges.ipv6RangeCount());
    }
    if (labels != null) {
      sb.append(",\"labels\":").append(labels);
    }
    LabelSchema schema = ranges == null ? null : ranges.labelSchema();
    if (schema != null) {
      sb.append(",\"labelFields\":[");
      for (int i = 0; i < schema.names().size(); i++) {
        sb.append(i == 0 ? "" : ",").append(Json.quote(schema.names().get(i)));
      }
      sb.append("],\"labelTypes\":[");
      for (int i = 0; i < schema.types().size(); i++) {
        sb.append(i == 0 ? "" : ",").append(Json.quote(schema.types().get(i).sqlName()));
      }
      sb.append("],\"labelDelimiter\":").append(Json.quote(schema.delimiter()));
    }
    if (labels != null) {
      SectionEntry values = h.find(Section.FIELD_VALUE_OFFSETS);
      sb.append(",\"labelStore\":").append(Json.quote(values == null ? "whole" : "fields"));
      if (values != null) {
        sb.append(",\"labelValues\":").append(values.elements() - 1);
      }
    }
    if (ranges != null && !sources(ranges).isEmpty()) {
      sb.append(",\"sources\":[");
      boolean open = false;
      for (Map.Entry<String, String> e : sources(ranges)) {
        if (!open || e.getKey().equals("source")) {
          sb.append(open ? "},{" : "{");
          open = true;
        } else {
          sb.append(',');
        }
        sb.append(Json.quote(e.getKey())).append(':').append(Json.quote(e.getValue()));
      }
      sb.append("}]");
    }
    if (ranges != null && !ranges.ipv4Aliases().isEmpty()) {
      sb.append(",\"ipv4Aliases\":[");
      for (int i = 0; i < ranges.ipv4Aliases().size(); i++) {
        sb.append(i == 0 ? "" : ",").append(Json.quote(ranges.ipv4Aliases().prefixText(i)));
      }
      sb.append(']');
    }
    sb.append(",\"bytes\":").append(h.fileLength());
    sb.append(",\"created\":")
        .append(Json.quote(Instant.ofEpochMilli(h.createdMillis()).toString()));
    sb.append(",\"sourceTime\":")
        .append(
            h.sourceMillis() < 0
                ? "null"
                : Json.quote(Instant.ofEpochMilli(h.sourceMillis()).toString()));
    sb.append(",\"sourceSha256\":").append(Json.quote(h.sourceDigestHex()));
    sb.append(",\"headerCrc32c\":").append(Json.quote(String.format("%08x", h.headerCrc32c())));
    sb.append(",\"sections\":[");
    String sep = "";
    for (SectionEntry e : h.sections()) {
      sb.append(sep).append("{\"name\":").append(Json.quote(e.name()));
      if (e.section() == null) {
        sb.append(",\"optional\":true");
      }
      sb.append(",\"offset\":").append(e.offset());
      sb.append(",\"bytes\":").append(e.length());
      sb.append(",\"elements\":").append(e.elements());
      sb.append(",\"crc32c\":").append(Json.quote(String.format("%08x", e.crc32c()))).append('}');
      sep = ",";
    }
    return sb.append("]}").toString();
  }
}
