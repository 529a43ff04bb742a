/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.hadoop;

import io.spindex.annotations.Internal;
import io.spindex.ep.feed.EpHeader;
import io.spindex.index.IndexHeader;
import io.spindex.index.load.IndexVerifier;
import io.spindex.index.load.KeptVersions;
import io.spindex.job.Driver;
import io.spindex.job.SideFile;
import io.spindex.job.UsageException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The driver side of a job on a Hadoop engine: side data is shipped by the engine's own mechanism
 * (the two hooks), found on any Hadoop file system, and its header read on the driver before the
 * job starts, so a missing or damaged index is one line naming the user's path, not a failed task.
 * Not thread-safe; one per job run.
 */
@Internal
public abstract class HadoopDriver implements Driver {
  protected final Configuration conf;

  /** Where the driver itself reads each shipped file. */
  private final Map<SideFile, Path> onDriver = new HashMap<>();

  protected HadoopDriver(Configuration conf) {
    this.conf = conf;
  }

  /**
   * The URI of a file the user shipped with the engine's own option ({@code --files}, {@code
   * -files}) that {@code path} names (by its name or its path), or null.
   */
  protected abstract URI shipped(String path);

  /** Ships local file {@code file} with the engine; returns the name tasks find it by. */
  protected abstract String ship(java.nio.file.Path file) throws IOException;

  /** Called for every staged file (MapReduce localises it through the distributed cache). */
  protected void staged(SideFile f) {}

  @Override
  public final SideFile ship(String path, String how) throws IOException {
    URI shipped = shipped(path);
    if (shipped == null) {
      // The version the file is now, by the immutable copy spindex update keeps of it when there
      // is one: tasks then read that version whatever happens to the published file meanwhile,
      // and a new version goes out under a new name (engines ship one file a name).
      String kept = keptVersion(conf, path);
      if (kept != null) {
        path = kept;
      }
    }
    URI uri = new Path(path).toUri();
    boolean local = uri.getScheme() == null || uri.getScheme().equals("file");
    switch (how) {
      case "auto":
        if (shipped != null) {
          return alreadyShipped(path, shipped);
        }
        return local ? shipLocal(path, uri) : stage(path);
      case "files":
        if (shipped != null) {
          return alreadyShipped(path, shipped);
        }
        if (!local) {
          throw new UsageException(
              path
                  + ": --index-ship files takes a local file or one shipped with --files;"
                  + " use stage (or auto) for a Hadoop path");
        }
        return shipLocal(path, uri);
      case "stage":
        return stage(path);
      case "local":
        java.nio.file.Path p = Paths.get(local ? uri.getPath() : path).toAbsolutePath();
        SideFile f = new SideFile(path, SideFile.Ship.LOCAL, p.toString(), -1, -1);
        onDriver.put(f, new Path(p.toUri()));
        return f;
      default:
        throw new UsageException("--index-ship '" + how + "': expected auto, files, stage, local");
    }
  }

  /**
   * The header checksum of the index at {@code path} (any Hadoop path) as it is now: its header and
   * directory read (a few hundred bytes), nothing checked beyond them.
   */
  public static int headerCrc(Configuration conf, String path) throws IOException {
    Path p = new Path(path);
    FileSystem fs = p.getFileSystem(conf);
    FileStatus st = fs.getFileStatus(p);
    try (java.io.InputStream in = fs.open(p)) {
      return IndexHeader.read(in, st.getLen(), Paths.get(p.getName())).headerCrc32c();
    }
  }

  /**
   * The kept version ({@link KeptVersions}) of the index {@code path} is now, as a path of the same
   * form (plain local, or a URI), or null when none is kept.
   */
  static String keptVersion(Configuration conf, String path) {
    try {
      Path p = new Path(path);
      FileSystem fs = p.getFileSystem(conf);
      Path dir = new Path(path + KeptVersions.SUFFIX);
      if (!fs.exists(dir) || !fs.getFileStatus(dir).isDirectory()) {
        return null;
      }
      int crc = headerCrc(conf, path);
      String best = null;
      for (FileStatus s : fs.listStatus(dir)) {
        String name = s.getPath().getName();
        Integer c = KeptVersions.crcOf(name);
        if (c != null && c == crc && (best == null || name.compareTo(best) > 0)) {
          best = name;
        }
      }
      if (best == null) {
        return null;
      }
      return p.toUri().getScheme() == null
          ? Paths.get(path + KeptVersions.SUFFIX, best).toString()
          : new Path(dir, best).toString();
    } catch (IOException | IllegalArgumentException e) {
      return null; // the published file itself, as without kept versions
    }
  }

