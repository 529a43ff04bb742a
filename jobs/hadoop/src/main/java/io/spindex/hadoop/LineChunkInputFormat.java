/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.hadoop;

import io.spindex.annotations.Internal;
import io.spindex.text.Bytes;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * Reads text files as {@link LineChunk}s of whole lines (about {@value #CHUNK_BYTES} bytes each)
 * instead of one {@code Text} per line: the jobs' record loops run over a split's bytes with no
 * object and no copy per line. Splits are the same as {@code TextInputFormat}'s, and so are the
 * lines each split reads: a split that does not start at byte 0 skips up to and including the first
 * LF at or after its start, and reads every line that starts at or before its end. Lines end with
 * LF or CR LF (a lone CR is not a line end). Compressed files are read whole, through their codec,
 * as one split. The key is the chunk's offset in the file.
 */
@Internal
public final class LineChunkInputFormat extends FileInputFormat<LongWritable, LineChunk> {
  /** Target chunk size; a longer line makes a longer chunk. */
  static final int CHUNK_BYTES = 1 << 20;

  @Override
  protected boolean isSplitable(JobContext context, Path file) {
    return new CompressionCodecFactory(context.getConfiguration()).getCodec(file) == null;
  }

  @Override
  public RecordReader<LongWritable, LineChunk> createRecordReader(
      InputSplit split, TaskAttemptContext context) {
    return new Reader(CHUNK_BYTES);
  }

  /** The chunk reader; {@code chunkBytes} is small in tests, to put lines across refills. */
  static final class Reader extends RecordReader<LongWritable, LineChunk> {
    private final int chunkBytes;
    private final LongWritable key = new LongWritable();
    private final LineChunk chunk = new LineChunk();
    private InputStream in;

    /**
     * What a compressed input cut short is ("x.log.gz: not a complete gzip file"); null if plain.
     */
    private String compressed;

    private long start;
    private long end;
    // buf[0, filled) holds bytes from file offset bufOffset; lines before `next` are handed out.
    private byte[] buf;
    private int filled;
    private int next;
    private long bufOffset;
    private boolean eof;
    private boolean done;

    Reader(int chunkBytes) {
      this.chunkBytes = chunkBytes;
      this.buf = new byte[chunkBytes];
    }

    @Override
    public void initialize(InputSplit genericSplit, TaskAttemptContext context) throws IOException {
      FileSplit split = (FileSplit) genericSplit;
      Configuration conf = context.getConfiguration();
      Path file = split.getPath();
      FileSystem fs = file.getFileSystem(conf);
      CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(file);
      FSDataInputStream raw = fs.open(file);
      if (codec != null) {
        String ext = codec.getDefaultExtension();
        compressed =
            HadoopIo.shown(file)
                + ": not a complete "
                + (ext.equals(".gz") ? "gzip" : ext.substring(1))
                + " file";
        in = codec.createInputStream(raw);
        start = 0;
        end = Long.MAX_VALUE;
      } else {
        start = split.getStart();
        end = start + split.getLength();
        raw.seek(start);
        in = raw;
      }
      bufOffset = start;
      if (start != 0) {
        skipFirstLine();
      }
    }

    /** Drops bytes up to and including the first LF: that line belongs to the split before. */
    private void skipFirstLine() throws IOException {
      while (true) {
        int lf = Bytes.lineFeed(buf, next, filled);
        if (lf < filled) {
          next = lf + 1;
          return;
        }
        next = filled;
        compact();
        if (!fill()) {
          return;
        }
      }
    }

    /** Reads more bytes after {@code filled}, growing the buffer when full; false at the end. */
    private boolean fill() throws IOException {
      if (eof) {
        return false;
      }
      if (filled == buf.length) {
        buf = Arrays.copyOf(buf, buf.length * 2);
      }
      int n;
      try {
        n = in.read(buf, filled, buf.length - filled);
      } catch (java.io.EOFException e) {
        if (compressed == null) {
          throw e;
        }
        // The file name belongs in the message, as the command line says it.
        throw new io.spindex.text.InputException(compressed + " (" + e.getMessage() + ")");
      }
      if (n < 0) {
        eof = true;
        return false;
      }
      filled += n;
      return true;
    }

    /** Moves the unread bytes {@code [next, filled)} to the front of the buffer. */
    private void compact() {
      if (next > 0) {
        System.arraycopy(buf, next, buf, 0, filled - next);
        filled -= next;
        bufOffset += next;
        next = 0;
      }
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      if (done) {
        return false;
      }
      compact();
      while (filled < chunkBytes && fill()) {
        // read until a chunk's worth is buffered or the file ends
      }
      if (filled == 0 || bufOffset > end) {
        done = true;
        return false;
      }
      int limit = Math.min(filled, chunkBytes);
      long endAt = end - bufOffset; // where the split's end is in the buffer
      int cut;
      if (endAt < limit) {
        // The split's last line (the one holding its end) starts here: it is the chunk's last.
        int lf = lineFeedFrom((int) endAt);
        cut = lf < 0 ? filled : lf + 1;
        done = true;
      } else {
        int last = limit - 1;
        while (last >= 0 && buf[last] != '\n') {
          last--;
        }
        if (last >= 0) {
          cut = last + 1;
        } else {
          int lf = lineFeedFrom(limit); // a line longer than a chunk, or the file's last
          cut = lf < 0 ? filled : lf + 1;
        }
      }
      chunk.bytes = buf;
      chunk.offset = bufOffset;
      chunk.length = cut;
      key.set(bufOffset);
      next = cut;
      return true;
    }

    /** The first LF at or after {@code from}, reading more as needed; -1 at the end of the file. */
    private int lineFeedFrom(int from) throws IOException {
      int at = from;
      while (true) {
        int lf = Bytes.lineFeed(buf, at, filled);
        if (lf < filled) {
          return lf;
        }
        at = filled;
        if (!fill()) {
          return -1;
        }
      }
    }

    @Override
    public LongWritable getCurrentKey() {
      return key;
    }

    @Override
    public LineChunk getCurrentValue() {
      return chunk;
    }

    @Override
    public float getProgress() {
      if (end == Long.MAX_VALUE || end == start) {
        return done ? 1 : 0;
      }
      return Math.min(1f, (bufOffset + next - start) / (float) (end - start));
    }

    @Override
    public void close() throws IOException {
      if (in != null) {
        in.close();
      }
    }
  }
}
