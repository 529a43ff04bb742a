/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * A real HTTP/1.1 server on 127.0.0.1 (the JDK's {@code com.sun.net.httpserver}) serving one file
 * at {@code /f} with byte ranges, ETag and Last-Modified, and knobs that make it misbehave the ways
 * servers do: no ranges, no length, a Content-Length that promises more than it sends, connections
 * cut or stalled mid-body, error statuses, redirects, content that changes. Every request is
 * logged. Thread-safe; knobs may be changed while it serves.
 */
final class TestServer implements AutoCloseable {
  private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d*)");

  /** Called before a body is written; may sleep, change the content, or take the request over. */
  interface Hook {
    /**
     * @return true when the hook wrote the whole response itself
     */
    boolean before(HttpExchange ex, long from, long to, int requestNumber) throws IOException;
  }

  private final HttpServer server;
  private final ExecutorService pool = Executors.newCachedThreadPool();
  private final List<String> log = new ArrayList<>();
  private final AtomicInteger requestCount = new AtomicInteger();

  volatile byte[] content;
  volatile String etag;
  volatile String lastModified = "Mon, 06 Jan 2025 10:00:00 GMT";
  volatile boolean ranges = true;
  volatile boolean sendLength = true;

  /** Added to the Content-Length of a whole-content answer, without the bytes. */
  volatile long claimExtraBytes;

  /** Body bytes sent before a cut or a stall. */
  volatile long cutAfterBytes;

  final AtomicInteger cuts = new AtomicInteger();
  final AtomicInteger stalls = new AtomicInteger();
  volatile int failStatus = 500;
  final AtomicInteger failures = new AtomicInteger();
  final Map<String, String> redirects = new ConcurrentHashMap<>();
  volatile Hook hook;

  private TestServer(HttpServer server, byte[] content) {
    this.server = server;
    setContent(content, "\"v1\"");
    server.createContext("/", this::handle);
    server.setExecutor(pool);
    server.start();
  }

  static TestServer http(byte[] content) throws IOException {
    return new TestServer(
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64), content);
  }

  static TestServer https(byte[] content, SSLContext tls) throws IOException {
    HttpsServer s =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    s.setHttpsConfigurator(new HttpsConfigurator(tls));
    return new TestServer(s, content);
  }

  void setContent(byte[] content, String etag) {
    this.content = content;
    this.etag = etag;
  }

  URI uri(String path) {
    String scheme = server instanceof HttpsServer ? "https" : "http";
    return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  /** Requests so far, as "GET /path Range" lines (Range "-" when absent). */
  List<String> log() {
    synchronized (log) {
      return new ArrayList<>(log);
    }
  }

  int requests() {
    return requestCount.get();
  }

  private void handle(HttpExchange ex) throws IOException {
    try (InputStream in = ex.getRequestBody()) {
      in.readAllBytes();
    }
    String range = ex.getRequestHeaders().getFirst("Range");
    String ifRange = ex.getRequestHeaders().getFirst("If-Range");
    String path = ex.getRequestURI().getPath();
    int number = requestCount.incrementAndGet();
    synchronized (log) {
      log.add(ex.getRequestMethod() + " " + path + " " + (range == null ? "-" : range));
    }
    try {
      String to = redirects.get(path);
      if (to != null) {
        ex.getResponseHeaders().set("Location", to);
        ex.sendResponseHeaders(302, -1);
        return;
      }
      if (!path.equals("/f")) {
        ex.sendResponseHeaders(404, -1);
        return;
      }
      if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        ex.sendResponseHeaders(failStatus, -1);
        return;
      }
      serve(ex, range, ifRange, number);
    } finally {
      ex.close();
    }
  }

  private void serve(HttpExchange ex, String range, String ifRange, int number) throws IOException {
    byte[] body = content;
    String tag = etag;
    long from = 0;
    long to = body.length - 1;
    boolean partial = false;
    Matcher m = range == null ? null : RANGE.matcher(range);
    if (ranges && m != null && m.matches() && (ifRange == null || ifRange.equals(tag))) {
      from = Long.parseLong(m.group(1));
      if (!m.group(2).isEmpty()) {
        to = Math.min(to, Long.parseLong(m.group(2)));
      }
      if (from >= body.length || from > to) {
        ex.getResponseHeaders().set("Content-Range", "bytes */" + body.length);
        ex.sendResponseHeaders(416, -1);
        return;
      }
      partial = true;
    }
    Hook h = hook;
    if (h != null && h.before(ex, from, to, number)) {
      return;
    }
    ex.getResponseHeaders().set("ETag", tag);
    ex.getResponseHeaders().set("Last-Modified", lastModified);
    if (ranges) {
      ex.getResponseHeaders().set("Accept-Ranges", "bytes");
    }
    long len = to - from + 1;
    if (partial) {
      ex.getResponseHeaders().set("Content-Range", "bytes " + from + "-" + to + "/" + body.length);
      ex.sendResponseHeaders(206, len);
    } else if (!sendLength) {
      ex.sendResponseHeaders(200, 0); // chunked
    } else {
      ex.sendResponseHeaders(200, len == 0 ? -1 : len + claimExtraBytes);
    }
    long send = len;
    boolean cut = cuts.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    boolean stall = !cut && stalls.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    if (cut || stall) {
      send = Math.min(len, cutAfterBytes);
    }
    OutputStream out = ex.getResponseBody();
    try {
      out.write(body, (int) from, (int) send);
      out.flush();
      if (stall) {
        sleep(30_000); // until the client gives up and the test closes the server
      }
      // No out.close(): HttpExchange.close() (in handle) drops the connection when the body is
      // short of its Content-Length, while closing the body stream first would leave it open.
    } catch (IOException e) {
      // The client went away, or the body was cut short on purpose.
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
