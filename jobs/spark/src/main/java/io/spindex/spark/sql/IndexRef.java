/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.annotations.Internal;
import io.spindex.index.IndexHeader;
import io.spindex.index.IndexKind;
import io.spindex.index.IpRanges;
import io.spindex.index.IpSet;
import io.spindex.index.LabelSchema;
import io.spindex.index.SpindexIndex;
import io.spindex.job.Freshness;
import io.spindex.job.SideFile;
import io.spindex.job.StaleIndexException;
import io.spindex.spark.side.SparkSides;
import io.spindex.spark.side.SparkTaskSide;
import io.spindex.spark.side.SpindexConf;
import io.spindex.text.AddressText;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The index a SQL function reads, resolved and checked on the driver when the query is analysed,
 * and the lookups the generated code calls. Serializable: it travels with the plan; each task
 * acquires the index from the per-JVM holder on its first row (so an index replaced by rename is
 * seen by the next query's tasks) and keeps it for the rest of the task. Addresses are parsed from
 * the string's bytes; a label is handed out as a view of the bytes made once per JVM ({@link
 * LabelArena}).
 */
@Internal
public final class IndexRef implements AddressTarget {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(IndexRef.class);

  private final String given;
  private final SideFile file;

  /** The loader, as {@link SpindexConf#LOADER} names it. */
  private final String loader;

  private final IndexKind kind;
  private final Unparseable unparseable;

  /** The label's fields (ranges; {@code null} when the build declared none). */
  private final LabelSchema schema;

  /** The fields of the STRUCT {@code spindex_lookup} returns. */
  private final int fields;

  /**
   * The version this reference reads, as {@code spindex_version} gives it: header checksum, source
   * SHA-256, built and source time (ms, -1 when the file does not say), from the driver's check.
   */
  private final String versionCrc;

  private final String versionSha256;
  private final long versionBuilt;
  private final long versionSource;

  private transient InternalRow versionRow;

  private transient SpindexIndex index;
  private transient LabelArena rows;
  private transient LabelArena labels;
  private transient long[] v6;

  /**
   * Each range index's labels as Spark values, as text ({@link #labels}) and as rows ({@link
   * #rows}), made once per JVM and label: every task has its own copy of this reference (it travels
   * with the plan), while the index is loaded once per JVM. The threads of every task share them;
   * each form's arena is made when a function first asks for it. Weak keys: a replaced index's
   * labels go with it.
   */
  private static final Map<IpRanges, LabelArena[]> SPARK_LABELS = new WeakHashMap<>();

  /** The arena of {@code form} (0 text, 1 rows) of a range index's labels, made on first use. */
  private static LabelArena arena(IpRanges index, int form) {
    synchronized (SPARK_LABELS) {
      LabelArena[] forms = SPARK_LABELS.computeIfAbsent(index, k -> new LabelArena[2]);
      if (forms[form] == null) {
        forms[form] = new LabelArena(index.labelCount());
      }
      return forms[form];
    }
  }

  private IndexRef(
      String given,
      SideFile file,
      IndexHeader header,
      String loader,
      Unparseable unparseable,
      LabelSchema schema) {
    this.given = given;
    this.file = file;
    this.loader = loader;
    this.kind = header.kind();
    this.unparseable = unparseable;
    this.schema = schema;
    this.fields = schema == null ? 1 : schema.names().size();
    this.versionCrc = String.format(Locale.ROOT, "%08x", header.headerCrc32c());
    this.versionSha256 = header.sourceDigestHex();
    this.versionBuilt = header.createdMillis();
    this.versionSource = header.sourceMillis();
  }

  /** The STRUCT {@code spindex_version} returns. */
  static final StructType VERSION_TYPE =
      new StructType()
          .add("header_crc", DataTypes.StringType, false)
          .add("source_sha256", DataTypes.StringType, false)
          .add("built", DataTypes.TimestampType, false)
          .add("source_time", DataTypes.TimestampType, true);

