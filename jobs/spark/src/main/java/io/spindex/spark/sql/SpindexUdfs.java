/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.index.IpRanges;
import io.spindex.index.IpSet;
import io.spindex.index.SpindexIndex;
import io.spindex.job.SideFile;
import io.spindex.spark.side.SparkTaskSide;
import io.spindex.spark.side.SpindexConf;
import io.spindex.text.AddressText;
import io.spindex.text.Ipv4Text;
import io.spindex.text.Ipv6Text;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.api.java.UDF2;

/**
 * The Spindex functions as plain Java UDFs, for {@code spark.udf().registerJava} (PySpark: {@code
 * spark.udf.registerJavaFunction}; the route that works over Spark Connect, where a session cannot
 * take native expressions):
 *
 * <pre>{@code
 * spark.udf().registerJava("spindex_label", "io.spindex.spark.sql.SpindexUdfs$Label",
 *     DataTypes.StringType);
 * }</pre>
 *
 * Same answers as the native functions, for STRING addresses; the index argument is a path or a
 * name shipped with {@code --files} (a UDF cannot read the session's configuration on an executor),
 * opened the jobs' way ({@link SparkTaskSide}: once per JVM through the holder) with the loader
 * {@code spark.spindex.loader} named when the UDF was registered (default {@code mapped}; a bad
 * value fails the registration). Slower than the native functions: Spark converts every value to a
 * Java {@code String} and back.
 */
public final class SpindexUdfs {
  private SpindexUdfs() {}

