/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.job;

import io.spindex.annotations.Internal;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The job jar's entry point on every engine: picks the job named by the first argument and runs it
 * with the rest, and turns whatever goes wrong into the same one line and exit code on Spark and
 * MapReduce.
 *
 * <ul>
 *   <li>no job: one line on standard error ({@code spindex: no job given: expected …}), exit 2;
 *   <li>{@code --help} or {@code -h}: the list of jobs on standard output, exit 0;
 *   <li>an unknown job: one line on standard error ({@code spindex: unknown job 'x': …}), exit 2;
 *   <li>{@code <job> --help}: the job's options on standard output, exit 0;
 *   <li>a usage mistake ({@link UsageException}): its one line on standard error, exit 2;
 *   <li>an {@link IOException} (bad input, a damaged index, an existing output): {@code spindex
 *       <job>: <message>} on standard error, exit 1;
 *   <li>any other exception (a failed task, a bug): {@code spindex <job>: failed: <root cause>} on
 *       standard error, exit 1.
 * </ul>
 *
 * <p>Never a stack trace: the root cause names the exception's class and message.
 */
@Internal
public final class Dispatcher {
  /** Runs one known job with its arguments; returns its exit code. */
  @FunctionalInterface
  public interface Jobs {
    int run(String job, String[] args) throws Exception;
  }

  private final String command;
  private final List<String[]> lines = new ArrayList<>();
  private final List<String> names = new ArrayList<>();

  /**
   * @param command how the jar is called, e.g. {@code spark-submit [spark options]
   *     spindex-spark-job.jar}
   */
  public Dispatcher(String command) {
    this.command = command;
    lines.add(new String[] {"jobs:"});
  }

  /** Adds a job to the list, in usage order. */
  public Dispatcher job(String name, String description) {
    names.add(name);
    lines.add(new String[] {name, description});
    return this;
  }

  /** The job names, in usage order. */
  public List<String> names() {
    return names;
  }

  /** The usage text: how to call, every job with its line, how to get a job's options. */
  public String usage() {
    StringBuilder b = new StringBuilder("usage: " + command + " <job> [options]\n");
    for (String[] l : lines) {
      if (l.length == 1) {
        b.append(l[0]).append('\n');
      } else {
        b.append(String.format(java.util.Locale.ROOT, "  %-15s %s%n", l[0], l[1]));
      }
    }
    return b.append("'<job> --help' lists the job's options.").toString();
  }

  /**
   * Runs {@code args[0]} with the rest of {@code args} through {@code jobs}, and prints what went
   * wrong as the table above says.
   *
   * @return the exit code
   */
  public int run(String[] args, PrintStream out, PrintStream err, Jobs jobs) {
    String expected = "expected one of " + String.join(", ", names) + " (--help lists them)";
    if (args.length == 0) {
      err.println("spindex: no job given: " + expected);
      return 2;
    }
    String job = args[0];
    if (job.equals("--help") || job.equals("-h")) {
      out.println(usage());
      return 0;
    }
    if (!names.contains(job)) {
      err.println("spindex: unknown job '" + job + "': " + expected);
      return 2;
    }
    try {
      return jobs.run(job, Arrays.copyOfRange(args, 1, args.length));
    } catch (Exception e) {
      return failed(job, e, out, err);
    }
  }

  /**
   * Prints {@code e}, thrown by {@code job}, as one line (the usage text for {@code --help}) and
   * returns the exit code: the engines' tools use it too, so that a tool run on its own says the
   * same as the dispatcher.
   */
  public static int failed(String job, Throwable e, PrintStream out, PrintStream err) {
    if (e instanceof UsageException) {
      UsageException u = (UsageException) e;
      (u.isHelp() ? out : err).println(u.getMessage());
      return u.exitCode();
    }
    if (e instanceof IOException) {
      err.println("spindex " + job + ": " + e.getMessage());
      return 1;
    }
    // A task that failed on bad input fails the engine's job: say why in one line, not 200 frames:
    // the task's own message where it names the input or index, else the root cause.
    String bad = badInput(e);
    if (bad != null) {
      err.println("spindex " + job + ": " + bad);
      return 1;
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    err.println("spindex " + job + ": failed: " + oneLine(root.toString()));
    return 1;
  }

  /**
   * The message of the first {@code InputException} or {@code CorruptIndexException} among {@code
   * e} and its causes (they name the user's file), or null: what an engine wrapped, unwrapped.
   */
  public static String badInput(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof io.spindex.text.InputException
          || t instanceof io.spindex.index.CorruptIndexException) {
        return t.getMessage();
      }
    }
    return null;
  }

  private static String oneLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl).trim() + " …";
  }
}