  /**
   * {@code spindex_version(index)}: the version this reference reads, as a row of {@link
   * #VERSION_TYPE} (the argument, the index's name, is the expression's constant child). Every row
   * of a query, or of a micro-batch, gets the same one: the version it answers from.
   */
  public InternalRow version(UTF8String name) {
    InternalRow r = versionRow;
    if (r == null) {
      r =
          new GenericInternalRow(
              new Object[] {
                UTF8String.fromString(versionCrc),
                UTF8String.fromString(versionSha256),
                versionBuilt * 1000,
                versionSource < 0 ? null : versionSource * 1000
              });
      versionRow = r;
    }
    return r;
  }

  /**
   * The STRUCT {@code spindex_lookup} returns: a field of each label field's type ({@code label
   * STRING} alone when the index declares no fields).
   */
  StructType lookupType() {
    StructType t = new StructType();
    if (schema == null) {
      return t.add("label", DataTypes.StringType, true);
    }
    for (int i = 0; i < schema.names().size(); i++) {
      t = t.add(schema.names().get(i), sqlType(schema.types().get(i)), true);
    }
    return t;
  }

  private static DataType sqlType(LabelSchema.FieldType t) {
    switch (t) {
      case BIGINT:
        return DataTypes.LongType;
      case DOUBLE:
        return DataTypes.DoubleType;
      case BOOLEAN:
        return DataTypes.BooleanType;
      case DECIMAL_20:
        return DataTypes.createDecimalType(20, 0);
      default:
        return DataTypes.StringType;
    }
  }

