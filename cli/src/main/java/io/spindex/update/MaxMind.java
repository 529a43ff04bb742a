/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import io.spindex.text.InputException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * MaxMind's download form, as {@code geoipupdate} uses it: {@code
 * BASE/geoip/databases/EDITION/download?suffix=tar.gz} with HTTP basic authentication (account id,
 * license key), a {@code .tar.gz} that holds {@code EDITION_DATE/EDITION.mmdb}, and its SHA-256 at
 * {@code ?suffix=tar.gz.sha256}. {@code BASE} is {@value #DEFAULT_BASE} unless {@value #BASE_ENV}
 * sets it. The credentials come from {@value #ACCOUNT_ENV} and {@value #KEY_ENV}, or from a {@code
 * GeoIP.conf}-style file ({@code AccountID} and {@code LicenseKey} lines); they are sent only to
 * {@code BASE}'s host and appear in no message.
 */
final class MaxMind {
  static final String DEFAULT_BASE = "https://download.maxmind.com";
  static final String BASE_ENV = "SPINDEX_MAXMIND_URL";
  static final String ACCOUNT_ENV = "MAXMIND_ACCOUNT_ID";
  static final String KEY_ENV = "MAXMIND_LICENSE_KEY";

  /** The file geoipupdate reads by default, used when it exists and nothing else is set. */
  static final Path DEFAULT_CONF = Paths.get("/etc/GeoIP.conf");

  private static final Pattern EDITION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

  /** An account id and license key. {@link #toString} never shows the key. */
  static final class Credentials {
    final String accountId;
    final String licenseKey;

    Credentials(String accountId, String licenseKey) {
      this.accountId = accountId;
      this.licenseKey = licenseKey;
    }

    @Override
    public String toString() {
      return "MaxMind account " + accountId;
    }
  }

  private MaxMind() {}

  /** Whether {@code edition} is a plausible edition id (GeoLite2-City, GeoIP2-ISP, ...). */
  static boolean validEdition(String edition) {
    return EDITION.matcher(edition).matches();
  }

  static URI base(Map<String, String> env) {
    String b = env.getOrDefault(BASE_ENV, DEFAULT_BASE);
    return URI.create(b.endsWith("/") ? b.substring(0, b.length() - 1) : b);
  }

  static URI database(URI base, String edition) {
    return URI.create(base + "/geoip/databases/" + edition + "/download?suffix=tar.gz");
  }

  static URI sha256(URI base, String edition) {
    return URI.create(base + "/geoip/databases/" + edition + "/download?suffix=tar.gz.sha256");
  }

  /**
   * The credentials: {@value #ACCOUNT_ENV} and {@value #KEY_ENV} when both are set, else those of
   * {@code conf} (or {@link #DEFAULT_CONF} when {@code conf} is null and that file exists).
   *
   * @throws InputException one line saying what is missing (never a value)
   */
  static Credentials credentials(Map<String, String> env, Path conf) throws IOException {
    String id = env.get(ACCOUNT_ENV);
    String key = env.get(KEY_ENV);
    if (notBlank(id) && notBlank(key)) {
      return new Credentials(id.trim(), key.trim());
    }
    Path file = conf != null ? conf : Files.isRegularFile(DEFAULT_CONF) ? DEFAULT_CONF : null;
    if (file == null) {
      throw new InputException(
          "maxmind: needs credentials: set "
              + ACCOUNT_ENV
              + " and "
              + KEY_ENV
              + ", or give a GeoIP.conf file (--geoip-conf)");
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new InputException(file + ": no such file (the GeoIP.conf with the credentials)");
    }
    for (String line : lines) {
      String[] kv = line.trim().split("\\s+", 2);
      if (kv.length == 2 && kv[0].equals("AccountID")) {
        id = kv[1].trim();
      } else if (kv.length == 2 && kv[0].equals("LicenseKey")) {
        key = kv[1].trim();
      }
    }
    if (!notBlank(id) || !notBlank(key)) {
      throw new InputException(
          file + ": expected AccountID and LicenseKey lines (GeoIP.conf), found " + missing(id));
    }
    return new Credentials(id, key);
  }

  private static String missing(String id) {
    return notBlank(id) ? "no LicenseKey" : "no AccountID";
  }

  private static boolean notBlank(String s) {
    return s != null && !s.trim().isEmpty();
  }

  /**
   * The SHA-256 a {@code .sha256} file gives: its first word, 64 hex digits ({@code sha256sum}'s
   * form: {@code HEX NAME}).
   *
   * @throws InputException naming {@code what} when it is not that
   */
  static String sha256Of(Path file, String what) throws IOException {
    byte[] b = Files.readAllBytes(file);
    String s = new String(b, 0, Math.min(b.length, 200), StandardCharsets.UTF_8).trim();
    String first = s.split("\\s+", 2)[0].toLowerCase(java.util.Locale.ROOT);
    if (!first.matches("[0-9a-f]{64}")) {
      throw new InputException(
          what
              + ": expected a SHA-256 (64 hex digits), found '"
              + io.spindex.text.Clip.of(s)
              + "'");
    }
    return first;
  }

  /**
   * Takes the one {@code .mmdb} out of a MaxMind {@code .tar.gz} into {@code target} (atomically).
   *
   * @throws InputException naming {@code what} when the archive is not gzip, not tar, or holds no
   *     {@code .mmdb}
   */
  static void extractDatabase(Path archive, Path target, String what) throws IOException {
    Path tmp = io.spindex.index.AtomicFiles.createTemp(target);
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(archive))) {
      raw.mark(2);
      int b0 = raw.read();
      int b1 = raw.read();
      raw.reset();
      if (b0 != 0x1f || b1 != 0x8b) {
        throw new InputException(what + ": expected a .tar.gz (gzip), found other bytes");
      }
      try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(raw))) {
        TarArchiveEntry e;
        while ((e = tar.getNextEntry()) != null) {
          if (e.isFile() && e.getName().endsWith(".mmdb")) {
            try (OutputStream out = Files.newOutputStream(tmp)) {
              tar.transferTo(out);
            }
            io.spindex.index.AtomicFiles.commit(tmp, target);
            return;
          }
        }
      } catch (java.util.zip.ZipException | java.io.EOFException e) {
        throw new InputException(what + ": not a complete gzip file (" + e.getMessage() + ")");
      }
      throw new InputException(what + ": the archive holds no .mmdb file");
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