  private SideFile alreadyShipped(String path, URI shipped) throws IOException {
    String name =
        shipped.getFragment() != null ? shipped.getFragment() : new Path(shipped).getName();
    FileStatus st =
        status(path, new Path(shipped.getScheme(), shipped.getAuthority(), shipped.getPath()));
    SideFile f = new SideFile(path, SideFile.Ship.FILES, name, st.getLen(), -1);
    onDriver.put(f, st.getPath());
    return f;
  }

  private SideFile shipLocal(String path, URI uri) throws IOException {
    java.nio.file.Path p = Paths.get(uri.getPath()).toAbsolutePath();
    FileStatus st = status(path, new Path(p.toUri()));
    if (!st.isFile()) {
      throw new FileNotFoundException(path + ": not a file");
    }
    SideFile f = new SideFile(path, SideFile.Ship.FILES, ship(p), st.getLen(), -1);
    onDriver.put(f, st.getPath());
    return f;
  }

  private SideFile stage(String path) throws IOException {
    FileStatus st = status(path, new Path(path));
    SideFile f =
        new SideFile(
            path,
            SideFile.Ship.STAGE,
            st.getPath().toString(),
            st.getLen(),
            st.getModificationTime());
    onDriver.put(f, st.getPath());
    staged(f);
    return f;
  }

  private FileStatus status(String given, Path p) throws IOException {
    FileSystem fs = p.getFileSystem(conf);
    try {
      FileStatus st = fs.getFileStatus(p);
      return new FileStatus(
          st.getLen(),
          st.isDirectory(),
          st.getReplication(),
          st.getBlockSize(),
          st.getModificationTime(),
          fs.makeQualified(p));
    } catch (FileNotFoundException e) {
      throw new FileNotFoundException(
          given
              + ": no such file ("
              + fs.makeQualified(p)
              + "); give a local file, one shipped with --files / -files, or a path on the"
              + " cluster's file system");
    }
  }

  @Override
  public IndexHeader indexHeader(SideFile f) throws IOException {
    Path p = onDriver.get(f);
    if (p == null) {
      throw new IllegalArgumentException(f + " was not shipped by this driver");
    }
    if (f.ship() == SideFile.Ship.LOCAL && !p.getFileSystem(conf).exists(p)) {
      throw new FileNotFoundException(
          f.given() + ": no such file on the driver (--index-ship local needs it on every node)");
    }
    FileSystem fs = p.getFileSystem(conf);
    // The file is checked here as every loader checks it at open (header, every section checksum,
    // label ids within the dictionary, offsets in order), so that a damaged file is one line
    // naming the user's path before anything is shipped or created, not a failed task naming a
    // copy, and no loader that skips the checks on the executors (mapped-unchecked) ever sees it.
    // A file on another file system is copied to local disk for it, never held in memory.
    java.nio.file.Path local;
    java.nio.file.Path copy = null;
    if ("file".equals(fs.getScheme())) {
      local = Paths.get(fs.makeQualified(p).toUri());
    } else {
      copy = java.nio.file.Files.createTempFile("spindex-check-", ".spx");
      local = copy;
      try (InputStream in = fs.open(p)) {
        java.nio.file.Files.copy(in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException | RuntimeException e) {
        java.nio.file.Files.deleteIfExists(copy);
        throw e;
      }
    }
    try {
      // The user's own file through a private snapshot (it may be written in place meanwhile);
      // the driver's copy of a remote one mapped as it is.
      return copy == null
          ? IndexVerifier.opened(local, f.given())
          : IndexVerifier.checksums(local, f.given());
    } finally {
      if (copy != null) {
        java.nio.file.Files.deleteIfExists(copy);
      }
    }
  }

  @Override
  public EpHeader firstEpHeader(String input) throws IOException {
    return HadoopIo.firstEpHeader(conf, input);
  }
}