  /**
   * Resolves {@code name} (a name configured as {@code spark.spindex.index.NAME}, or a path) and
   * checks the file on the driver: it exists, is an index (whole file read: header and every
   * section checksum) and is of the kind the function needs. The side file is shipped and opened
   * the way the jobs do it ({@link SparkSides}, {@link SparkTaskSide}), with {@code loader}.
   *
   * <p>A file older than {@code spark.spindex.max-age} is refused, and one older than {@code
   * spark.spindex.warn-age} logged once a resolution ({@link Freshness}, the keys of the jobs'
   * options of the same names).
   *
   * @param need the kind the function reads, or null for any
   * @param strict whether an unparseable address is an error (ANSI mode) rather than NULL
   * @param column the input column as SQL text, for that error
   * @param loader the loader (a job's {@code --loader}), or null for the one {@code
   *     spark.spindex.loader} names (default {@code mapped})
   * @throws org.apache.spark.sql.AnalysisException (thrown unchecked) one of Spindex's error
   *     conditions ({@link SparkErrors}), naming the function and the file
   */
  static IndexRef resolve(
      SparkSession spark,
      String name,
      String function,
      IndexKind need,
      boolean strict,
      String column,
      String loader) {
    if (name == null || name.trim().isEmpty()) {
      throw SparkErrors.analysis(
          SparkErrors.INDEX_NAME_EMPTY, SparkErrors.params("function", function), null);
    }
    org.apache.spark.SparkConf launch = spark.sparkContext().getConf();
    String path =
        SpindexConf.sqlIndexPath(k -> launch.get(k, null), k -> spark.conf().get(k, null), name);
    if (path == null) {
      throw SparkErrors.analysis(
          SparkErrors.INDEX_NOT_CONFIGURED,
          SparkErrors.params("function", function, "name", name),
          null);
    }
    String configured = path.equals(name) ? null : path;
    try {
      loader =
          SpindexConf.sqlLoader(
              loader != null ? loader : spark.conf().get(SpindexConf.LOADER, null));
    } catch (IllegalArgumentException e) {
      String reason = String.valueOf(e.getMessage());
      if (reason.startsWith(SpindexConf.LOADER + ": ")) {
        reason = reason.substring(SpindexConf.LOADER.length() + 2);
      }
      throw SparkErrors.analysis(
          SparkErrors.INVALID_LOADER,
          SparkErrors.params("function", function, "reason", reason),
          e);
    }
    java.time.Duration maxAge = age(spark, function, Freshness.MAX_AGE.name());
    java.time.Duration warnAge = age(spark, function, Freshness.WARN_AGE.name());
    try {
      SparkSides.Resolved r = SparkSides.resolve(spark, path);
      IndexHeader h = r.header;
      if (need != null && h.kind() != need) {
        throw SparkErrors.analysis(
            SparkErrors.WRONG_INDEX_KIND,
            SparkErrors.params(
                "function",
                function,
                "needed",
                need == IndexKind.IPV4_SET ? "a set index" : "a range index",
                "path",
                path,
                "kind",
                h.kind().description()),
            null);
      }
      String warning = Freshness.check(path, h, maxAge, warnAge, System.currentTimeMillis());
      if (warning != null) {
        LOG.warn(function + ": " + warning);
      }
      LongAccumulator acc =
          spark.sparkContext().longAccumulator("spindex.unparseable(" + function + ")");
      LabelSchema schema = null;
      if (h.kind() == IndexKind.IPV4_RANGES) {
        schema = SparkTaskSide.forSql().index(r.file, loader).asRanges().labelSchema();
      }
      return new IndexRef(
          path, r.file, h, loader, new Unparseable(acc, strict, function, column), schema);
    } catch (StaleIndexException e) {
      String reason = String.valueOf(e.getMessage());
      if (reason.startsWith(path + ": ")) { // Freshness names the file first
        reason = reason.substring(path.length() + 2);
      }
      throw SparkErrors.analysis(
          SparkErrors.INDEX_TOO_OLD,
          SparkErrors.params("function", function, "path", path, "reason", reason),
          e);
    } catch (IOException e) {
      boolean missing = SparkErrors.indexCondition(e).equals(SparkErrors.INDEX_FILE_NOT_FOUND);
      if (missing && configured == null && !name.contains("/") && !name.contains(".")) {
        // A bare word: most likely a name that was never configured, not a path.
        throw SparkErrors.analysis(
            SparkErrors.INDEX_NOT_FOUND, SparkErrors.params("function", function, "name", name), e);
      }
      throw SparkErrors.indexAnalysis(function, path, e);
    } catch (IllegalArgumentException e) {
      // A path that is no URI or Hadoop path (SparkSides reads it as one).
      throw SparkErrors.analysis(
          SparkErrors.INDEX_READ_FAILED,
          SparkErrors.params(
              "function", function, "path", path, "reason", String.valueOf(e.getMessage())),
          e);
    }
  }

  /**
   * The age limit a job option of that name sets for the SQL functions: its Spark key ({@link
   * SpindexConf#PREFIX} and its name) in the session's configuration; {@link
   * java.time.Duration#ZERO} for none; a value that is no age is {@code SPINDEX_INVALID_SETTING}.
   */
  private static java.time.Duration age(SparkSession spark, String function, String option) {
    String key = SpindexConf.PREFIX + option;
    String v = spark.conf().get(key, null);
    try {
      return v == null ? java.time.Duration.ZERO : Freshness.parse(v);
    } catch (IllegalArgumentException e) {
      throw SparkErrors.analysis(
          SparkErrors.INVALID_SETTING,
          SparkErrors.params("function", function, "key", key, "reason", e.getMessage()),
          e);
    }
  }

  /** The header checksum of the version this reference reads. */
  int headerCrc() {
    return (int) file.headerCrc();
  }

