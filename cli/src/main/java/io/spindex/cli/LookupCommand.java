/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.index.IpRanges;
import io.spindex.index.IpSet;
import io.spindex.index.LabelSchema;
import io.spindex.index.SpindexIndex;
import io.spindex.index.load.IndexLoader;
import io.spindex.index.load.Loader;
import io.spindex.text.AddressText;
import io.spindex.text.Clip;
import io.spindex.text.Ipv4Text;
import io.spindex.text.Json;
import io.spindex.text.LineReader;
import io.spindex.text.Tsv;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code spindex lookup}: prints {@code IP<TAB>result} per input line, in input order. Standard
 * input is read in blocks as bytes and answers are written through one buffer, so millions of lines
 * go at lookup speed.
 */
@Command(
    name = "lookup",
    mixinStandardHelpOptions = true,
    description = {
      "Look up IPv4 or IPv6 addresses given as arguments, or one per line on standard input.",
      "Prints IP<TAB>result: true/false for a set; for ranges the label, or \\N when no range"
          + " holds the address (a backslash, tab, LF or CR in a label as \\\\, \\t, \\n,"
          + " \\r, other control characters as \\u00XX: one line an answer). An address may be quoted (\"1.2.3.4\"), bracketed ([::1]) or"
          + " carry a port ([::1]:443, 1.2.3.4:80); an IPv4-mapped one (::ffff:1.2.3.4) is looked"
          + " up as IPv4. Blank lines and # comments are skipped, as builds skip them."
          + " Unparseable lines are reported on stderr with their line number and make the exit"
          + " status 1."
    })
final class LookupCommand implements Callable<Integer> {
  private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NULL = "\\N".getBytes(StandardCharsets.US_ASCII);
  private static final java.nio.charset.Charset UTF8 = StandardCharsets.UTF_8;
  private static final byte[] JSON_NULL = "null".getBytes(UTF8);
  private static final byte[] IP_KEY = "{\"ip\":".getBytes(UTF8);
  private static final byte[] LABEL_KEY = ",\"label\":".getBytes(UTF8);
  private static final byte[] CONTAINS_KEY = ",\"contains\":".getBytes(UTF8);

