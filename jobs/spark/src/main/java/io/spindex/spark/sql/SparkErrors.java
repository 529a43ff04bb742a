/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.sql;

import io.spindex.index.CorruptIndexException;
import io.spindex.text.Clip;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URL;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.ErrorClassesJsonReader;
import org.apache.spark.ErrorInfo;
import org.apache.spark.QueryContext;
import org.apache.spark.SparkIllegalArgumentException;
import org.apache.spark.SparkRuntimeException;
import org.apache.spark.SparkThrowable;
import org.apache.spark.SparkThrowableHelper;
import org.apache.spark.SparkThrowableHelper$;
import org.apache.spark.sql.AnalysisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.Tuple2;

/**
 * Spindex's errors as Spark's own: each is an error condition with a SQLSTATE and a message
 * template in {@code error-conditions.json} beside this class (Spark's format, read by Spark's
 * reader), registered in this JVM's {@code SparkThrowableHelper} next to Spark's conditions, and
 * thrown as Spark's exception types: {@link AnalysisException} when a query is analysed, {@link
 * SparkRuntimeException} in a task, {@link SparkIllegalArgumentException} for an argument a Java
 * UDF refuses. So {@code getCondition()}, {@code getSqlState()} and {@code SparkThrowableHelper
 * .getMessage} answer for them as for Spark's, and PySpark (classic and Connect) raises its typed
 * exceptions ({@code pyspark.errors.AnalysisException}, ...) for them.
 *
 * <p>Registering: Spark reads its conditions from one resource of its own class loader ({@code
 * error/error-classes.json} in 3.5, {@code error/error-conditions.json} in 4.x) and offers no way
 * to add others, so the registration puts Spindex's entries into the map of the reader Spark
 * already holds ({@code ErrorClassesJsonReader.errorInfoMap}: same field and type from Spark 3.5 to
 * 4.3). It happens once per JVM, when the first function, UDF or error of this jar is made (on the
 * driver and on each executor that raises one). Where it cannot (a Spark line whose reader
 * differs), the errors are still thrown with their condition, SQLSTATE and message, as an exception
 * of this jar that is a {@link SparkThrowable} ({@link Unregistered}; {@link AnalysisException} for
 * analysis errors, whose SQLSTATE Spark then does not know), and one warning says why.
 *
 * <p>Every value a message quotes is cut ({@link Clip}) so that a message stays under 400
 * characters, whatever the values.
 */
final class SparkErrors {
  private SparkErrors() {}

  private static final Logger LOG = LoggerFactory.getLogger(SparkErrors.class);

  // The conditions (error-conditions.json has their templates and SQLSTATEs).
  static final String INDEX_FILE_NOT_FOUND = "SPINDEX_INDEX_FILE_NOT_FOUND";
  static final String INDEX_NAME_EMPTY = "SPINDEX_INDEX_NAME_EMPTY";
  static final String INDEX_NOT_CONFIGURED = "SPINDEX_INDEX_NOT_CONFIGURED";
  static final String INDEX_NOT_CONSTANT = "SPINDEX_INDEX_NOT_CONSTANT";
  static final String INDEX_NOT_FOUND = "SPINDEX_INDEX_NOT_FOUND";
  static final String INDEX_NOT_SHIPPED = "SPINDEX_INDEX_NOT_SHIPPED";
  static final String INDEX_NULL = "SPINDEX_INDEX_NULL";
  static final String INDEX_PATH_REFUSED = "SPINDEX_INDEX_PATH_REFUSED";
  static final String INDEX_READ_FAILED = "SPINDEX_INDEX_READ_FAILED";
  static final String INDEX_TOO_OLD = "SPINDEX_INDEX_TOO_OLD";
  static final String INVALID_ADDRESS = "SPINDEX_INVALID_ADDRESS";
  static final String INVALID_LOADER = "SPINDEX_INVALID_LOADER";
  static final String INVALID_SETTING = "SPINDEX_INVALID_SETTING";
  static final String NOT_AN_INDEX = "SPINDEX_NOT_AN_INDEX";
  static final String UNKNOWN_SETTING = "SPINDEX_UNKNOWN_SETTING";
  static final String WRONG_INDEX_KIND = "SPINDEX_WRONG_INDEX_KIND";
  static final String WRONG_NUM_ARGS = "SPINDEX_WRONG_NUM_ARGS";