  /**
   * This reference at the version of its index that {@code chosen} holds for its path, choosing it
   * first when it holds none: this reference's own while the file is still that version (one header
   * read), else the file's new version, checked as at analysis. A new version whose kind or label
   * fields differ cannot answer for this query (its plan has the old types): the query stays on its
   * version, and {@code warn} says so once per version.
   *
   * @param chosen the versions chosen for this micro-batch, by path: every function of a batch over
   *     one index answers from one version
   */
  IndexRef current(
      SparkSession spark,
      Map<String, SparkSides.Resolved> chosen,
      java.util.function.Consumer<String> warn) {
    SparkSides.Resolved v =
        chosen.computeIfAbsent(
            given,
            k -> {
              try {
                if (SparkSides.headerCrc(spark, given) == headerCrc()) {
                  return null;
                }
                return SparkSides.resolve(spark, given);
              } catch (IOException e) {
                warn.accept(given + ": " + e.getMessage() + "; answering from the version before");
                return null;
              }
            });
    if (v == null || v.file.headerCrc() == file.headerCrc()) {
      return this;
    }
    LabelSchema s = null;
    try {
      if (v.header.kind() == IndexKind.IPV4_RANGES) {
        s = SparkTaskSide.forSql().index(v.file, loader).asRanges().labelSchema();
      }
    } catch (IOException e) {
      warn.accept(given + ": " + e.getMessage() + "; answering from the version before");
      return this;
    }
    if (v.header.kind() != kind || !java.util.Objects.equals(s, schema)) {
      warn.accept(
          String.format(
              Locale.ROOT,
              "%s: the new version (header checksum %08x) has another kind or other label fields;"
                  + " this query answers from version %08x until it is restarted",
              given,
              v.header.headerCrc32c(),
              headerCrc()));
      return this;
    }
    return new IndexRef(given, v.file, v.header, loader, unparseable, schema);
  }

  /** The NULL and unparseable addresses this function has met so far ({@link Unparseable}). */
  long unparseableCount() {
    return unparseable.count();
  }

  /** The path or name as the query gave it (after the configured name was looked up). */
  public String given() {
    return given;
  }

  private SpindexIndex index() {
    SpindexIndex i = index;
    if (i == null) {
      try {
        i = SparkTaskSide.forSql().index(file, loader);
      } catch (IOException e) {
        // The file changed or went away since the query was analysed (or never reached this
        // executor): the error names the index as the query did.
        throw SparkErrors.indexRuntime(
            unparseable.function(), given, e, file.location(), shippedAt(file));
      }
      index = i;
      v6 = new long[2];
    }
    return i;
  }

  /** Where a file shipped with {@code --files} is on this executor, or null. */
  private static String shippedAt(SideFile f) {
    try {
      return f.ship() == SideFile.Ship.FILES
          ? SparkTaskSide.shipped(f.location()).toString()
          : null;
    } catch (RuntimeException noSparkEnv) {
      return null;
    }
  }

  /** Parsed address of the current row: IPv4 in [0, 2^32), this with {@code v6} set, or -1. */
  private static final long IPV6 = AddressText.IPV6;

  private long parse(UTF8String s) {
    long a = parseText(s);
    return a >= 0 ? a : miss(s);
  }

  /** {@link #parse(UTF8String)} without counting a miss: the address, or negative. */
  private long parseText(UTF8String s) {
    index();
    // The text where it lies when that is a heap array (Parquet's and the row formats' strings
    // are slices of one); a copy only for off-heap text.
    byte[] b;
    int from;
    Object base = s.getBaseObject();
    if (base instanceof byte[]) {
      b = (byte[]) base;
      from = (int) (s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET);
    } else {
      b = s.getBytes();
      from = 0;
    }
    return AddressText.parse(b, from, from + s.numBytes(), AddressText.LOOKUP, v6);
  }

  private long parse(byte[] b) {
    long a = parseBytes(b);
    return a >= 0 ? a : miss(b);
  }

  /** {@link #parse(byte[])} without counting a miss: the address, or -1. */
  private long parseBytes(byte[] b) {
    index();
    if (b.length == 4) {
      return ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
    }
    if (b.length == 16) {
      long hi = 0;
      long lo = 0;
      for (int i = 0; i < 8; i++) {
        hi = (hi << 8) | (b[i] & 0xFF);
        lo = (lo << 8) | (b[i + 8] & 0xFF);
      }
      v6[0] = hi;
      v6[1] = lo;
      return IPV6;
    }
    return -1;
  }

