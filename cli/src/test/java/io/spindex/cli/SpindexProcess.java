/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs {@code spindex} in its own JVM, as a user would, for the fetch and stage tests. */
public final class SpindexProcess {
  /** Exit status, stdout and stderr of a finished run. */
  public static final class Run {
    public final int exit;
    public final String out;
    public final String err;

    Run(int exit, String out, String err) {
      this.exit = exit;
      this.out = out;
      this.err = err;
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  private final Process process;
  private final CompletableFuture<byte[]> out;
  private final CompletableFuture<byte[]> err;

  private SpindexProcess(Path dir, List<String> jvmOptions, String... args) throws IOException {
    this(dir, jvmOptions, java.util.Map.of(), args);
  }

  private SpindexProcess(
      Path dir, List<String> jvmOptions, java.util.Map<String, String> env, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(commandClasspath());
    cmd.add(SpindexCli.class.getName());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().putAll(env);
    process = pb.start();
    process.getOutputStream().close();
    out = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
    err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
  }

  /**
   * The test classpath without the jars only the in-process Hadoop test clusters need: the command
   * runs as {@code scripts/spindex} runs it, and the shaded cluster jars' central directories (kept
   * on the heap by {@code java.util.zip}, megabytes each) do not count against a small heap.
   */
  static String commandClasspath() {
    return java.util.Arrays.stream(
            System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .filter(e -> !TEST_CLUSTER_JAR.matcher(Paths.get(e).getFileName().toString()).matches())
        .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
  }

  private static final java.util.regex.Pattern TEST_CLUSTER_JAR =
      java.util.regex.Pattern.compile(
          "(hadoop-client-(minicluster|runtime)|slf4j-reload4j|reload4j)-.*\\.jar");

  /** Starts {@code spindex ARGS} in {@code dir} with extra JVM options; see {@link #await}. */
  public static SpindexProcess start(Path dir, List<String> jvmOptions, String... args)
      throws IOException {
    return new SpindexProcess(dir, jvmOptions, args);
  }

  /** Starts {@code spindex ARGS} in {@code dir} with variables added to its environment. */
  public static SpindexProcess start(Path dir, java.util.Map<String, String> env, String... args)
      throws IOException {
    return new SpindexProcess(dir, List.of(), env, args);
  }

  /** The process's id. */
  public long pid() {
    return process.pid();
  }

  /** Kills the process as {@code kill -9} does. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  /** Runs {@code spindex ARGS} in {@code dir} and waits for it. */
  public static Run run(Path dir, String... args) throws Exception {
    return start(dir, List.of(), args).await();
  }

  /** Waits up to two minutes for the process. */
  public Run await() throws Exception {
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("spindex did not finish in 120 s");
    }
    return new Run(
        process.exitValue(),
        new String(out.get(), StandardCharsets.UTF_8),
        new String(err.get(), StandardCharsets.UTF_8));
  }

  private static byte[] readAll(InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