  /** The resource that defines them, beside this class. */
  static final String RESOURCE = "error-conditions.json";

  /** How much of a value a message quotes: addresses and columns, names and paths, reasons. */
  static final int VALUE_CHARS = 40;

  static final int NAME_CHARS = 100;
  static final int REASON_CHARS = 150;

  /** Spindex's conditions as Spark's reader reads them. */
  private static final ErrorClassesJsonReader OWN =
      new ErrorClassesJsonReader(Scala.list(resource()));

  private static volatile boolean registered;

  static {
    register();
  }

  private static URL resource() {
    URL u = SparkErrors.class.getResource(RESOURCE);
    if (u == null) {
      throw new IllegalStateException("spindex: " + RESOURCE + " is missing from the jar");
    }
    return u;
  }

  /**
   * Registers Spindex's conditions with this JVM's Spark, once; whether they are registered.
   * Idempotent and cheap after the first call.
   */
  @SuppressWarnings("unchecked") // Map.updated's signature differs between Scala 2.12 and 2.13
  static boolean register() {
    if (registered) {
      return true;
    }
    synchronized (SparkErrors.class) {
      if (registered) {
        return true;
      }
      try {
        ErrorClassesJsonReader spark = SparkThrowableHelper$.MODULE$.errorReader();
        scala.collection.immutable.Map<String, ErrorInfo> merged = spark.errorInfoMap();
        scala.collection.Iterator<Tuple2<String, ErrorInfo>> it = OWN.errorInfoMap().iterator();
        while (it.hasNext()) {
          Tuple2<String, ErrorInfo> e = it.next();
          merged = merged.updated(e._1(), e._2());
        }
        // A final field of Spark's reader (there is no other way in): set once, before any of
        // Spindex's conditions is looked up in this JVM.
        Field f = ErrorClassesJsonReader.class.getDeclaredField("errorInfoMap");
        f.setAccessible(true);
        f.set(spark, merged);
        registered =
            sqlState(INVALID_ADDRESS).equals(SparkThrowableHelper.getSqlState(INVALID_ADDRESS));
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        LOG.warn(
            "spindex: cannot register Spindex's error conditions with this Spark ({}): its errors"
                + " keep their conditions and messages, but Spark does not know their SQLSTATEs",
            e.toString());
      }
      return registered;
    }
  }

  /** Whether this JVM's Spark knows Spindex's conditions. */
  static boolean registered() {
    return registered;
  }

  /** The SQLSTATE of a condition. */
  static String sqlState(String condition) {
    return OWN.getSqlState(condition);
  }

  /** The condition's message template ({@code <param>} for each parameter). */
  static String template(String condition) {
    return OWN.getMessageTemplate(condition);
  }

  /** Every Spindex condition, in name order. */
  static java.util.List<String> conditions() {
    java.util.List<String> all = new java.util.ArrayList<>();
    scala.collection.Iterator<String> it = OWN.errorInfoMap().keysIterator();
    while (it.hasNext()) {
      all.add(it.next());
    }
    Collections.sort(all);
    return all;
  }