  private long parseValue(long value) {
    index();
    return value >= 0 && value <= 0xFFFF_FFFFL ? value : miss(value);
  }

  private long miss(Object value) {
    unparseable.miss(value);
    return -1;
  }

  /** A NULL address: the answer is NULL, and it is counted with the unparseable ones. */
  @Override
  public void nullInput() {
    unparseable.nullInput();
  }

  /** The kinds of address column {@link #slots} reads. */
  static final int TEXT = 0;

  static final int INT = 1;
  static final int LONG = 2;
  static final int BYTES = 3;

  /** The kind of address column of SQL type {@code t}, as {@link #slots} takes it. */
  static int columnKind(DataType t) {
    // instanceof, not equals: under Spark 4 a collated STRING is another StringType instance.
    return t instanceof StringType
        ? TEXT
        : t instanceof IntegerType ? INT : t instanceof LongType ? LONG : BYTES;
  }

  /** Whether this is a range index (labels), rather than a set. */
  boolean ranges() {
    return kind == IndexKind.IPV4_RANGES;
  }

  /** {@link #slots}' answer of {@code spindex_contains} for an address in the set, and not. */
  static final int IN_SET = 2;

  static final int NOT_IN_SET = 1;

  /**
   * {@code spindex_label} ({@code asRows} false) or {@code spindex_lookup} of the first {@code n}
   * rows of a column of addresses, as {@code b.slots}: each row's slot in the arena of that form
   * ({@link LabelArena}); for a set index, {@code spindex_contains}: {@link #IN_SET} or {@link
   * #NOT_IN_SET}; 0 where the answer is NULL, -1 where the row's address does not parse and the
   * function must raise its error (ANSI mode) when the row is read ({@link #raise}), so that a row
   * no operator reads raises nothing, as with the expression. NULL and unparseable addresses are
   * counted as the expression counts them, one accumulator update a batch.
   *
   * <p>Where the expression's lookups run one after another, each waiting on its own cache misses,
   * these run together: the range searches in lock step ({@link IpRanges#labelIds}), then the arena
   * slots of every found label, then every cache line of every label's bytes, which the next
   * operators read. Each round's reads are independent of each other, so their misses overlap.
   */
  void slots(ColumnVector ips, int columnKind, int n, boolean asRows, LookupBatch b) {
    SpindexIndex index = index();
    b.reserve(n);
    int[] out = b.slots;
    boolean strict = unparseable.strict();
    int n4 = 0;
    int n6 = 0;
    int missed = 0;
    for (int i = 0; i < n; i++) {
      out[i] = 0;
      if (ips.isNullAt(i)) {
        missed++;
        continue;
      }
      long a;
      switch (columnKind) {
        case TEXT:
          a = parseText(ips.getUTF8String(i));
          break;
        case INT:
          a = Integer.toUnsignedLong(ips.getInt(i));
          break;
        case LONG:
          long v = ips.getLong(i);
          a = v >= 0 && v <= 0xFFFF_FFFFL ? v : -1;
          break;
        default:
          a = parseBytes(ips.getBinary(i));
      }
      if (a < 0) {
        if (strict) {
          out[i] = -1;
        } else {
          missed++;
        }
      } else if (a == IPV6) {
        b.hi[n6] = v6[0];
        b.lo[n6] = v6[1];
        b.at6[n6++] = i;
      } else {
        b.v4[n4] = (int) a;
        b.at4[n4++] = i;
      }
    }
    unparseable.counted(missed);
    if (!ranges()) {
      member((IpSet) index, ips, n, n4, n6, b);
      return;
    }
    IpRanges r = (IpRanges) index;
    LabelArena arena = arenaOf(r, asRows);
    if (n4 > 0) {
      r.labelIds(b.v4, n4, b.ids);
      place(r, arena, asRows, b.ids, b.at4, n4, out);
    }
    if (n6 > 0) {
      r.labelIds(b.hi, b.lo, n6, b.ids);
      place(r, arena, asRows, b.ids, b.at6, n6, out);
    }
    byte[][] chunks = arena.chunks();
    long touched = 0;
    int nulls = 0;
    for (int i = 0; i < n; i++) {
      int s = out[i];
      if (s > 0) {
        byte[] c = chunks[LabelArena.chunk(s)];
        long at = LabelArena.address(s);
        // Every cache line of the label's bytes: the first holds its length.
        long end = at + Platform.getInt(c, at - 4);
        for (long p = at + 60; p < end; p += 64) {
          touched += Platform.getByte(c, p);
        }
        touched += Platform.getByte(c, end - 1);
      } else {
        nulls++;
      }
    }
    b.filled(n, nulls, chunks, ips, touched);
  }