  /** {@code (ip STRING, index STRING) -> STRING}: the label, or NULL. */
  public static final class Label extends Opened implements UDF2<String, String, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String call(String ip, String index) {
      if (ip == null || index == null) {
        return null;
      }
      IpRanges r = ranges(open(index), index);
      long[] v6 = new long[2];
      long a = parse(ip, v6);
      if (a < 0) {
        return null;
      }
      int id = a == IPV6 ? r.labelId(v6[0], v6[1]) : r.labelId((int) a);
      return id == IpRanges.NONE ? null : r.labelText(id);
    }
  }

  /**
   * {@code (ip STRING, index STRING) -> BOOLEAN}: whether the set holds it, NULL if unparseable.
   */
  public static final class Contains extends Opened implements UDF2<String, String, Boolean> {
    private static final long serialVersionUID = 1L;

    @Override
    public Boolean call(String ip, String index) {
      if (ip == null || index == null) {
        return null;
      }
      IpSet s = set(open(index), index);
      long[] v6 = new long[2];
      long a = parse(ip, v6);
      if (a < 0) {
        return null;
      }
      return a == IPV6 ? s.contains(v6[0], v6[1]) : s.contains((int) a);
    }
  }

  /** {@code (ip STRING) -> STRING}: the canonical text, or NULL. */
  public static final class Ip implements UDF1<String, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String call(String ip) {
      if (ip == null) {
        return null;
      }
      long[] v6 = new long[2];
      long a = parse(ip, v6);
      if (a < 0) {
        return null;
      }
      return a == IPV6 ? Ipv6Text.format(v6[0], v6[1]) : Ipv4Text.format((int) a);
    }
  }

  private static final long IPV6 = AddressText.IPV6;

  private static long parse(String ip, long[] v6) {
    byte[] b = ip.getBytes(StandardCharsets.UTF_8);
    return AddressText.parse(b, 0, b.length, AddressText.LOOKUP, v6);
  }

  /**
   * The index a UDF instance last opened. Spark deserializes a UDF for each task, so an instance
   * serves one task on one thread: it acquires its index once (not per row: that would stat the
   * file for every value) and a file replaced on disk is seen by the next task.
   */
  abstract static class Opened implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Read where the UDF is made (the driver, at registration), checked there. */
    private final String loader = registeringLoader(getClass());

    /** {@link SpindexConf#NAMES_ONLY} of the launch configuration where the UDF is made. */
    private final boolean namesOnly = "true".equalsIgnoreCase(launchConf(SpindexConf.NAMES_ONLY));

    private transient String openedName;
    private transient SpindexIndex opened;

    /** The UDF as its errors name it: {@code SpindexUdfs.Label}, ... */
    final String name() {
      return udfName(getClass());
    }

    final SpindexIndex open(String index) {
      if (!index.equals(openedName)) {
        if (namesOnly && !shippedName(index)) {
          throw SparkErrors.illegalArgument(
              SparkErrors.INDEX_PATH_REFUSED,
              SparkErrors.params("function", name(), "index", index));
        }
        opened = acquire(name(), index, loader, namesOnly);
        openedName = index;
      }
      return opened;
    }

    /** The index as ranges, or the error that it is another kind. */
    final IpRanges ranges(SpindexIndex i, String index) {
      if (i instanceof IpRanges) {
        return (IpRanges) i;
      }
      throw wrongKind(i, index, "a range index");
    }

    /** The index as a set, or the error that it is another kind. */
    final IpSet set(SpindexIndex i, String index) {
      if (i instanceof IpSet) {
        return (IpSet) i;
      }
      throw wrongKind(i, index, "a set index");
    }

    private RuntimeException wrongKind(SpindexIndex i, String index, String needed) {
      return SparkErrors.runtime(
          SparkErrors.WRONG_INDEX_KIND,
          SparkErrors.params(
              "function", name(), "needed", needed, "path", index, "kind", i.kind().description()),
          null);
    }
  }

  private static String udfName(Class<?> udf) {
    return "SpindexUdfs." + udf.getSimpleName();
  }

  /**
   * The loader of the session that registers a UDF, checked, after its settings: an unknown {@code
   * spark.spindex.} key ({@link SpindexConf#unknown}) fails the registration with {@code
   * SPINDEX_UNKNOWN_SETTING}, a bad {@code spark.spindex.loader} with {@code
   * SPINDEX_INVALID_LOADER}.
   */
  private static String registeringLoader(Class<?> udf) {
    SparkErrors.register();
    String unknown;
    try {
      unknown = SpindexConf.unknown(SparkSession.active());
    } catch (IllegalStateException noSession) {
      SparkEnv env = SparkEnv.get();
      java.util.List<String> keys = new java.util.ArrayList<>();
      if (env != null) {
        for (scala.Tuple2<String, String> kv : env.conf().getAll()) {
          keys.add(kv._1());
        }
      }
      unknown = SpindexConf.unknown(keys);
    }
    if (unknown != null) {
      throw SparkErrors.illegalArgument(
          SparkErrors.UNKNOWN_SETTING,
          SparkErrors.params("function", udfName(udf), "reason", unknown));
    }
    try {
      return SpindexConf.sqlLoader(registeringConf(SpindexConf.LOADER));
    } catch (IllegalArgumentException e) {
      String reason = String.valueOf(e.getMessage());
      if (reason.startsWith(SpindexConf.LOADER + ": ")) {
        reason = reason.substring(SpindexConf.LOADER.length() + 2);
      }
      throw SparkErrors.illegalArgument(
          SparkErrors.INVALID_LOADER,
          SparkErrors.params("function", udfName(udf), "reason", reason));
    }
  }

  /** {@code key} of the active session (else of the JVM's Spark conf), or null. */
  private static String registeringConf(String key) {
    try {
      return SparkSession.active().conf().get(key, null);
    } catch (IllegalStateException noSession) {
      return launchConf(key);
    }
  }

  /** {@code key} of the JVM's launch configuration, or null. */
  private static String launchConf(String key) {
    SparkEnv env = SparkEnv.get();
    return env == null ? null : env.conf().get(key, null);
  }

  /** A bare file name, as {@code --files} ships an index: no directory, no path. */
  static boolean shippedName(String index) {
    return !index.isEmpty()
        && index.indexOf('/') < 0
        && index.indexOf('\\') < 0
        && !index.equals(".")
        && !index.equals("..");
  }

  /**
   * The index at a path, or shipped under this name with {@code --files} (only that under {@code
   * namesOnly}): a {@link SideFile} the executor opens as the jobs' tasks do, once per JVM. A name
   * that was not shipped is {@code SPINDEX_INDEX_NOT_SHIPPED} naming it (not the place on the
   * executor where a shipped file would have been); a path that is no file, {@code
   * SPINDEX_INDEX_FILE_NOT_FOUND}.
   */
  private static SpindexIndex acquire(
      String function, String index, String loader, boolean namesOnly) {
    boolean local = !namesOnly && (Files.isRegularFile(Paths.get(index)) || !shippedName(index));
    String shippedAt = null;
    try {
      if (local) {
        return SparkTaskSide.forSql()
            .index(new SideFile(index, SideFile.Ship.LOCAL, index, -1, -1), loader);
      }
      shippedAt = SparkTaskSide.shipped(index).toString();
      return SparkTaskSide.forSql()
          .index(new SideFile(index, SideFile.Ship.FILES, index, -1, -1), loader);
    } catch (IOException e) {
      if (!local && SparkErrors.indexCondition(e).equals(SparkErrors.INDEX_FILE_NOT_FOUND)) {
        throw SparkErrors.runtime(
            SparkErrors.INDEX_NOT_SHIPPED,
            SparkErrors.params("function", function, "name", index),
            null);
      }
      throw SparkErrors.indexRuntime(function, index, e, shippedAt);
    }
  }
}
