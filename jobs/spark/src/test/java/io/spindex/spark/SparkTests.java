/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.spark;

import com.google.common.net.InetAddresses;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/** One local[2] SparkSession for every test class in the fork (start-up costs seconds). */
public final class SparkTests {
  private static SparkSession session;

  private SparkTests() {}

  public static synchronized SparkSession session() {
    if (session == null) {
      session =
          SparkSession.builder()
              .master("local[2]")
              .appName("spindex-tests")
              .config("spark.ui.enabled", "false")
              .config("spark.driver.host", "127.0.0.1")
              .config("spark.sql.shuffle.partitions", "2")
              .config("spark.sql.extensions", "io.spindex.spark.sql.SpindexExtensions")
              .getOrCreate();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> session.stop()));
    }
    return session;
  }

  /**
   * Runs a job as spark-submit runs it, in {@code spark}: its exit code, standard output and
   * standard error.
   */
  static Object[] runJob(SparkSession spark, String... args) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    int code =
        SpindexSpark.run(
            spark,
            args,
            new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
            new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
    return new Object[] {
      code,
      out.toString(java.nio.charset.StandardCharsets.UTF_8),
      err.toString(java.nio.charset.StandardCharsets.UTF_8)
    };
  }

  /**
   * The bytes of an address as a BINARY address column holds them: 4 for IPv4, 16 for IPv6, an
   * IPv4-mapped address ({@code ::ffff:a.b.c.d}) as its 16 bytes.
   */
  public static byte[] addressBytes(String ip) {
    InetAddress a = InetAddresses.forString(ip);
    byte[] b = a.getAddress();
    if (a instanceof Inet4Address && ip.contains(":")) {
      byte[] m = new byte[16];
      m[10] = (byte) 0xFF;
      m[11] = (byte) 0xFF;
      System.arraycopy(b, 0, m, 12, 4);
      return m;
    }
    return b;
  }

  /**
   * A path in the repository: the nearest folder above the working directory that holds {@code
   * mvnw} (each Spark line's module runs the tests one level deeper than {@code jobs/spark}).
   */
  static java.nio.file.Path repo(String... parts) {
    java.nio.file.Path d = java.nio.file.Paths.get("").toAbsolutePath();
    while (d != null && !java.nio.file.Files.exists(d.resolve("mvnw"))) {
      d = d.getParent();
    }
    if (d == null) {
      throw new IllegalStateException(
          "no mvnw above " + java.nio.file.Paths.get("").toAbsolutePath());
    }
    return d.resolve(String.join("/", parts));
  }

  static void writeLines(OutputStream out, List<String> lines) throws IOException {
    for (String l : lines) {
      out.write(l.getBytes(StandardCharsets.UTF_8));
      out.write('\n');
    }
  }

  /** Lines of every {@code part-*} file directly in {@code dir} (gzip-aware), in name order. */
  static List<String> readParts(Path dir) throws IOException {
    return io.spindex.cli.local.EnginesAgreeContract.readParts(dir);
  }
}