  /**
   * {@code spindex_contains} of the parsed addresses of {@link #slots} ({@code n4} IPv4, {@code n6}
   * IPv6), searched together ({@link IpSet#containsAll}): {@link #IN_SET} or {@link #NOT_IN_SET}.
   */
  private static void member(IpSet set, ColumnVector ips, int n, int n4, int n6, LookupBatch b) {
    int[] out = b.slots;
    set.containsAll(b.v4, n4, b.in);
    for (int j = 0; j < n4; j++) {
      out[b.at4[j]] = b.in[j] ? IN_SET : NOT_IN_SET;
    }
    set.containsAll(b.hi, b.lo, n6, b.in);
    for (int j = 0; j < n6; j++) {
      out[b.at6[j]] = b.in[j] ? IN_SET : NOT_IN_SET;
    }
    int nulls = 0;
    for (int i = 0; i < n; i++) {
      nulls += out[i] > 0 ? 0 : 1;
    }
    b.filled(n, nulls, null, ips, 0);
  }

  /** Each found label's slot in {@code out} at {@code at[j]}, its bytes made where missing. */
  private void place(
      IpRanges r, LabelArena arena, boolean asRows, int[] ids, int[] at, int count, int[] out) {
    for (int j = 0; j < count; j++) {
      int id = ids[j];
      out[at[j]] = id == IpRanges.NONE ? 0 : arena.slot(id);
    }
    for (int j = 0; j < count; j++) {
      int id = ids[j];
      if (id != IpRanges.NONE && out[at[j]] == 0) {
        out[at[j]] = arena.add(id, asRows ? rowBytes(r.labelValues(id)) : r.labelBytes(id));
      }
    }
  }

  /**
   * Raises the error of row {@code row} of {@code ips}, whose address did not parse ({@link #slots}
   * marked it -1).
   */
  void raise(ColumnVector ips, int columnKind, int row) {
    Object v;
    switch (columnKind) {
      case TEXT:
        v = ips.getUTF8String(row);
        break;
      case LONG:
        v = ips.getLong(row);
        break;
      default:
        v = ips.getBinary(row);
    }
    unparseable.miss(v);
    throw new IllegalStateException("spindex: row " + row + " is not an unparseable address");
  }

  /** The arena of this index's labels as text or as rows (made on first use). */
  private LabelArena arenaOf(IpRanges r, boolean asRows) {
    LabelArena arena = asRows ? rows : labels;
    if (arena == null) {
      arena = arena(r, asRows ? 1 : 0);
      if (asRows) {
        rows = arena;
      } else {
        labels = arena;
      }
    }
    return arena;
  }

  /** The label id of a parsed address, or {@link IpRanges#NONE}. */
  private int idOf(long a) {
    if (a < 0) {
      return IpRanges.NONE;
    }
    IpRanges r = (IpRanges) index;
    return a == IPV6 ? r.labelId(v6[0], v6[1]) : r.labelId((int) a);
  }

