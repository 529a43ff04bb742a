/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index.load;

import io.spindex.index.CorruptIndexException;
import io.spindex.index.IndexHeader;
import io.spindex.index.Layout;
import io.spindex.index.Murmur3;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Private, host-local copies of index files, which the {@code mapped} loader maps instead of the
 * files themselves.
 *
 * <p>Why: a mapping shares the file's pages. A file written over in place ({@code cp new.spx
 * live.spx} truncates the same inode, then writes it) changes or drops those pages under every
 * reader: a read of a dropped page raises {@code SIGBUS}, which HotSpot turns into an {@code
 * InternalError} ("a fault occurred in a recent unsafe memory access operation") thrown
 * <em>asynchronously</em>, at some later point in the reading thread, often after the lookup has
 * returned garbage; Spark treats that error as fatal. No check in a lookup can catch it or tell a
 * torn answer from a right one. A snapshot is written once, by Spindex only, under a temporary name
 * that is renamed into place, so nothing ever writes the inode a reader maps; whatever happens to
 * the original, a reader answers from the version it mapped.
 *
 * <p>A snapshot is named by the original's path and content (header checksum, which covers every
 * section checksum, and length), so every JVM on the host that maps the same version of the same
 * file maps the same snapshot and shares its page cache; only the first one pays the copy. A new
 * version of a file deletes the older snapshots of that path, and snapshots no load has used for a
 * day; a JVM deletes the snapshots it made when it exits; a JVM that still maps a deleted snapshot
 * keeps its pages until it lets go. The directory is {@code spindex.snapshot.dir} when that system
 * property is set, else {@code spindex-snapshots-USER} under {@code java.io.tmpdir}, readable by
 * its owner only (see {@link #directory()}).
 */
final class Snapshots {
  private static final int COPY_BUFFER_BYTES = 1 << 20;

  /** A snapshot no load has used for this long is deleted by the next new snapshot. */
  static final long UNUSED_MILLIS = TimeUnit.DAYS.toMillis(1);

  /** The system property that names the snapshot directory. */
  static final String DIR_PROPERTY = "spindex.snapshot.dir";

  /**
   * Files that are copies an engine made for this JVM's application (Spark's {@code SparkFiles}, a
   * staged copy, a MapReduce cache file), by absolute path: nothing writes them in place, so they
   * are mapped as they are, without a snapshot. Only a user's own file pays the copy.
   */
  private static final java.util.Set<Path> PRIVATE_COPIES =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private Snapshots() {}

  static void privateCopy(Path file) {
    PRIVATE_COPIES.add(file.toAbsolutePath().normalize());
  }

  static boolean isPrivateCopy(Path file) {
    return !PRIVATE_COPIES.isEmpty() && PRIVATE_COPIES.contains(file.toAbsolutePath().normalize());
  }

  /**
   * A private snapshot of {@code file}, open as {@code source} (whose header, validated, is {@code
   * header}; {@code opened} is what a {@code stat} of the path told just before it was opened): an
   * existing one of the same version, or a fresh copy of {@code source}.
   *
   * @throws CorruptIndexException naming {@code file} when it was written in place while it was
   *     copied
   */
  static Path of(Path file, FileChannel source, IndexHeader header, Stat opened)
      throws IOException {
    Path dir = directory();
    String prefix = prefixOf(file);
    Path snapshot =
        dir.resolve(
            prefix
                + "-"
                + Layout.crcHex(header.headerCrc32c()).replace(" ", "")
                + "-"
                + header.fileLength()
                // The file's own version too (its inode and modification time): the same header
                // over other section bytes (a damaged copy, then a good one) is another snapshot.
                + "-"
                + Integer.toHexString(Objects.hash(opened.key, opened.modifiedNanos))
                + ".spx");
    if (Files.isRegularFile(snapshot) && Files.size(snapshot) == header.fileLength()) {
      // Marks it used, for the sweep of snapshots no load has used for a day.
      Files.setLastModifiedTime(snapshot, FileTime.fromMillis(System.currentTimeMillis()));
      return snapshot;
    }
    Path tmp = Files.createTempFile(dir, "." + prefix + "-", ".tmp");
    try {
      long copied = copy(source, tmp);
      Stat after = Stat.of(file);
      // Another inode under the path: replaced by a rename, which leaves the one copied alone.
      boolean inPlace = Objects.equals(after.key, opened.key) && !after.equals(opened);
      if (inPlace || copied != header.fileLength()) {
        throw changedWhileInUse(
            file,
            "it was written while it was copied: "
                + opened
                + " before, "
                + after
                + " after, "
                + copied
                + " of "
                + header.fileLength()
                + " bytes copied");
      }
      // Replaces a copy of the same version another JVM renamed into place meanwhile; a reader
      // that maps that one keeps its inode.
      Files.move(tmp, snapshot, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
    // A JVM that still maps a snapshot deleted here keeps its pages; a later load copies again.
    snapshot.toFile().deleteOnExit();
    deleteOlderVersions(dir, prefix, snapshot);
    return snapshot;
  }

  /**
   * Copies {@code source} to {@code target} with positional reads, never through a mapping: a file
   * cut short while it is copied makes a short copy, not a fault.
   */
  private static long copy(FileChannel source, Path target) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocateDirect(COPY_BUFFER_BYTES);
    long pos = 0;
    try (FileChannel out = FileChannel.open(target, StandardOpenOption.WRITE)) {
      while (true) {
        buffer.clear();
        int n = source.read(buffer, pos);
        if (n < 0) {
          return pos;
        }
        buffer.flip();
        while (buffer.hasRemaining()) {
          out.write(buffer);
        }
        pos += n;
      }
    }
  }

  /**
   * The error for a file that changed under a reader: one line, naming the file and saying how to
   * replace an index safely.
   */
  static CorruptIndexException changedWhileInUse(Path file, String detail) {
    return new CorruptIndexException(
        file + ": changed while in use; replace indexes by renaming (" + detail + ")");
  }

  /**
   * The snapshot directory, created readable by its owner only where the file system can. A
   * directory of that name that another user owns, or that others may write (a shared temporary
   * directory is writable by all), is not used: whoever can write there could write a snapshot in
   * place; this JVM then keeps its snapshots in a private directory of its own.
   */
  static Path directory() throws IOException {
    String configured = System.getProperty(DIR_PROPERTY);
    Path dir =
        configured != null && !configured.isEmpty()
            ? Paths.get(configured)
            : Paths.get(
                System.getProperty("java.io.tmpdir"),
                "spindex-snapshots-" + System.getProperty("user.name", "user"));
    Checked known = checked;
    if (known != null && known.asked.equals(dir)) {
      return known.use;
    }
    synchronized (Snapshots.class) {
      if (checked == null || !checked.asked.equals(dir)) {
        checked = new Checked(dir, privateOrOwn(dir));
      }
      return checked.use;
    }
  }

  /** The directory asked for and the one used (itself, or this JVM's own). */
  private static final class Checked {
    final Path asked;
    final Path use;

    Checked(Path asked, Path use) {
      this.asked = asked;
      this.use = use;
    }
  }

  private static volatile Checked checked;

  private static Path privateOrOwn(Path dir) throws IOException {
    boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    if (!posix) {
      Files.createDirectories(dir);
      return dir;
    }
    try {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (FileAlreadyExistsException notADirectory) {
      return Files.createTempDirectory("spindex-snapshots-");
    }
    Path probe;
    try {
      probe = Files.createTempFile(dir, ".owner-", ".tmp");
    } catch (AccessDeniedException someoneElses) {
      return Files.createTempDirectory("spindex-snapshots-");
    }
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
      boolean othersWrite =
          perms.contains(PosixFilePermission.GROUP_WRITE)
              || perms.contains(PosixFilePermission.OTHERS_WRITE);
      if (othersWrite || !Files.getOwner(dir).equals(Files.getOwner(probe))) {
        return Files.createTempDirectory("spindex-snapshots-");
      }
      return dir;
    } finally {
      Files.deleteIfExists(probe);
    }
  }

  /** The part of a snapshot's name that names the original: a hash of its absolute path. */
  static String prefixOf(Path file) {
    byte[] path = file.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8);
    return String.format(Locale.ROOT, "%016x", Murmur3.hash64(path, 0, path.length));
  }

  /**
   * Deletes the other versions' snapshots of the same file, and every snapshot (or temporary file a
   * crashed copy left) that no load has used for {@link #UNUSED_MILLIS}: the originals of those (a
   * Spark application's shipped files, a test's temporary directory) may be long gone. Best effort:
   * a snapshot another JVM maps keeps its pages, and a failure here harms nothing.
   */
  private static void deleteOlderVersions(Path dir, String prefix, Path keep) {
    long unusedSince = System.currentTimeMillis() - UNUSED_MILLIS;
    try (DirectoryStream<Path> all = Files.newDirectoryStream(dir)) {
      for (Path p : all) {
        String name = p.getFileName().toString();
        if (p.getFileName().equals(keep.getFileName())) {
          continue;
        }
        boolean oldVersion = name.startsWith(prefix + "-") && name.endsWith(".spx");
        if (oldVersion || Files.getLastModifiedTime(p).toMillis() < unusedSince) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException ignored) {
      // Left for the next new snapshot to delete.
    }
  }

  /** What a {@code stat} tells of a file's version: file key (device, inode), size, time. */
  static final class Stat {
    final Object key;
    final long size;
    final long modifiedNanos;

    private Stat(Object key, long size, long modifiedNanos) {
      this.key = key;
      this.size = size;
      this.modifiedNanos = modifiedNanos;
    }

    static Stat of(Path p) throws IOException {
      BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
      return new Stat(a.fileKey(), a.size(), a.lastModifiedTime().to(TimeUnit.NANOSECONDS));
    }

    /** The same version of a file: equal, and the file system tells a file key (an inode). */
    boolean sameAs(Stat o) {
      return key != null && equals(o);
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Stat)) {
        return false;
      }
      Stat s = (Stat) o;
      return Objects.equals(key, s.key) && size == s.size && modifiedNanos == s.modifiedNanos;
    }

    @Override
    public int hashCode() {
      return Objects.hash(key, size, modifiedNanos);
    }

    @Override
    public String toString() {
      return size + " bytes, modified " + modifiedNanos + " ns";
    }
  }
}
