/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.annotations.Internal;
import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.text.Clip;
import io.spindex.text.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code spindex} command line. Exit status: 0 success, 1 bad input, a corrupt index or an I/O
 * error (with a one-line message naming the file), 2 a usage error.
 */
@Command(
    name = "spindex",
    mixinStandardHelpOptions = true,
    versionProvider = SpindexCli.Version.class,
    description =
        "Build, check and query compact binary indexes of IPv4 lists, IP ranges and EP product"
            + " feeds; transform and diff EP feeds.",
    subcommands = {
      BuildCommand.class,
      LookupCommand.class,
      InspectCommand.class,
      VerifyCommand.class,
      GenCommand.class,
      EpCommand.class,
      BenchLoadCommand.class,
      FetchCommand.class,
      UpdateCommand.class,
      StageCommand.class,
      RunCommand.class,
      CommandLine.HelpCommand.class
    })
@Internal
public final class SpindexCli implements Runnable {
  /** Exit status for bad input, a corrupt index or an I/O error. */
  public static final int EXIT_FAILURE = 1;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit status (for tests and embedding). */
  public static int run(String... args) {
    return commandLine().execute(args);
  }

  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new SpindexCli());
    cl.setExecutionExceptionHandler(SpindexCli::onError);
    cl.setParameterExceptionHandler(SpindexCli::onUsageError);
    // The build options an update takes are the build's own, declared from its option table.
    UpdateCommand.declareBuildOptions(cl.getSubcommands().get("update"));
    return cl;
  }

  /**
   * A usage mistake picocli found (an unknown option, a missing or malformed value): one line,
   * clipped, naming the command's help, and exit status 2. The usage text is what {@code --help}
   * prints; repeated after every mistake it pushed the mistake off the screen.
   */
  private static int onUsageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    StringBuilder sb = new StringBuilder("spindex: ");
    sb.append(e.getMessage() == null ? e.toString() : e.getMessage());
    if (e instanceof CommandLine.UnmatchedArgumentException) {
      List<String> suggestions = ((CommandLine.UnmatchedArgumentException) e).getSuggestions();
      if (!suggestions.isEmpty()) {
        sb.append(" (did you mean ")
            .append(String.join(" or ", suggestions.subList(0, Math.min(3, suggestions.size()))))
            .append("?)");
      }
    }
    sb.append(" ('")
        .append(cl.getCommandSpec().qualifiedName())
        .append(" --help' lists the options)");
    cl.getErr().println(Clip.message(sb.toString()));
    cl.getErr().flush();
    return 2;
  }

  private static int onError(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
    Throwable t = e instanceof UncheckedIOException ? e.getCause() : e;
    PrintWriter err = cl.getErr();
    if (t instanceof CorruptIndexException || t instanceof InputException) {
      err.println(Clip.message("spindex: " + t.getMessage()));
    } else if (t instanceof NoSuchFileException) {
      err.println(
          Clip.message("spindex: " + ((NoSuchFileException) t).getFile() + ": no such file"));
    } else if (t instanceof AccessDeniedException) {
      err.println(
          Clip.message(
              "spindex: " + ((AccessDeniedException) t).getFile() + ": permission denied"));
    } else if (t instanceof java.nio.file.FileSystemException) {
      java.nio.file.FileSystemException f = (java.nio.file.FileSystemException) t;
      err.println(
          Clip.message(
              "spindex: "
                  + f.getFile()
                  + (f.getOtherFile() == null ? "" : " -> " + f.getOtherFile())
                  + ": "
                  + (f.getReason() == null ? f.getClass().getSimpleName() : f.getReason())));
    } else if (t instanceof IOException) {
      err.println(
          Clip.message("spindex: " + (t.getMessage() == null ? t.toString() : t.getMessage())));
    } else if (t instanceof IllegalArgumentException) {
      err.println(Clip.message("spindex: " + t.getMessage()));
      err.flush();
      return 2;
    } else {
      err.println("spindex: internal error (please report): " + t);
      t.printStackTrace(err);
    }
    err.flush();
    return EXIT_FAILURE;
  }

  /**
   * What {@code spindex --version} prints: the Spindex version, the index format version it writes
   * and reads, and the git commit the jar was built from ({@code -dirty} when the checkout had
   * uncommitted changes). The build writes the version and the commit into build.properties; a
   * build without git metadata (a source archive) has no commit: "unknown".
   */
  static final class Version implements CommandLine.IVersionProvider {
    /** The index format version (major.minor) this code writes; it reads any minor of the major. */
    static final String INDEX_FORMAT = IndexHeader.FORMAT_VERSION;

    static final String UNKNOWN = "unknown";

    @Override
    public String[] getVersion() throws IOException {
      Properties build = new Properties();
      try (InputStream in = SpindexCli.class.getResourceAsStream("build.properties")) {
        if (in != null) {
          build.load(in);
        }
      }
      return lines(build);
    }

    static String[] lines(Properties build) {
      String commit = filled(build, "commit");
      if (!commit.equals(UNKNOWN) && "true".equals(filled(build, "dirty"))) {
        commit += "-dirty";
      }
      return new String[] {
        "spindex " + filled(build, "version"),
        "index format " + INDEX_FORMAT + " (writes and reads)",
        "commit " + commit
      };
    }

    /** A value the build filled in, or "unknown" for none or a placeholder it left. */
    private static String filled(Properties build, String key) {
      String v = build.getProperty(key, "").trim();
      return v.isEmpty() || v.contains("${") ? UNKNOWN : v;
    }
  }
}
