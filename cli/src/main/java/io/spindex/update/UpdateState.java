/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.update;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValueFactory;
import io.spindex.index.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an updater remembers between runs, in {@code OUT.spx.versions/state.json}: each source's
 * validators (ETag, Last-Modified), the SHA-256 of its content and its local copy; the header
 * checksum of the version it published; and the source digests a rollback turned away, so that the
 * next run does not publish them again. A missing or unreadable file is an empty state: the next
 * run downloads and builds, which is always safe. Mutable; not thread-safe (the update lock
 * serialises its users).
 */
final class UpdateState {
  /** One source's record. */
  static final class Source {
    String etag;
    String lastModified;
    String sha256;

    /** The local copy (a download, or a database taken out of an archive), or null. */
    String copy;

    /** Whether {@code URL.sha256} answers with the content's SHA-256. */
    boolean sha256Beside;

    /** {@link #sha256} of the content the published version was built from, or null. */
    String publishedSha256;
  }

  final Map<String, Source> sources = new LinkedHashMap<>();

  /** The header checksum of the version this updater published last, or null. */
  String published;

  /** Source digests (hex) of versions rolled back from: not published again. */
  final List<String> rolledBack = new ArrayList<>();

  static UpdateState read(Path file) {
    UpdateState s = new UpdateState();
    if (!Files.isRegularFile(file)) {
      return s;
    }
    try {
      Config c =
          ConfigFactory.parseFile(
              file.toFile(), ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON));
      if (c.hasPath("published")) {
        s.published = c.getString("published");
      }
      if (c.hasPath("rolled-back")) {
        s.rolledBack.addAll(c.getStringList("rolled-back"));
      }
      if (c.hasPath("sources")) {
        for (Config e : c.getConfigList("sources")) {
          Source r = new Source();
          r.etag = optional(e, "etag");
          r.lastModified = optional(e, "last-modified");
          r.sha256 = optional(e, "sha256");
          r.copy = optional(e, "copy");
          r.sha256Beside = e.hasPath("sha256-beside") && e.getBoolean("sha256-beside");
          r.publishedSha256 = optional(e, "published-sha256");
          s.sources.put(e.getString("source"), r);
        }
      }
      return s;
    } catch (ConfigException e) {
      return new UpdateState(); // damaged: start afresh (download and build again)
    }
  }

  private static String optional(Config c, String key) {
    return c.hasPath(key) ? c.getString(key) : null;
  }

  /** The record of {@code source}, made empty on first use. */
  Source source(String source) {
    return sources.computeIfAbsent(source, k -> new Source());
  }

  void write(Path file) throws IOException {
    List<Map<String, Object>> list = new ArrayList<>();
    for (Map.Entry<String, Source> e : sources.entrySet()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("source", e.getKey());
      Source r = e.getValue();
      put(m, "etag", r.etag);
      put(m, "last-modified", r.lastModified);
      put(m, "sha256", r.sha256);
      put(m, "copy", r.copy);
      if (r.sha256Beside) {
        m.put("sha256-beside", true);
      }
      put(m, "published-sha256", r.publishedSha256);
      list.add(m);
    }
    Map<String, Object> root = new LinkedHashMap<>();
    put(root, "published", published);
    root.put("rolled-back", rolledBack);
    root.put("sources", list);
    String json =
        ConfigValueFactory.fromMap(root)
            .render(ConfigRenderOptions.concise().setFormatted(true).setJson(true));
    Path tmp = AtomicFiles.createTemp(file);
    try {
      Files.write(tmp, json.getBytes(StandardCharsets.UTF_8));
      AtomicFiles.commit(tmp, file);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static void put(Map<String, Object> m, String key, String value) {
    if (value != null) {
      m.put(key, value);
    }
  }
}
