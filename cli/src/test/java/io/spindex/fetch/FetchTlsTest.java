/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.fetch;

import static io.spindex.fetch.FetchTestSupport.content;
import static io.spindex.fetch.FetchTestSupport.quick;
import static io.spindex.fetch.FetchTestSupport.sha256;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spindex.fetch.FetchTestSupport.Notes;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS is verified: a self-signed certificate (made with the JDK's keytool) is refused by default,
 * accepted only when the caller trusts it, and refused for the wrong host name.
 */
class FetchTlsTest {
  private static final char[] PASSWORD = "changeit".toCharArray();

  @TempDir static Path keys;
  @TempDir Path dir;

  static KeyStore good;
  static KeyStore wrongName;

  @BeforeAll
  static void makeCertificates() throws Exception {
    good = keytool("good.p12", "ip:127.0.0.1");
    wrongName = keytool("wrong.p12", "dns:example.invalid");
  }

  private static KeyStore keytool(String file, String san) throws Exception {
    Path ks = keys.resolve(file);
    Process p =
        new ProcessBuilder(
                Paths.get(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "test",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=spindex-test",
                "-ext",
                "SAN=" + san,
                "-keystore",
                ks.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                new String(PASSWORD),
                "-keypass",
                new String(PASSWORD))
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), output);
    KeyStore k = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(ks)) {
      k.load(in, PASSWORD);
    }
    return k;
  }

  private static SSLContext serverContext(KeyStore ks) throws Exception {
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, PASSWORD);
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(kmf.getKeyManagers(), null, null);
    return c;
  }

  private static SSLContext trusting(KeyStore ks) throws Exception {
    Certificate cert = ks.getCertificate("test");
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("test", cert);
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(null, tmf.getTrustManagers(), null);
    return c;
  }

  @Test
  void untrustedCertificateIsRefusedWithoutRetrying() throws Exception {
    byte[] data = content(100_000, 3);
    try (TestServer server = TestServer.https(data, serverContext(good))) {
      FetchException e =
          assertThrows(
              FetchException.class,
              () ->
                  new Fetcher(quick(new Notes()).build())
                      .fetch(server.uri("/f"), dir.resolve("f.bin")));
      assertEquals(
          "TLS handshake with 127.0.0.1 failed: unable to find valid certification path to"
              + " requested target",
          e.getMessage());
      assertEquals(0, server.requests());
      assertEquals(false, Files.exists(dir.resolve("f.bin.part")));
    }
  }

  @Test
  void trustedCertificateWorks() throws Exception {
    byte[] data = content(3 << 20, 4);
    try (TestServer server = TestServer.https(data, serverContext(good))) {
      FetchResult r =
          new Fetcher(quick(new Notes()).sslContext(trusting(good)).parallel(3).build())
              .fetch(server.uri("/f"), dir.resolve("f.bin"));
      assertEquals(sha256(data), sha256(dir.resolve("f.bin")));
      assertEquals(3, r.connections());
    }
  }

  @Test
  void certificateForAnotherHostIsRefused() throws Exception {
    try (TestServer server = TestServer.https(content(10, 5), serverContext(wrongName))) {
      FetchException e =
          assertThrows(
              FetchException.class,
              () ->
                  new Fetcher(quick(new Notes()).sslContext(trusting(wrongName)).build())
                      .fetch(server.uri("/f"), dir.resolve("f.bin")));
      assertEquals(
          "TLS handshake with 127.0.0.1 failed: No subject alternative names matching IP address"
              + " 127.0.0.1 found",
          e.getMessage());
    }
  }

  @Test
  void redirectFromHttpsToHttpIsRefused() throws Exception {
    try (TestServer plain = TestServer.http(content(10, 6));
        TestServer server = TestServer.https(content(10, 6), serverContext(good))) {
      server.redirects.put("/a", plain.uri("/f").toString());
      FetchException e =
          assertThrows(
              FetchException.class,
              () ->
                  new Fetcher(quick(new Notes()).sslContext(trusting(good)).build())
                      .fetch(server.uri("/a"), dir.resolve("f.bin")));
      assertEquals("refusing a redirect from https to http: " + plain.uri("/f"), e.getMessage());
      assertEquals(0, plain.requests());
    }
  }
}