  /**
   * Message parameters from name-value pairs, each value cut to its length ({@link #VALUE_CHARS}
   * for {@code value} and {@code column}, {@link #REASON_CHARS} for {@code reason}, else {@link
   * #NAME_CHARS}) and control characters escaped, so a message stays one line of bounded length.
   */
  static Map<String, String> params(String... nameValue) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      String name = nameValue[i];
      String v = nameValue[i + 1] == null ? "NULL" : nameValue[i + 1];
      // A value comes quoted as a SQL literal, its text already cut (Unparseable.text).
      int max =
          name.equals("value")
              ? 2 * VALUE_CHARS
              : name.equals("column")
                  ? VALUE_CHARS
                  : name.equals("reason") ? REASON_CHARS : NAME_CHARS;
      m.put(name, Clip.of(v, max));
    }
    return m;
  }

  /** The parameters as Spark's constructors take them. */
  @SuppressWarnings("unchecked") // Map.updated's signature differs between Scala 2.12 and 2.13
  static scala.collection.immutable.Map<String, String> scala(Map<String, String> params) {
    scala.collection.immutable.Map<String, String> m =
        scala.collection.immutable.Map$.MODULE$.empty();
    for (Map.Entry<String, String> e : params.entrySet()) {
      m = m.updated(e.getKey(), e.getValue());
    }
    return m;
  }

  /**
   * The message of a condition as Spark writes its own on this line ({@code [CONDITION] text}, and
   * on Spark 4 {@code SQLSTATE: ...} after it); the same form when not registered.
   */
  static String message(String condition, Map<String, String> params) {
    if (registered) {
      return SparkThrowableHelper.getMessage(condition, scala(params), "");
    }
    return ownMessage(condition, params);
  }

  /** The message in Spark 4's form, without Spark: {@code [CONDITION] text SQLSTATE: ...}. */
  static String ownMessage(String condition, Map<String, String> params) {
    return "[" + condition + "] " + text(condition, params) + " SQLSTATE: " + sqlState(condition);
  }

  /** The template with its parameters in place. */
  static String text(String condition, Map<String, String> params) {
    String t = template(condition);
    for (Map.Entry<String, String> e : params.entrySet()) {
      t = t.replace("<" + e.getKey() + ">", e.getValue());
    }
    return t;
  }

  /**
   * An analysis error (the query fails before any task runs), thrown as Scala code throws it: the
   * function builders are Scala functions, which declare no checked exceptions, and Spark reports
   * an AnalysisException from a builder as the query's error.
   */
  static RuntimeException analysis(String condition, Map<String, String> params, Throwable cause) {
    register();
    return sneaky(
        new AnalysisException(
            message(condition, params),
            Option.empty(),
            Option.empty(),
            Option.apply(cause),
            Option.apply(condition),
            scala(params),
            new QueryContext[0]));
  }

  /** An error in a task: a {@link SparkRuntimeException}. */
  static RuntimeException runtime(String condition, Map<String, String> params, Throwable cause) {
    if (!register()) {
      return new Unregistered(condition, params, cause);
    }
    return new SparkRuntimeException(condition, scala(params), cause, new QueryContext[0], "");
  }

  /**
   * An address that does not parse, under ANSI mode: {@link InvalidAddressException}.
   *
   * @param value the value as a SQL literal, its text cut to {@link #VALUE_CHARS}
   */
  static RuntimeException invalidAddress(String function, String value, String column) {
    Map<String, String> p =
        params(
            "function",
            function,
            "value",
            value,
            "column",
            column,
            "tryFunction",
            "try_" + function);
    return register() ? new InvalidAddressException(p) : new Unregistered(INVALID_ADDRESS, p, null);
  }

  /** An argument a Java UDF refuses: a {@link SparkIllegalArgumentException}. */
  static RuntimeException illegalArgument(String condition, Map<String, String> params) {
    if (!register()) {
      return new Unregistered(condition, params, null);
    }
    return new SparkIllegalArgumentException(
        condition, scala(params), new QueryContext[0], "", null);
  }

  /**
   * The condition of an index that could not be opened: not found, not an index (a directory, a
   * file of other bytes, a damaged or truncated index), or another I/O error.
   */
  static String indexCondition(IOException e) {
    if (e instanceof FileNotFoundException || e instanceof NoSuchFileException) {
      return INDEX_FILE_NOT_FOUND;
    }
    if (e instanceof CorruptIndexException) {
      return NOT_AN_INDEX;
    }
    if (e instanceof FileSystemException
        && String.valueOf(((FileSystemException) e).getReason()).contains("not an index file")) {
      return NOT_AN_INDEX; // a directory (io.spindex.index.load.Loader.requireFile)
    }
    return INDEX_READ_FAILED;
  }

  /**
   * The parameters of {@link #indexCondition}'s condition: the index as the query named it ({@code
   * shown}), and what the exception says beyond the file it names first.
   *
   * @param local the paths the exception may name the file by (where it was opened), cut from the
   *     reason
   */
  static Map<String, String> indexParams(
      String function, String shown, IOException e, String... local) {
    if (indexCondition(e).equals(INDEX_FILE_NOT_FOUND)) {
      return params("function", function, "path", shown);
    }
    return params("function", function, "path", shown, "reason", reason(e, shown, local));
  }

  /**
   * An index that could not be opened, as an analysis error. A local directory is not an index,
   * whichever way the driver found it out (shipping it with {@code addFile} on a cluster says only
   * "not a file").
   */
  static RuntimeException indexAnalysis(String function, String shown, IOException e) {
    if (indexCondition(e).equals(INDEX_FILE_NOT_FOUND) && localDirectory(shown)) {
      return analysis(
          NOT_AN_INDEX,
          params("function", function, "path", shown, "reason", "a directory, not an index file"),
          e);
    }
    return analysis(indexCondition(e), indexParams(function, shown, e), e);
  }

  private static boolean localDirectory(String path) {
    try {
      java.net.URI u = java.net.URI.create(path.replace(" ", "%20"));
      if (u.getScheme() != null && !u.getScheme().equals("file")) {
        return false;
      }
      return java.nio.file.Files.isDirectory(
          u.getScheme() == null ? java.nio.file.Paths.get(path) : java.nio.file.Paths.get(u));
    } catch (RuntimeException notAPath) {
      return false;
    }
  }

  /** An index that could not be opened, as an error in a task. */
  static RuntimeException indexRuntime(
      String function, String shown, IOException e, String... local) {
    return runtime(indexCondition(e), indexParams(function, shown, e, local), e);
  }

  /** What {@code e} says beyond the file it names first (as the loaders name it), no end stop. */
  static String reason(IOException e, String shown, String... local) {
    String m = e instanceof FileSystemException ? ((FileSystemException) e).getReason() : null;
    if (m == null) {
      m = String.valueOf(e.getMessage());
      java.util.List<String> paths = new java.util.ArrayList<>(java.util.Arrays.asList(local));
      paths.add(shown);
      for (String p : paths) {
        for (String prefix : new String[] {p + ": ", "file:" + p + ": "}) {
          if (p != null && m.startsWith(prefix)) {
            m = m.substring(prefix.length());
          }
        }
      }
    }
    while (m.endsWith(".")) {
      m = m.substring(0, m.length() - 1);
    }
    return m;
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }

  /**
   * A Spindex error where its conditions could not be registered with Spark: the condition,
   * SQLSTATE, parameters and message, as a {@link SparkThrowable} of this jar.
   */
  static final class Unregistered extends RuntimeException implements SparkThrowable {
    private static final long serialVersionUID = 1L;
    private final String condition;
    private final Map<String, String> params;

    Unregistered(String condition, Map<String, String> params, Throwable cause) {
      super(ownMessage(condition, params), cause);
      this.condition = condition;
      this.params = new LinkedHashMap<>(params);
    }

    /** The condition (Spark 4's name for the error class). */
    public String getCondition() {
      return condition;
    }

    @Override
    @SuppressWarnings("deprecation")
    public String getErrorClass() {
      return condition;
    }

    @Override
    public String getSqlState() {
      return sqlState(condition);
    }

    @Override
    public Map<String, String> getMessageParameters() {
      return Collections.unmodifiableMap(params);
    }
  }
}
