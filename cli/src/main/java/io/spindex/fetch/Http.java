/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import io.spindex.fetch.FetchException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLHandshakeException;

/**
 * One GET, redirects followed by hand, the status classified into "use it", "retry" or "give up".
 * Thread-safe: {@link HttpClient} is, and this class keeps no other state.
 *
 * <p>HTTP/1.1 on purpose: parallel ranges are meant to be separate TCP connections (each with its
 * own congestion window, and each under the server's per-connection rate limit); HTTP/2 would
 * multiplex them over one. Redirects are followed here rather than by the client so that a loop is
 * reported as a loop, an https-to-http downgrade is refused, and the final URL is known.
 */
final class Http {
  private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+|\\*)");

  private final HttpClient client;
  private final FetchOptions options;

  Http(FetchOptions options) {
    this.options = options;
    HttpClient.Builder b =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(options.connectTimeout);
    if (options.sslContext != null) {
      b.sslContext(options.sslContext);
    }
    this.client = b.build();
  }

  /** A response with a 2xx status whose body the caller must close. */
  static final class Response {
    final URI uri;
    final HttpResponse<InputStream> response;

    Response(URI uri, HttpResponse<InputStream> response) {
      this.uri = uri;
      this.response = response;
    }

    int status() {
      return response.statusCode();
    }

    InputStream body() {
      return response.body();
    }

    String header(String name) {
      return response.headers().firstValue(name).orElse(null);
    }

    /** Content-Length, or -1 when absent (a chunked body). */
    long contentLength() {
      return response.headers().firstValueAsLong("Content-Length").orElse(-1);
    }

    /** {start, end (inclusive), total or -1 for '*'} of a 206, or null when absent/unparsable. */
    long[] contentRange() {
      String v = header("Content-Range");
      Matcher m = v == null ? null : CONTENT_RANGE.matcher(v.trim());
      if (m == null || !m.matches()) {
        return null;
      }
      return new long[] {
        Long.parseLong(m.group(1)),
        Long.parseLong(m.group(2)),
        m.group(3).equals("*") ? -1 : Long.parseLong(m.group(3))
      };
    }

    /**
     * The {@link #contentRange} of a 206 that answers {@code Range: bytes=from-}; one missing or
     * starting elsewhere closes this response and is a fatal error naming {@code uri}.
     */
    long[] contentRangeFrom(long from, URI uri) throws FetchException {
      long[] cr = contentRange();
      if (cr == null || cr[0] != from) {
        close();
        throw new FetchException(
            FetchException.Kind.FATAL,
            "server answered Range: bytes="
                + from
                + "- with Content-Range "
                + header("Content-Range")
                + ": "
                + uri);
      }
      return cr;
    }

    Validator validator(long length) {
      return new Validator(header("ETag"), header("Last-Modified"), length);
    }

    void close() {
      try {
        body().close();
      } catch (IOException e) {
        // Abandoning the connection; nothing more to read from it.
      }
    }
  }

  /**
   * Sends {@code GET uri}, with {@code Range: bytes=from-to} when {@code from >= 0} ({@code to} -1
   * for an open range) and {@code If-Range} when {@code ifRange} has a strong ETag.
   *
   * @throws FetchException classified: RETRY for connection errors, timeouts, 5xx, 408 and 429;
   *     FATAL for other statuses, redirect problems and TLS failures
   */
  Response get(URI uri, long from, long to, Validator ifRange) throws IOException {
    List<URI> chain = new ArrayList<>();
    chain.add(uri);
    URI u = uri;
    while (true) {
      HttpRequest.Builder rb =
          HttpRequest.newBuilder(u)
              .GET()
              .timeout(options.stallTimeout)
              .header("User-Agent", "spindex-fetch")
              .header("Accept-Encoding", "identity");
      authorize(rb, uri, u);
      if (from >= 0) {
        rb.header("Range", "bytes=" + from + "-" + (to >= 0 ? Long.toString(to) : ""));
        if (ifRange != null && ifRange.strongEtag()) {
          rb.header("If-Range", ifRange.etag);
        }
      }
      HttpResponse<InputStream> r = send(u, rb.build());
      int status = r.statusCode();
      if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
        r.body().close();
        u = redirect(chain, u, r);
        continue;
      }
      if (status / 100 == 2) {
        return new Response(u, r);
      }
      r.body().close();
      String what = "HTTP " + status + reason(status) + ": " + u;
      if (status >= 500 || status == 408 || status == 429) {
        throw new FetchException(Kind.RETRY, what, null, retryAfterMillis(r), status);
      }
      throw new FetchException(Kind.FATAL, what, null, -1, status);
    }
  }

  /** What {@link #probe} found: not modified, or the content's validators and type. */
  static final class Probe {
    final boolean notModified;
    final Validator validator;
    final String contentType;
    final URI finalUri;

    Probe(boolean notModified, Validator validator, String contentType, URI finalUri) {
      this.notModified = notModified;
      this.validator = validator;
      this.contentType = contentType;
      this.finalUri = finalUri;
    }
  }

  /**
   * Asks whether {@code uri} changed since {@code known} (its ETag and Last-Modified as {@code
   * If-None-Match} and {@code If-Modified-Since}; {@code null} asks unconditionally): a 304 is "not
   * modified"; a 2xx gives the content's validators and type and its body is not read. Statuses are
   * errors as in {@link #get}.
   */
  Probe probe(URI uri, Validator known) throws IOException {
    List<URI> chain = new ArrayList<>();
    chain.add(uri);
    URI u = uri;
    while (true) {
      HttpRequest.Builder rb =
          HttpRequest.newBuilder(u)
              .GET()
              .timeout(options.stallTimeout)
              .header("User-Agent", "spindex-fetch")
              .header("Accept-Encoding", "identity");
      authorize(rb, uri, u);
      if (known != null && known.etag != null) {
        rb.header("If-None-Match", known.etag);
      }
      if (known != null && known.lastModified != null) {
        rb.header("If-Modified-Since", known.lastModified);
      }
      HttpResponse<InputStream> r = send(u, rb.build());
      int status = r.statusCode();
      if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
        r.body().close();
        u = redirect(chain, u, r);
        continue;
      }
      Response response = new Response(u, r);
      response.close();
      if (status == 304) {
        return new Probe(true, known, null, u);
      }
      if (status / 100 == 2) {
        return new Probe(
            false,
            response.validator(response.contentLength()),
            response.header("Content-Type"),
            u);
      }
      String what = "HTTP " + status + reason(status) + ": " + u;
      if (status >= 500 || status == 408 || status == 429) {
        throw new FetchException(Kind.RETRY, what, null, retryAfterMillis(r), status);
      }
      throw new FetchException(Kind.FATAL, what, null, -1, status);
    }
  }

  /**
   * Adds the {@code Authorization} header when {@code u} is on the origin (scheme, host, port) of
   * {@code asked}, the URL the caller asked for: credentials never follow a redirect elsewhere.
   */
  private void authorize(HttpRequest.Builder rb, URI asked, URI u) {
    if (options.authorization != null
        && asked.getScheme().equalsIgnoreCase(u.getScheme())
        && asked.getHost().equalsIgnoreCase(u.getHost())
        && asked.getPort() == u.getPort()) {
      rb.header("Authorization", options.authorization);
    }
  }

  private URI redirect(List<URI> chain, URI from, HttpResponse<InputStream> r)
      throws FetchException {
    String location = r.headers().firstValue("Location").orElse(null);
    if (location == null) {
      throw new FetchException(
          Kind.FATAL, "HTTP " + r.statusCode() + " without a Location header: " + from);
    }
    URI next;
    try {
      next = from.resolve(location.trim());
    } catch (IllegalArgumentException e) {
      throw new FetchException(
          Kind.FATAL, "redirect to an invalid URL '" + location + "' from " + from);
    }
    if ("https".equalsIgnoreCase(from.getScheme()) && !"https".equalsIgnoreCase(next.getScheme())) {
      throw new FetchException(
          Kind.FATAL, "refusing a redirect from https to " + next.getScheme() + ": " + next);
    }
    if (chain.contains(next)) {
      chain.add(next);
      throw new FetchException(Kind.FATAL, "redirect loop: " + String.join(" -> ", names(chain)));
    }
    chain.add(next);
    if (chain.size() - 1 > options.maxRedirects) {
      throw new FetchException(
          Kind.FATAL,
          "more than " + options.maxRedirects + " redirects: " + String.join(" -> ", names(chain)));
    }
    return next;
  }

  private HttpResponse<InputStream> send(URI u, HttpRequest request) throws IOException {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted: " + u);
    } catch (HttpTimeoutException e) {
      throw new FetchException(
          Kind.RETRY, "no response within " + seconds(options.stallTimeout) + ": " + u, e);
    } catch (SSLHandshakeException e) {
      // A certificate the JVM does not trust, or a host name it does not match: retrying cannot
      // help, and there is no switch to skip the check.
      throw new FetchException(
          Kind.FATAL, "TLS handshake with " + u.getHost() + " failed: " + rootMessage(e), e);
    } catch (ConnectException e) {
      throw new FetchException(Kind.RETRY, "cannot connect: " + u + " (" + rootMessage(e) + ")", e);
    } catch (IOException e) {
      throw new FetchException(
          Kind.RETRY, "connection failed: " + u + " (" + rootMessage(e) + ")", e);
    }
  }

  static String rootMessage(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    String m = c.getMessage();
    return m == null || m.isEmpty() ? c.getClass().getSimpleName() : m;
  }

  static String seconds(java.time.Duration d) {
    return String.format(Locale.ROOT, "%.3g s", d.toMillis() / 1000.0);
  }

  private static long retryAfterMillis(HttpResponse<?> r) {
    String v = r.headers().firstValue("Retry-After").orElse(null);
    if (v != null && v.trim().matches("\\d{1,6}")) {
      return Long.parseLong(v.trim()) * 1000;
    }
    return -1;
  }

  private static List<String> names(List<URI> chain) {
    List<String> s = new ArrayList<>();
    for (URI u : chain) {
      s.add(u.toString());
    }
    return s;
  }

  static String reason(int status) {
    switch (status) {
      case 400:
        return " Bad Request";
      case 401:
        return " Unauthorized";
      case 403:
        return " Forbidden";
      case 404:
        return " Not Found";
      case 408:
        return " Request Timeout";
      case 410:
        return " Gone";
      case 416:
        return " Range Not Satisfiable";
      case 429:
        return " Too Many Requests";
      case 500:
        return " Internal Server Error";
      case 502:
        return " Bad Gateway";
      case 503:
        return " Service Unavailable";
      case 504:
        return " Gateway Timeout";
      default:
        return "";
    }
  }
}