  /**
   * A label's fields as a JSON object of their typed values ({@link IpRanges#labelValues}): text
   * quoted, numbers and booleans bare, NULL as {@code null}; {@code {"label": text}} without
   * fields.
   */
  static byte[] jsonLabel(IpRanges ranges, int id) {
    LabelSchema schema = ranges.labelSchema();
    List<String> names = schema == null ? List.of("label") : schema.names();
    Object[] values = ranges.labelValues(id);
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < names.size(); i++) {
      Object v = values[i];
      sb.append(i == 0 ? "" : ",").append(Json.quote(names.get(i))).append(':');
      if (v == null) {
        sb.append("null");
      } else if (v instanceof String) {
        sb.append(Json.quote((String) v));
      } else if (v instanceof java.math.BigDecimal) {
        sb.append(((java.math.BigDecimal) v).toPlainString());
      } else {
        sb.append(v);
      }
    }
    return sb.append('}').toString().getBytes(UTF8);
  }

  @Parameters(index = "0", paramLabel = "INDEX", description = "Index file.")
  Path index;

  @Parameters(index = "1..*", paramLabel = "IP", description = "Addresses (default: stdin).")
  List<String> ips;

  @Option(
      names = "--loader",
      defaultValue = "mapped",
      description = "io, nio or mapped (default: mapped, ready at once).")
  String loader;

  @Option(
      names = "--json",
      description =
          "One JSON object a line: {\"ip\": as given, \"label\": {field: typed value or null,"
              + " ...}} (\"label\": null when no range holds the address; {\"label\": text}"
              + " for an index without label fields), or {\"ip\": ..., \"contains\": true}"
              + " for a set.")
  boolean json;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    IndexLoader l = Loader.byName(loader);
    SpindexIndex loaded = l.load(index);
    if (loaded.kind() == io.spindex.index.IndexKind.PRODUCTS) {
      throw new io.spindex.text.InputException(
          index
              + ": a product index, not an IP index (products are looked up by spindex ep diff"
              + " and the filter step of ep transform)");
    }
    Answerer a = new Answerer(loaded, spec.commandLine().getErr(), json);
    OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
    if (ips != null && !ips.isEmpty()) {
      long n = 0;
      for (String ip : ips) {
        byte[] b = ip.getBytes(StandardCharsets.UTF_8);
        a.line(b, 0, b.length, n++, out, "argument");
      }
    } else {
      try (FileInputStream in = new FileInputStream(FileDescriptor.in)) {
        new LineReader(null)
            .read(
                in.getChannel(),
                -1,
                true,
                new LineReader.Sink() {
                  @Override
                  public void line(byte[] buf, int from, int to, long idx) throws IOException {
                    a.line(buf, from, to, idx, out, "stdin");
                  }

                  @Override
                  public void tooLong(byte[] buf, int from, int to, long idx) {
                    a.error("stdin", idx, "line-too-long", buf, from, to);
                  }
                });
      }
    }
    out.flush();
    if (a.errors > 0) {
      spec.commandLine()
          .getErr()
          .printf(
              "spindex: %d of %d lines could not be looked up (%d answered)%n",
              a.errors, a.errors + a.answered, a.answered);
      spec.commandLine().getErr().flush();
      return SpindexCli.EXIT_FAILURE;
    }
    return 0;
  }

  /** Answers one line at a time; label bytes are cached per label id. */
  private static final class Answerer {
    private final SpindexIndex index;
    private final IpRanges ranges;
    private final byte[][] labels;
    private final PrintWriter err;
    private final boolean json;
    private final long[] v6 = new long[2];
    long errors;
    long answered;

    Answerer(SpindexIndex index, PrintWriter err, boolean json) {
      this.index = index;
      this.ranges = index instanceof IpRanges ? (IpRanges) index : null;
      this.labels = ranges == null ? null : new byte[ranges.labelCount()][];
      this.err = err;
      this.json = json;
    }

    /** The label as the answer shows it: its bytes, or its fields as a JSON object. */
    private byte[] label(int id) {
      byte[] label = labels[id];
      if (label == null) {
        // A label holding a tab or a line end is escaped, so that an answer stays one line.
        label = json ? jsonLabel(ranges, id) : Tsv.escape(ranges.labelBytes(id));
        labels[id] = label;
      }
      return label;
    }

    void line(byte[] b, int from, int to, long idx, OutputStream out, String source)
        throws IOException {
      int f = Ipv4Text.skipBlanks(b, from, to);
      int t = Ipv4Text.trimBlanks(b, f, to);
      if (f == t || b[f] == '#') {
        return; // blank lines and # comments are skipped, as the builds skip them
      }
      long a = AddressText.parse(b, f, t, AddressText.LOOKUP, v6);
      if (a < 0) {
        error(source, idx, AddressText.reason(a), b, from, to);
        return;
      }
      boolean ipv6 = a == AddressText.IPV6;
      if (json) {
        out.write(IP_KEY);
        out.write(Json.quote(new String(b, f, t - f, StandardCharsets.UTF_8)).getBytes(UTF8));
        out.write(ranges == null ? CONTAINS_KEY : LABEL_KEY);
      } else {
        out.write(b, f, t - f);
        out.write('\t');
      }
      if (ranges == null) {
        IpSet set = index.asSet();
        boolean hit = ipv6 ? set.contains(v6[0], v6[1]) : set.contains((int) a);
        out.write(hit ? TRUE : FALSE);
      } else {
        int id = ipv6 ? ranges.labelId(v6[0], v6[1]) : ranges.labelId((int) a);
        out.write(id == IpRanges.NONE ? (json ? JSON_NULL : NULL) : label(id));
      }
      if (json) {
        out.write('}');
      }
      out.write('\n');
      answered++;
    }

    void error(String source, long idx, String reason, byte[] b, int from, int to) {
      errors++;
      if (errors <= 100) {
        String text = new String(b, from, to - from, StandardCharsets.UTF_8); // 100 at most
        err.println(
            source + ":" + (idx + 1) + ": " + reason + ": '" + Clip.of(text.trim(), 80) + "'");
      } else if (errors == 101) {
        err.println("(further errors not shown)");
      }
      err.flush();
    }
  }
}
