/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.cli;

import io.spindex.fetch.FetchException;
import io.spindex.fetch.FetchListener;
import io.spindex.fetch.FetchOptions;
import io.spindex.fetch.FetchResult;
import io.spindex.fetch.Fetcher;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code spindex fetch URL -o FILE}: parallel, resumable, verified HTTP download. */
@Command(
    name = "fetch",
    mixinStandardHelpOptions = true,
    description = {
      "Download a URL to a file: in parallel byte ranges when the server supports them, else one"
          + " stream. Resumes an interrupted download from FILE.part when the server's ETag,"
          + " Last-Modified and length are unchanged; retries connection errors and 5xx with"
          + " backoff; verifies TLS certificates; renames FILE.part to FILE only when complete."
    })
final class FetchCommand implements Callable<Integer> {
  /** Documented property of the JDK's java.net.http module: its internal buffer size. */
  static final String HTTP_BUFSIZE = "jdk.httpclient.bufsize";

  @Parameters(index = "0", paramLabel = "URL", description = "http:// or https:// URL.")
  String url;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "File to write (default: the last segment of the URL's path).")
  Path output;

  @Option(
      names = "--parallel",
      paramLabel = "N",
      defaultValue = "" + FetchOptions.DEFAULT_PARALLEL,
      description = "Range connections, 1..64 (default ${DEFAULT-VALUE}).")
  int parallel;

  @Option(names = "--sha256", paramLabel = "HEX", description = "Expected SHA-256 of the content.")
  String sha256;

  @Option(
      names = "--retries",
      paramLabel = "N",
      defaultValue = "5",
      description = "Retries per request after errors without progress (default ${DEFAULT-VALUE}).")
  int retries;

  @Option(
      names = "--retry-wait",
      paramLabel = "MILLIS",
      defaultValue = "500",
      description = "First backoff; doubles per failure up to 30 s (default ${DEFAULT-VALUE}).")
  long retryWaitMillis;

  @Option(
      names = "--max-size",
      paramLabel = "SIZE",
      defaultValue = "64G",
      description =
          "Refuse content larger than this; K, M, G, T suffixes (default ${DEFAULT-VALUE}).")
  String maxSize;

  @Option(
      names = "--max-redirects",
      paramLabel = "N",
      defaultValue = "10",
      description = "Redirects to follow (default ${DEFAULT-VALUE}).")
  int maxRedirects;

  @Option(
      names = "--stall-timeout",
      paramLabel = "SECONDS",
      defaultValue = "30",
      description = "Drop and retry a connection silent this long (default ${DEFAULT-VALUE}).")
  double stallSeconds;

  @Option(
      names = "--no-resume",
      negatable = false,
      description = "Start over even if FILE.part could be resumed.")
  boolean noResume;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    URI uri = parseUrl(url);
    // The JDK client reads the socket into 16 KiB buffers by default; 256 KiB halves its CPU
    // per byte (measured: docs/FETCH.md). It is read once, when the first client is made, so it
    // is set here, in the CLI's own JVM, and not in the library; a -D on the command line wins.
    if (System.getProperty(HTTP_BUFSIZE) == null) {
      System.setProperty(HTTP_BUFSIZE, Integer.toString(256 << 10));
    }
    Path target = output != null ? output : Paths.get(defaultName(uri));
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    CliListener listener = new CliListener(err);
    FetchOptions options =
        FetchOptions.builder()
            .parallel(parallel)
            .sha256(sha256)
            .retries(retries)
            .retryWait(Duration.ofMillis(retryWaitMillis), Duration.ofSeconds(30))
            .maxBytes(parseSize(maxSize))
            .maxRedirects(maxRedirects)
            .stallTimeout(Duration.ofMillis(Math.round(stallSeconds * 1000)))
            .resume(!noResume)
            .listener(listener)
            .build();
    FetchResult r;
    try {
      r = new Fetcher(options).fetch(uri, target);
    } catch (FetchException e) {
      return fail(err, e.getMessage());
    } catch (FileSystemException e) {
      return fail(err, describe(e));
    } finally {
      listener.close();
    }
    out.println("fetched " + r.finalUri() + " -> " + target);
    out.print(r.format());
    out.flush();
    return 0;
  }

  static int fail(PrintWriter err, String message) {
    err.println(io.spindex.text.Clip.message("spindex: " + message));
    err.flush();
    return SpindexCli.EXIT_FAILURE;
  }

  /** "FILE: reason" for a file system error, without the exception's class name. */
  static String describe(FileSystemException e) {
    String reason = e.getReason();
    if (reason == null) {
      reason =
          e instanceof java.nio.file.AccessDeniedException
              ? "permission denied"
              : e instanceof java.nio.file.NoSuchFileException
                  ? "no such file"
                  : e.getClass().getSimpleName();
    }
    return e.getFile()
        + (e.getOtherFile() != null ? " -> " + e.getOtherFile() : "")
        + ": "
        + reason;
  }

  static URI parseUrl(String url) {
    try {
      return new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a URL: '" + url + "' (" + e.getReason() + ")");
    }
  }

  static String defaultName(URI uri) {
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    String name = path.substring(path.lastIndexOf('/') + 1);
    name = URLDecoder.decode(name, StandardCharsets.UTF_8);
    return name.isEmpty() || name.equals(".") || name.equals("..") || name.contains("/")
        ? "download"
        : name;
  }

  /** Bytes from "123", "500M", "64G" (binary multiples). */
  static long parseSize(String s) {
    String t = s.trim().toUpperCase(Locale.ROOT);
    long mult = 1;
    if (!t.isEmpty() && "KMGT".indexOf(t.charAt(t.length() - 1)) >= 0) {
      mult = 1L << (10 * ("KMGT".indexOf(t.charAt(t.length() - 1)) + 1));
      t = t.substring(0, t.length() - 1);
    }
    try {
      long v = Long.parseLong(t);
      if (v < 0 || v > Long.MAX_VALUE / mult) {
        throw new NumberFormatException();
      }
      return v * mult;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--max-size: not a size: '" + s + "' (expected e.g. 1048576, 500M, 64G)");
    }
  }

  /** Notices on stderr; a progress line on a terminal. */
  static final class CliListener implements FetchListener, AutoCloseable {
    private final PrintWriter err;
    private Progress progress;
    private volatile LongAdder counter;

    CliListener(PrintWriter err) {
      this.err = err;
    }

    @Override
    public synchronized void started(long totalBytes, long resumedBytes) {
      if (progress == null) {
        progress = new Progress("fetch", totalBytes);
        counter = progress.counter();
      }
      // A restart begins again: the bar goes back to what is kept.
      counter.add(resumedBytes - counter.sum());
    }

    @Override
    public void transferred(long bytes) {
      LongAdder c = counter;
      if (c != null) {
        c.add(bytes);
      }
    }

    @Override
    public synchronized void notice(String message) {
      err.println(io.spindex.text.Clip.message("spindex: " + message));
      err.flush();
    }

    @Override
    public synchronized void close() {
      if (progress != null) {
        progress.close();
      }
    }
  }
}
