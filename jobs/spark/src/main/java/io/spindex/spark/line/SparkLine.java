/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark.line;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The Spark line and Scala version this job jar was built for, checked against the running ones
 * before anything else of the jar runs: a jar of the wrong line fails at once, in one line that
 * names both and the artifact to use, instead of an {@code AbstractMethodError} at the first query.
 * Everything here is plain Java and reads Spark's and Scala's versions by name, so the check itself
 * runs under any line.
 */
@Internal
public final class SparkLine {
  /** The artifact, line ({@code 3.5}, {@code 4.x}) and Scala binary version of this jar. */
  public static final String ARTIFACT;

  public static final String LINE;
  public static final String SCALA;

  static {
    Properties p = new Properties();
    try (InputStream in = SparkLine.class.getResourceAsStream("line.properties")) {
      if (in == null) {
        throw new IllegalStateException("io/spindex/spark/line.properties is missing from the jar");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ARTIFACT = p.getProperty("artifact");
    LINE = p.getProperty("spark.line");
    SCALA = p.getProperty("scala.binary");
  }

  private SparkLine() {}

  /**
   * Throws {@link WrongLine} when this jar does not fit the Spark and Scala versions of this JVM;
   * returns quietly when it does.
   */
  public static void check() {
    String problem = mismatch(sparkVersion(), scalaVersion());
    if (problem != null) {
      throw new WrongLine(problem);
    }
  }

  /**
   * A jar of another Spark line, thrown where Spark reports it itself (a session's extensions):
   * without a stack trace, so what reaches the user is the one line.
   */
  public static final class WrongLine extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WrongLine(String message) {
      super(message, null, false, false);
    }

    @Override
    public String toString() {
      return getMessage();
    }
  }

  /** The one-line message for a jar of this line under {@code spark}/{@code scala}, or null. */
  static String mismatch(String spark, String scala) {
    String wantScala = binary(scala);
    boolean sparkOk =
        LINE.endsWith(".x") ? major(spark).equals(major(LINE)) : spark.startsWith(LINE + ".");
    if (sparkOk && SCALA.equals(wantScala)) {
      return null;
    }
    return "spindex: "
        + ARTIFACT
        + " is built for Spark "
        + LINE
        + " / Scala "
        + SCALA
        + ", but this session runs Spark "
        + spark
        + " / Scala "
        + scala
        + ": use "
        + artifactFor(spark, wantScala);
  }

  /** The artifact that fits a Spark version and Scala binary version. */
  static String artifactFor(String spark, String scalaBinary) {
    String m = major(spark);
    if (m.equals("3") && spark.startsWith("3.5.")) {
      return "spindex-spark-3.5_" + scalaBinary;
    }
    if (Integer.parseInt(m.isEmpty() ? "0" : m) >= 4) {
      return "spindex-spark-4.x_2.13";
    }
    return "Spark 3.5 or 4.x (Spindex has no build for Spark " + spark + ")";
  }

  private static String major(String version) {
    int dot = version.indexOf('.');
    return dot < 0 ? version : version.substring(0, dot);
  }

  private static String binary(String scala) {
    int dot = scala.indexOf('.', scala.indexOf('.') + 1);
    return dot < 0 ? scala : scala.substring(0, dot);
  }

  /** The running Spark's version, read by name so that no Scala signature is linked. */
  static String sparkVersion() {
    try {
      Class<?> p = Class.forName("org.apache.spark.package$");
      Object module = p.getField("MODULE$").get(null);
      return (String) p.getMethod("SPARK_VERSION").invoke(module);
    } catch (ReflectiveOperationException e) {
      return "unknown";
    }
  }

  /** The running Scala library's version ({@code 2.12.18}, {@code 2.13.16}). */
  static String scalaVersion() {
    try {
      Class<?> p = Class.forName("scala.util.Properties$");
      Object module = p.getField("MODULE$").get(null);
      return (String) p.getMethod("versionNumberString").invoke(module);
    } catch (ReflectiveOperationException e) {
      return "unknown";
    }
  }
}
