/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep.feed;

import io.spindex.annotations.Internal;
import io.spindex.text.Bytes;
import io.spindex.text.InputException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Line-wise work on a byte stream at memory speed: the calling thread reads the input in large
 * line-aligned chunks (the tail of a partial line is carried to the next chunk), worker threads
 * process chunks in parallel, and the calling thread writes each chunk's results in input order as
 * soon as it is its turn. A few chunks are in flight at once, so memory stays bounded whatever the
 * input size, and nothing is copied twice. This is the 1BRC shape (claim big blocks, snap to line
 * ends, parse bytes) with ordered output added.
 *
 * <p>A line longer than a chunk cannot be held: the reader passes its first bytes on as an {@link
 * Chunk#oversized} chunk and skips the rest of it.
 */
@Internal
public final class ChunkPipeline {
  /** Bytes of an over-long line kept for the rejects output. */
  public static final int OVERSIZED_SAMPLE = 1024;

  /** Lines of one chunk, and what processing them produced. Reused. */
  public static final class Chunk {
    public final byte[] in;
    public int len;
    public boolean oversized;
    public long lines;

    /** Bytes of the input the chunk stands for (an over-long line's skipped bytes included). */
    public long consumed;

    public final ByteSink out;

    /** Input offset of {@code in[0]}: where the chunk starts in the (decompressed) input. */
    public long offset;

    /** Reject records, each ended by LF. */
    public final ByteSink text = new ByteSink(1 << 12);

    public Chunk(int bytes) {
      in = new byte[bytes];
      out = new ByteSink(bytes + (bytes >>> 3));
    }

    public void reset() {
      len = 0;
      oversized = false;
      lines = 0;
      consumed = 0;
      offset = 0;
      out.clear();
      text.clear();
    }
  }

  /** Processes chunks; one instance per worker thread at a time. */
  public interface Processor {
    /** Reads the lines of {@code c.in[0, c.len)}, sets {@code c.lines}, fills the outputs. */
    public void process(Chunk c);
  }

  /** Receives processed chunks in input order. */
  public interface Writer {
    /** Writes chunk {@code c}, whose first byte is at {@code offset} of the input. */
    void write(Chunk c, long offset) throws IOException;
  }

  private final int chunkBytes;
  private final int threads;

  /**
   * @param maxLineBytes the longest line processors accept; chunks hold at least two of them
   */
  public ChunkPipeline(int threads, int maxLineBytes, int chunkBytes) {
    this.threads = Math.max(1, threads);
    this.chunkBytes = Math.max(chunkBytes, 2 * maxLineBytes + 16);
  }

  /** The header line and the bytes read after it. */
  public static final class Start {
    public final byte[] header;
    public final byte[] rest;
    public final int restLen;

    /** The input offset of {@code rest}: the header's bytes with its line end (and a BOM). */
    final long restOffset;

    Start(byte[] header, byte[] rest, int restLen, long restOffset) {
      this.header = header;
      this.rest = rest;
      this.restLen = restLen;
      this.restOffset = restOffset;
    }
  }

  /**
   * Reads the first line of {@code in} (a UTF-8 BOM and a CR removed).
   *
   * @throws InputException when the input is empty or the first line longer than a chunk
   */
  public Start readHeader(ReadableByteChannel in, String name) throws IOException {
    byte[] buf = new byte[chunkBytes];
    int fill = 0;
    while (fill < buf.length) {
      int n = in.read(ByteBuffer.wrap(buf, fill, buf.length - fill));
      if (n < 0) {
        break;
      }
      int lf = indexOfLf(buf, fill, fill + n);
      fill += n;
      if (lf < fill) {
        break;
      }
    }
    int lf = indexOfLf(buf, 0, fill);
    if (fill == 0) {
      throw new InputException(name + ": empty file: an EP file starts with a header line");
    }
    if (lf == fill && fill == buf.length) {
      throw new InputException(name + ":1: header line longer than " + buf.length + " bytes");
    }
    int start =
        fill >= 3 && buf[0] == (byte) 0xEF && buf[1] == (byte) 0xBB && buf[2] == (byte) 0xBF
            ? 3
            : 0;
    int end = lf > start && buf[lf - 1] == '\r' ? lf - 1 : lf;
    byte[] header = java.util.Arrays.copyOfRange(buf, start, end);
    int restFrom = Math.min(fill, lf + 1);
    System.arraycopy(buf, restFrom, buf, 0, fill - restFrom);
    return new Start(header, buf, fill - restFrom, restFrom);
  }

  private static int indexOfLf(byte[] b, int from, int to) {
    return Bytes.indexOf(b, from, to, (byte) '\n', LFS);
  }

  private static final long LFS = Bytes.repeat((byte) '\n');

  /**
   * Runs the pipeline over all of {@code in}, from its first byte.
   *
   * @return the processors, for their counts
   */
  public <P extends Processor> List<P> run(
      ReadableByteChannel in, Supplier<P> processors, Writer writer) throws IOException {
    return run(in, new Start(new byte[0], new byte[0], 0, 0), processors, writer);
  }

  /**
   * Runs the pipeline over the rest of {@code in} after {@code start}.
   *
   * @return the processors, for their counts
   */
  public <P extends Processor> List<P> run(
      ReadableByteChannel in, Start start, Supplier<P> processors, Writer writer)
      throws IOException {
    BlockingQueue<P> idle = new ArrayBlockingQueue<>(threads);
    List<P> all = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      P p = processors.get();
      all.add(p);
      idle.add(p);
    }
    int maxChunks = threads * 2 + 1;
    Deque<Chunk> free = new ArrayDeque<>();
    Deque<Future<Chunk>> inflight = new ArrayDeque<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads, ChunkPipeline::daemon);
    byte[] carry = new byte[chunkBytes];
    int carryLen = start.restLen;
    System.arraycopy(start.rest, 0, carry, 0, carryLen);
    long offset = start.restOffset;
    long readAt = offset;
    int created = 0;
    boolean eof = false;
    try {
      while (!eof || carryLen > 0) {
        Chunk c = free.poll();
        if (c == null && created < maxChunks) {
          c = new Chunk(chunkBytes);
          created++;
        }
        while (c == null || !inflight.isEmpty() && inflight.peek().isDone()) {
          Chunk done = get(inflight.poll());
          writer.write(done, offset);
          offset += done.consumed;
          done.reset();
          if (c == null) {
            c = done;
          } else {
            free.add(done);
          }
        }
        System.arraycopy(carry, 0, c.in, 0, carryLen);
        int fill = carryLen;
        carryLen = 0;
        while (fill < c.in.length && !eof) {
          int n = in.read(ByteBuffer.wrap(c.in, fill, c.in.length - fill));
          if (n < 0) {
            eof = true;
          } else {
            fill += n;
          }
        }
        if (eof) {
          c.len = fill;
          c.consumed = fill;
        } else {
          int lf = lastLf(c.in, fill);
          if (lf >= 0) {
            c.len = lf + 1;
            c.consumed = c.len;
            carryLen = fill - c.len;
            System.arraycopy(c.in, c.len, carry, 0, carryLen);
          } else {
            c.oversized = true;
            c.len = Math.min(fill, OVERSIZED_SAMPLE);
            long[] rest = skipLine(in, carry);
            carryLen = (int) rest[0];
            eof = rest[1] != 0;
            c.consumed = fill + rest[2];
          }
        }
        c.offset = readAt;
        readAt += c.consumed;
        if (c.len == 0) {
          free.add(c);
          continue;
        }
        Chunk task = c;
        inflight.add(
            pool.submit(
                () -> {
                  P p = idle.take();
                  try {
                    p.process(task);
                  } finally {
                    idle.put(p);
                  }
                  return task;
                }));
      }
      while (!inflight.isEmpty()) {
        Chunk done = get(inflight.poll());
        writer.write(done, offset);
        offset += done.consumed;
      }
    } finally {
      pool.shutdownNow();
    }
    return all;
  }

  private static int lastLf(byte[] b, int fill) {
    for (int i = fill - 1; i >= 0; i--) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /**
   * Skips to the end of the current (over-long) line; the bytes after its LF go to {@code carry}.
   *
   * @return {bytes carried, 1 if the input ended, bytes skipped (to the LF and with it)}
   */
  private static long[] skipLine(ReadableByteChannel in, byte[] carry) throws IOException {
    long skipped = 0;
    while (true) {
      int n = in.read(ByteBuffer.wrap(carry));
      if (n < 0) {
        return new long[] {0, 1, skipped};
      }
      int lf = indexOfLf(carry, 0, n);
      if (lf < n) {
        System.arraycopy(carry, lf + 1, carry, 0, n - lf - 1);
        return new long[] {n - lf - 1, 0, skipped + lf + 1};
      }
      skipped += n;
    }
  }

  private static Chunk get(Future<Chunk> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof UncheckedIOException) {
        throw ((UncheckedIOException) c).getCause();
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      if (c instanceof Error) {
        throw (Error) c;
      }
      throw new IOException(c);
    }
  }

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r, "spindex-ep");
    t.setDaemon(true);
    return t;
  }
}