  private UTF8String labelOf(long a) {
    int id = idOf(a);
    if (id == IpRanges.NONE) {
      return null;
    }
    IpRanges r = (IpRanges) index;
    LabelArena arena = arenaOf(r, false);
    int s = arena.slot(id);
    if (s == 0) {
      s = arena.add(id, r.labelBytes(id));
    }
    return arena.text(s);
  }

  /** {@code spindex_label} of address text; {@code null} when unparseable or in no range. */
  public UTF8String label(UTF8String ip) {
    return labelOf(parse(ip));
  }

  /** {@code spindex_label} of an unsigned IPv4 value (INT is taken as its 32 bits). */
  public UTF8String label(int ip) {
    return labelOf(parseValue(Integer.toUnsignedLong(ip)));
  }

  public UTF8String label(long ip) {
    return labelOf(parseValue(ip));
  }

  /** {@code spindex_label} of 4 (IPv4) or 16 (IPv6) address bytes in network order. */
  public UTF8String label(byte[] ip) {
    return labelOf(parse(ip));
  }

  /** The label of an address as a row of its fields (or of the one field {@code label}). */
  private InternalRow rowOf(long a) {
    int id = idOf(a);
    if (id == IpRanges.NONE) {
      return null;
    }
    IpRanges r = (IpRanges) index;
    LabelArena arena = arenaOf(r, true);
    int s = arena.slot(id);
    if (s == 0) {
      s = arena.add(id, rowBytes(r.labelValues(id)));
    }
    return arena.row(s, fields);
  }

  /**
   * A label's typed values ({@link IpRanges#labelValues}) as the bytes of one {@link UnsafeRow}:
   * the fields and their text together, which the query's next operators read (a hash, a
   * projection) with a cache miss or two, where a row of objects costs one for each value. Each
   * label's row is made once; the writer is its own, so threads sharing this reference never share
   * one.
   */
  private static byte[] rowBytes(Object[] values) {
    UnsafeRowWriter w = new UnsafeRowWriter(values.length, 64);
    w.reset();
    w.zeroOutNullBytes();
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      if (v == null) {
        w.setNullAt(i);
      } else if (v instanceof String) {
        w.write(i, UTF8String.fromString((String) v));
      } else if (v instanceof Long) {
        w.write(i, (long) (Long) v);
      } else if (v instanceof Double) {
        w.write(i, (double) (Double) v);
      } else if (v instanceof Boolean) {
        w.write(i, (boolean) (Boolean) v);
      } else {
        w.write(i, Decimal.apply((BigDecimal) v, 20, 0), 20, 0);
      }
    }
    return w.getRow().getBytes();
  }

  public InternalRow lookup(UTF8String ip) {
    return rowOf(parse(ip));
  }

  public InternalRow lookup(int ip) {
    return rowOf(parseValue(Integer.toUnsignedLong(ip)));
  }

  public InternalRow lookup(long ip) {
    return rowOf(parseValue(ip));
  }

  public InternalRow lookup(byte[] ip) {
    return rowOf(parse(ip));
  }

  // contains: 1 in the set, 0 not, -1 unparseable (NULL).
  private int containsOf(long a) {
    if (a < 0) {
      return -1;
    }
    IpSet s = (IpSet) index;
    return (a == IPV6 ? s.contains(v6[0], v6[1]) : s.contains((int) a)) ? 1 : 0;
  }

  public int contains(UTF8String ip) {
    return containsOf(parse(ip));
  }

  public int contains(int ip) {
    return containsOf(parseValue(Integer.toUnsignedLong(ip)));
  }

  public int contains(long ip) {
    return containsOf(parseValue(ip));
  }

  public int contains(byte[] ip) {
    return containsOf(parse(ip));
  }

  @Override
  public String toString() {
    // The version too: plans over two versions of an index are not equal (a micro-batch's plan
    // moved to a new version is a new plan; a cached plan of the old version is not reused).
    return String.format(
        Locale.ROOT,
        "%s (%s, version %08x)",
        given,
        kind.toString().toLowerCase(Locale.ROOT),
        file.headerCrc());
  }
}
