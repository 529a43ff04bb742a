/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.builder;

import io.spindex.text.Gzip;
import io.spindex.text.InputException;
import io.spindex.text.LineReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;

/**
 * Reads source text files in parallel: a plain file is cut into one piece per thread, each cut
 * moved to the next line start, and each piece is read by its own {@link LineReader} into its own
 * sink; gzip files (recognised by their first bytes, {@link Gzip}) are read whole by one thread.
 * Meanwhile the SHA-256 of all the source bytes (as stored, in argument order) is computed, so the
 * index records what it was built from: the same value as {@code cat IN... | sha256sum}.
 */
final class SourceScan {
  /** Pieces smaller than this are not split further. */
  private static final long MIN_PIECE_BYTES = 8L << 20;

  /** A per-piece line consumer with its own rejects. */
  interface PieceSink extends LineReader.Sink {
    Rejects rejects();
  }

  /**
   * What a sink factory is told about the piece it will read. Serializable with its sink, for a
   * distributed build; the file is then known by its name only.
   */
  static final class Piece implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    final int fileIndex;
    final transient Path file;
    final long start;
    final long end;
    final boolean gzip;
    private final String name;
    long lines;

    Piece(int fileIndex, Path file, long start, long end, boolean gzip) {
      this.fileIndex = fileIndex;
      this.file = file;
      this.start = start;
      this.end = end;
      this.gzip = gzip;
      this.name = file.toString();
    }

    /** A piece read elsewhere (a split of a distributed build): its input's name and its start. */
    Piece(int fileIndex, String name, long start) {
      this.fileIndex = fileIndex;
      this.file = null;
      this.start = start;
      this.end = 0;
      this.gzip = false;
      this.name = name;
    }

    String name() {
      return name;
    }
  }

  /** The outcome: sinks in file order, merged rejects (lines numbered per file), the digest. */
  static final class Result<S extends PieceSink> {
    final List<S> sinks;
    final Rejects rejects;
    final long lines;
    final long bytes;
    final byte[] digest;

    Result(List<S> sinks, Rejects rejects, long lines, long bytes, byte[] digest) {
      this.sinks = sinks;
      this.rejects = rejects;
      this.lines = lines;
      this.bytes = bytes;
      this.digest = digest;
    }
  }

  private SourceScan() {}

  static <S extends PieceSink> Result<S> scan(
      List<Path> inputs, int threads, Function<Piece, S> factory, LongAdder progress)
      throws IOException {
    List<Piece> pieces = new ArrayList<>();
    long bytes = 0;
    for (int i = 0; i < inputs.size(); i++) {
      Path in = inputs.get(i);
      if (Files.isDirectory(in)) {
        throw new InputException(in + ": a directory, not a file");
      }
      if (!Files.isRegularFile(in)) {
        throw new NoSuchFileException(in.toString(), null, "no such file (or not a regular file)");
      }
      long size = Files.size(in);
      bytes += size;
      if (isGzip(in)) {
        pieces.add(new Piece(i, in, 0, size, true));
      } else {
        cut(i, in, size, threads, pieces);
      }
    }
    List<S> sinks = new ArrayList<>(pieces.size());
    for (Piece p : pieces) {
      sinks.add(factory.apply(p));
    }
    // The digest has a thread of its own: with one reader thread, pieces are read one after
    // another in input order, which the range builder's shared rows and overlap policies need.
    ExecutorService pool = Executors.newFixedThreadPool(threads, SourceScan::daemon);
    ExecutorService digester = Executors.newSingleThreadExecutor(SourceScan::daemon);
    try {
      Future<byte[]> digest = digester.submit(() -> sha256(inputs));
      List<Future<Long>> lines = new ArrayList<>();
      for (int k = 0; k < pieces.size(); k++) {
        Piece p = pieces.get(k);
        S sink = sinks.get(k);
        lines.add(pool.submit(() -> read(p, sink, progress)));
      }
      Rejects rejects = new Rejects();
      long total = 0;
      long fileLines = 0;
      for (int k = 0; k < pieces.size(); k++) {
        Piece p = pieces.get(k);
        if (k > 0 && pieces.get(k - 1).fileIndex != p.fileIndex) {
          fileLines = 0;
        }
        p.lines = get(lines.get(k));
        rejects.addAll(sinks.get(k).rejects(), fileLines);
        fileLines += p.lines;
        total += p.lines;
      }
      return new Result<>(sinks, rejects, total, bytes, get(digest));
    } finally {
      pool.shutdownNow();
      digester.shutdownNow();
    }
  }

  /** Whether a source is gzip: by its first bytes, whatever its name ({@link Gzip}). */
  static boolean isGzip(Path p) throws IOException {
    return Gzip.is(p);
  }

  private static long read(Piece p, LineReader.Sink sink, LongAdder progress) throws IOException {
    LineReader reader = new LineReader(progress);
    if (p.gzip) {
      try (InputStream in =
          new GZIPInputStream(new BufferedInputStream(Files.newInputStream(p.file), 1 << 16))) {
        return reader.read(Channels.newChannel(in), -1, true, sink);
      } catch (java.util.zip.ZipException | java.io.EOFException e) {
        // "Unexpected end of ZLIB input stream" and the like say nothing of which file it was.
        throw Gzip.incomplete(p.file.toString(), e);
      }
    }
    try (FileChannel ch = FileChannel.open(p.file, StandardOpenOption.READ)) {
      ch.position(p.start);
      return reader.read(ch, p.end - p.start, p.start == 0, sink);
    }
  }

  /** Cuts a plain file into pieces that each start at a line start. */
  private static void cut(int index, Path file, long size, int threads, List<Piece> out)
      throws IOException {
    int n = (int) Math.max(1, Math.min(threads, size / MIN_PIECE_BYTES));
    long prev = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer probe = ByteBuffer.allocate(1 << 16);
      for (int k = 1; k < n; k++) {
        long at = Math.max(prev, size * k / n);
        long cutAt = nextLineStart(ch, at, size, probe);
        if (cutAt > prev && cutAt < size) {
          out.add(new Piece(index, file, prev, cutAt, false));
          prev = cutAt;
        }
      }
    }
    out.add(new Piece(index, file, prev, size, false));
  }

  /** The first position {@code >= at} that starts a line (follows a LF), or {@code size}. */
  private static long nextLineStart(FileChannel ch, long at, long size, ByteBuffer probe)
      throws IOException {
    long pos = at - 1;
    while (pos < size) {
      probe.clear();
      int n = ch.read(probe, pos);
      if (n <= 0) {
        return size;
      }
      for (int i = 0; i < n; i++) {
        if (probe.get(i) == '\n') {
          return pos + i + 1;
        }
      }
      pos += n;
    }
    return size;
  }

  private static byte[] sha256(List<Path> inputs) throws IOException {
    MessageDigest md = sha256();
    byte[] buf = new byte[1 << 20];
    for (Path p : inputs) {
      try (InputStream in = new DigestInputStream(Files.newInputStream(p), md)) {
        while (in.read(buf) >= 0) {
          // DigestInputStream updates the digest as it reads.
        }
      }
    }
    return md.digest();
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private static <T> T get(Future<T> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      if (c instanceof UncheckedIOException) {
        throw ((UncheckedIOException) c).getCause();
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw new IOException(c);
    }
  }

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r, "spindex-scan");
    t.setDaemon(true);
    return t;
  }
}
