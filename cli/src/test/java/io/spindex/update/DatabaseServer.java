/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A real HTTP/1.1 server on 127.0.0.1 that publishes databases the ways their publishers do: plain
 * files with ETag and Last-Modified (answering {@code If-None-Match} and {@code If-Modified-Since}
 * with 304) and an optional {@code FILE.sha256} beside them; and MaxMind's download form, {@code
 * /geoip/databases/EDITION/download?suffix=tar.gz|tar.gz.sha256} behind HTTP basic authentication.
 * Knobs make it fail the ways servers do. Every request is logged as {@code METHOD PATH?QUERY
 * STATUS}. Thread-safe.
 */
public final class DatabaseServer implements AutoCloseable {
  /** A published file. */
  static final class File {
    volatile byte[] content;
    volatile String contentType = "application/octet-stream";
    volatile boolean validators = true;
    volatile boolean sha256Beside;

    /** A status to answer instead of the content (500, 404), or 0. */
    volatile int failWith;

    /** Send this many bytes of the content, then close the connection (a cut download), or -1. */
    volatile int cutAfter = -1;

    /** For a MaxMind edition: a SHA-256 to publish instead of the content's (a mismatch). */
    volatile String publishedSha256;

    /** A pause after each 64 KiB of the body, in milliseconds (a slow download), or 0. */
    volatile long slowMillis;

    /** The Last-Modified to send, or null for one made from the content. */
    volatile String lastModified;
  }

  private final HttpServer server;
  private final ExecutorService pool = Executors.newCachedThreadPool();
  private final Map<String, File> files = new ConcurrentHashMap<>();
  private final Map<String, File> editions = new ConcurrentHashMap<>();
  private final List<String> log = new ArrayList<>();
  volatile String account = "12345";
  volatile String licenseKey = "s3cr3t-license-key";

  DatabaseServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(pool);
    server.createContext("/", this::handle);
    server.start();
  }

  URI base() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  URI url(String path) {
    return base().resolve(path);
  }

  File file(String path) {
    return files.computeIfAbsent(path, k -> new File());
  }

  File edition(String id) {
    return editions.computeIfAbsent(id, k -> new File());
  }

  List<String> log() {
    synchronized (log) {
      return new ArrayList<>(log);
    }
  }

  void clearLog() {
    synchronized (log) {
      log.clear();
    }
  }

  private void handle(HttpExchange ex) throws IOException {
    try {
      String path = ex.getRequestURI().getPath();
      String query = ex.getRequestURI().getQuery();
      int status = serve(ex, path, query);
      synchronized (log) {
        log.add(
            ex.getRequestMethod() + " " + path + (query == null ? "" : "?" + query) + " " + status);
      }
    } finally {
      ex.close();
    }
  }

  private int serve(HttpExchange ex, String path, String query) throws IOException {
    String prefix = "/geoip/databases/";
    if (path.startsWith(prefix) && path.endsWith("/download")) {
      String id = path.substring(prefix.length(), path.length() - "/download".length());
      String expected =
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((account + ":" + licenseKey).getBytes(StandardCharsets.UTF_8));
      if (!expected.equals(ex.getRequestHeaders().getFirst("Authorization"))) {
        return send(
            ex, 401, "text/plain", "Invalid license key\n".getBytes(StandardCharsets.UTF_8));
      }
      File f = editions.get(id);
      if (f == null || f.content == null) {
        return send(
            ex, 404, "text/plain", "Database edition not found\n".getBytes(StandardCharsets.UTF_8));
      }
      if ("suffix=tar.gz.sha256".equals(query)) {
        String sha = f.publishedSha256 != null ? f.publishedSha256 : sha256(f.content);
        return send(
            ex,
            200,
            "text/plain",
            (sha + "  " + id + "_20261127.tar.gz\n").getBytes(StandardCharsets.UTF_8));
      }
      if ("suffix=tar.gz".equals(query)) {
        return content(ex, f);
      }
      return send(ex, 400, "text/plain", "Invalid suffix\n".getBytes(StandardCharsets.UTF_8));
    }
    if (path.endsWith(".sha256")) {
      File f = files.get(path.substring(0, path.length() - ".sha256".length()));
      if (f == null || !f.sha256Beside || f.content == null) {
        return send(ex, 404, "text/plain", "not found\n".getBytes(StandardCharsets.UTF_8));
      }
      return send(
          ex, 200, "text/plain", (sha256(f.content) + "  file\n").getBytes(StandardCharsets.UTF_8));
    }
    File f = files.get(path);
    if (f == null || f.content == null) {
      return send(ex, 404, "text/html", "<html>not found</html>".getBytes(StandardCharsets.UTF_8));
    }
    return content(ex, f);
  }

  private int content(HttpExchange ex, File f) throws IOException {
    if (f.failWith != 0) {
      return send(
          ex, f.failWith, "text/html", "<html>error</html>".getBytes(StandardCharsets.UTF_8));
    }
    byte[] c = f.content;
    String etag = "\"" + sha256(c).substring(0, 16) + "\"";
    String modified =
        f.lastModified != null
            ? f.lastModified
            : "Mon, 06 Jan 2025 10:00:0" + (Math.abs(etag.hashCode()) % 10) + " GMT";
    if (f.validators) {
      ex.getResponseHeaders().set("ETag", etag);
      ex.getResponseHeaders().set("Last-Modified", modified);
      if (etag.equals(ex.getRequestHeaders().getFirst("If-None-Match"))) {
        ex.sendResponseHeaders(304, -1);
        return 304;
      }
    }
    ex.getResponseHeaders().set("Content-Type", f.contentType);
    if ("HEAD".equals(ex.getRequestMethod())) {
      ex.sendResponseHeaders(200, -1);
      return 200;
    }
    ex.sendResponseHeaders(200, c.length);
    try (OutputStream out = ex.getResponseBody()) {
      if (f.cutAfter >= 0) {
        out.write(c, 0, Math.min(f.cutAfter, c.length));
        out.flush();
        ex.getHttpContext().getServer(); // the connection is closed with the exchange, short
        return 200;
      }
      for (int at = 0; at < c.length; at += 65536) {
        out.write(c, at, Math.min(65536, c.length - at));
        if (f.slowMillis > 0) {
          out.flush();
          try {
            Thread.sleep(f.slowMillis);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 200;
          }
        }
      }
    }
    return 200;
  }

  private static int send(HttpExchange ex, int status, String type, byte[] body)
      throws IOException {
    ex.getResponseHeaders().set("Content-Type", type);
    ex.sendResponseHeaders(status, body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
    return status;
  }

  static String sha256(byte[] b) {
    try {
      StringBuilder sb = new StringBuilder();
      for (byte x : MessageDigest.getInstance("SHA-256").digest(b)) {
        sb.append(String.format("%02x", x & 0xFF));
      }
      return sb.toString();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
