/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mmdb;

import com.maxmind.db.CHMCache;
import com.maxmind.db.Reader;
import io.spindex.annotations.Internal;
import io.spindex.text.Gzip;
import io.spindex.text.InputException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * One MaxMind DB file ({@code .mmdb}, format 2, or the same gzip-compressed), opened for a build:
 * its metadata, its search tree checked node by node, the IPv6 prefixes it points at its IPv4 tree,
 * and MaxMind's own {@link Reader} over the same bytes for the networks and their records.
 *
 * <p>The reader decodes; this class only reads what the reader keeps to itself (node count, record
 * size) and checks what the reader would fail on later without an offset: every record of every
 * node is a node, the empty marker, or a pointer into the data section, and the tree is no deeper
 * than the address. A file that fails is one {@link InputException} naming the file and the offset.
 */
@Internal
public final class MmdbFile implements Closeable {
  /** The bytes before the metadata map: {@code \xAB\xCD\xEF} and {@code MaxMind.com}. */
  static final byte[] MARKER = {
    (byte) 0xAB, (byte) 0xCD, (byte) 0xEF, 'M', 'a', 'x', 'M', 'i', 'n', 'd', '.', 'c', 'o', 'm'
  };

  /** The format puts the metadata in the last 128 KiB. */
  private static final int METADATA_MAX = 128 * 1024;

  private static final int SEPARATOR = 16;

  /** Decoded values the reader keeps (records, and what their pointers point at). */
  private static final int DECODE_CACHE_ENTRIES = 1 << 17;

  private final Path path;
  private final ByteBuffer buf;
  private final Map<String, Object> metadata;
  private final long nodeCount;
  private final int recordSize;
  private final int ipVersion;
  private final long treeSize;
  private final long dataEnd;
  private final Reader reader;

  private MmdbFile(Path path, ByteBuffer buf, byte[] heapCopy) throws IOException {
    this.path = path;
    this.buf = buf;
    int marker = markerAt(buf);
    if (marker < 0) {
      throw new InputException(
          path
              + ": not a MaxMind DB file (no metadata marker '\\xAB\\xCD\\xEFMaxMind.com' in its"
              + " last 128 KiB)");
    }
    Object m;
    try {
      m = new MiniDecoder(buf).decode(marker + MARKER.length);
    } catch (RuntimeException e) {
      throw new InputException(
          path + ": metadata at offset " + (marker + MARKER.length) + ": " + e.getMessage());
    }
    if (!(m instanceof Map)) {
      throw bad(marker + MARKER.length, "a metadata map", String.valueOf(m));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> meta = (Map<String, Object>) m;
    this.metadata = meta;
    this.nodeCount = number(marker, "node_count", 1, 1L << 32);
    this.recordSize = (int) number(marker, "record_size", 24, 32);
    this.ipVersion = (int) number(marker, "ip_version", 4, 6);
    long major = number(marker, "binary_format_major_version", 2, 2);
    if ((recordSize != 24 && recordSize != 28 && recordSize != 32)
        || (ipVersion != 4 && ipVersion != 6)
        || major != 2) {
      throw bad(
          marker + MARKER.length,
          "record_size 24, 28 or 32, ip_version 4 or 6, binary_format_major_version 2",
          "record_size " + recordSize + ", ip_version " + ipVersion + ", major version " + major);
    }
    this.treeSize = nodeCount * recordSize / 4;
    this.dataEnd = marker;
    if (treeSize + SEPARATOR > marker) {
      throw bad(
          0, "a search tree of " + treeSize + " bytes before the metadata", marker + " bytes");
    }
    checkTree();
    try {
      // MaxMind's own cache of decoded data by offset: a City database's 3 M networks share a few
      // hundred thousand records, and those share their keys, names and countries through
      // pointers; decoding each once made the iteration 5.7x faster (docs/BENCHMARKS.md, the
      // City-sized database).
      CHMCache cache = new CHMCache(DECODE_CACHE_ENTRIES);
      this.reader =
          heapCopy != null
              ? new Reader(new ByteArrayInputStream(heapCopy), cache)
              : new Reader(path.toFile(), Reader.FileMode.MEMORY_MAPPED, cache);
    } catch (IOException | RuntimeException e) {
      throw new InputException(path + ": " + e.getMessage());
    }
  }

  /**
   * Opens a MaxMind DB file, plain or gzip-compressed (recognised by content, whatever its name).
   *
   * @throws InputException when it is not one, or its metadata or search tree is damaged
   */
  public static MmdbFile open(Path path) throws IOException {
    if (isGzip(path)) {
      byte[] all;
      try (InputStream in = new GZIPInputStream(Files.newInputStream(path), 1 << 16)) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);
        in.transferTo(out);
        all = out.toByteArray();
      } catch (java.io.EOFException | java.util.zip.ZipException e) {
        throw Gzip.incomplete(path.toString(), e);
      }
      return new MmdbFile(path, ByteBuffer.wrap(all).asReadOnlyBuffer(), all);
    }
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      if (ch.size() > Integer.MAX_VALUE) {
        throw new InputException(path + ": over 2 GiB, more than a MaxMind DB reader can map");
      }
      return new MmdbFile(path, ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()), null);
    }
  }

  /**
   * Whether the file is a MaxMind DB: the metadata marker in its last 128 KiB, or, gzip-compressed,
   * in those of its content (a compressed file whose first bytes decompress to text is not read
   * further).
   */
  public static boolean isMmdb(Path path) throws IOException {
    if (!Files.isRegularFile(path)) {
      return false;
    }
    if (isGzip(path)) {
      try (InputStream in = new GZIPInputStream(Files.newInputStream(path), 1 << 16)) {
        byte[] head = in.readNBytes(4096);
        if (looksLikeText(head)) {
          return false;
        }
        byte[] tail = new byte[METADATA_MAX];
        int filled = Math.min(head.length, tail.length);
        System.arraycopy(head, head.length - filled, tail, 0, filled);
        byte[] chunk = new byte[1 << 16];
        int n;
        while ((n = in.read(chunk)) > 0) {
          int keep = Math.min(filled, tail.length - n);
          if (n >= tail.length) {
            System.arraycopy(chunk, n - tail.length, tail, 0, tail.length);
            filled = tail.length;
          } else {
            System.arraycopy(tail, filled - keep, tail, 0, keep);
            System.arraycopy(chunk, 0, tail, keep, n);
            filled = keep + n;
          }
        }
        return markerAt(ByteBuffer.wrap(tail, 0, filled).slice()) >= 0;
      } catch (java.io.EOFException | java.util.zip.ZipException e) {
        // Binary content cut short: a database (or whatever it is) that cannot be read whole,
        // named as a text gzip cut short is named.
        throw Gzip.incomplete(path.toString(), e);
      }
    }
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      int n = (int) Math.min(size, METADATA_MAX);
      ByteBuffer tail = ByteBuffer.allocate(n);
      ch.read(tail, size - n);
      tail.flip();
      return markerAt(tail) >= 0;
    }
  }

  /**
   * Whether a file's first bytes (as stored, gzip or not) may begin a MaxMind DB: they are not
   * text. Reads at most 4 KiB of {@code raw}; a distributed build copies only such files to read
   * them.
   */
  public static boolean mayBeDatabase(InputStream raw) throws IOException {
    java.io.PushbackInputStream in = new java.io.PushbackInputStream(raw, 2);
    int a = in.read();
    int b = in.read();
    if (b >= 0) {
      in.unread(b);
    }
    if (a >= 0) {
      in.unread(a);
    }
    try {
      InputStream content = a == 0x1f && b == 0x8b ? new GZIPInputStream(in) : in;
      return !looksLikeText(content.readNBytes(4096));
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean isGzip(Path path) throws IOException {
    return Gzip.is(path);
  }

  /** Text lines (addresses, ranges) never hold NUL or most control bytes; a search tree does. */
  private static boolean looksLikeText(byte[] b) {
    for (byte c : b) {
      if (c == 0 || (c > 0 && c < 9)) {
        return false;
      }
    }
    return true;
  }

  /** The offset of the last metadata marker, or -1. */
  private static int markerAt(ByteBuffer b) {
    int size = b.limit();
    int from = Math.max(0, size - METADATA_MAX - MARKER.length);
    outer:
    for (int i = size - MARKER.length; i >= from; i--) {
      for (int j = 0; j < MARKER.length; j++) {
        if (b.get(i + j) != MARKER[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private long number(int marker, String key, long min, long max) throws InputException {
    Object v = metadata.get(key);
    if (!(v instanceof Number)) {
      throw bad(marker + MARKER.length, "metadata key '" + key + "' (a number)", String.valueOf(v));
    }
    long n = ((Number) v).longValue();
    if (n < min || n > max) {
      throw bad(marker + MARKER.length, "metadata '" + key + "' " + min + " to " + max, "" + n);
    }
    return n;
  }

  private InputException bad(long offset, String expected, String found) {
    return new InputException(
        path + ": at offset " + offset + ": expected " + expected + ", found " + found);
  }

  /** Record {@code side} (0 left, 1 right) of node {@code node}. */
  long record(long node, int side) {
    switch (recordSize) {
      case 24:
        {
          int at = (int) (node * 6 + side * 3);
          return u8(at) << 16 | u8(at + 1) << 8 | u8(at + 2);
        }
      case 28:
        {
          int at = (int) (node * 7);
          if (side == 0) {
            return (u8(at + 3) & 0xF0) << 20 | u8(at) << 16 | u8(at + 1) << 8 | u8(at + 2);
          }
          return (u8(at + 3) & 0x0F) << 24 | u8(at + 4) << 16 | u8(at + 5) << 8 | u8(at + 6);
        }
      default:
        {
          int at = (int) (node * 8 + side * 4);
          return u8(at) << 24 | u8(at + 1) << 16 | u8(at + 2) << 8 | u8(at + 3);
        }
    }
  }

  private long u8(int at) {
    return buf.get(at) & 0xFFL;
  }

  /**
   * Every node reachable from the root, depth first: each record a node, the empty marker, or a
   * pointer into the data section; no deeper than the address. Aliases of the IPv4 tree are noted
   * and not entered again.
   */
  private void checkTree() throws InputException {
    int bits = ipVersion == 6 ? 128 : 32;
    long[] nodes = new long[bits + 2];
    int[] depths = new int[bits + 2];
    boolean[] zeros = new boolean[bits + 2];
    int top = 1;
    zeros[0] = true;
    long ipv4 = ipv4StartNode();
    long visited = 0;
    while (top > 0) {
      top--;
      long node = nodes[top];
      if (++visited > nodeCount) {
        throw bad(
            recordOffset(node, 0),
            "a search tree in which each node has one parent (" + nodeCount + " nodes)",
            "node " + node + " reached again");
      }
      int depth = depths[top];
      boolean zero = zeros[top];
      for (int side = 1; side >= 0; side--) {
        long r = record(node, side);
        long offset = recordOffset(node, side);
        if (r == nodeCount) {
          continue;
        }
        if (r > nodeCount) {
          long at = r - nodeCount + treeSize;
          if (r - nodeCount < SEPARATOR || at >= dataEnd) {
            throw bad(
                offset,
                "a search tree record that is a node (below "
                    + nodeCount
                    + "), empty ("
                    + nodeCount
                    + ") or points into the data section (offsets "
                    + (treeSize + SEPARATOR)
                    + " to "
                    + dataEnd
                    + ")",
                r + " (data offset " + at + ")");
          }
          continue;
        }
        boolean childZero = zero && side == 0;
        if (r == ipv4 && !(childZero && depth + 1 == 96)) {
          continue; // an alias of the IPv4 tree, which the zero path enters
        }
        if (depth + 1 >= bits || top == nodes.length) {
          throw bad(offset, "a search tree no deeper than " + bits + " bits", "node " + r);
        }
        nodes[top] = r;
        depths[top] = depth + 1;
        zeros[top] = childZero;
        top++;
      }
    }
  }

  private long recordOffset(long node, int side) {
    return recordSize == 28 ? node * 7 + side * 3 : node * recordSize / 4 + side * recordSize / 8;
  }

  /** The node 96 zero bits below the root of an IPv6 tree (the IPv4 tree), or -1. */
  private long ipv4StartNode() {
    if (ipVersion != 6) {
      return -1;
    }
    long node = 0;
    for (int i = 0; i < 96; i++) {
      if (node >= nodeCount) {
        return -1;
      }
      node = record(node, 0);
    }
    return node < nodeCount ? node : -1;
  }

  /**
   * The IPv6 prefixes that answer as IPv4 addresses, as int64 triples (high, low, length): {@code
   * ::/96} where the IPv4 tree is, and each shorter prefix whose node is the IPv4 tree's (6to4,
   * Teredo), found in the tree itself. {@code ::ffff:0:0/96} is left out (every index answers
   * IPv4-mapped addresses as IPv4 addresses). None for an IPv4 database.
   */
  public long[] ipv4Aliases() {
    long ipv4 = ipv4StartNode();
    if (ipv4 < 0) {
      return new long[0];
    }
    List<long[]> found = new ArrayList<>();
    found.add(new long[] {0, 0, 96});
    aliases(0, 0, 0, 0, ipv4, found);
    long[] out = new long[found.size() * 3];
    for (int i = 0; i < found.size(); i++) {
      System.arraycopy(found.get(i), 0, out, 3 * i, 3);
    }
    return out;
  }

  private void aliases(long node, int depth, long hi, long lo, long ipv4, List<long[]> found) {
    if (depth >= 96) {
      return;
    }
    for (int side = 0; side <= 1; side++) {
      long r = record(node, side);
      long h = hi;
      long l = lo;
      if (side == 1) {
        if (depth < 64) {
          h |= 1L << (63 - depth);
        } else {
          l |= 1L << (127 - depth);
        }
      }
      if (r == ipv4) {
        boolean ffff = depth + 1 == 96 && h == 0 && l == 0xFFFF_0000_0000L;
        if (depth + 1 != 96 || (h != 0 || l != 0)) {
          if (!ffff) {
            found.add(new long[] {h, l, depth + 1});
          }
        }
      } else if (r < nodeCount) {
        aliases(r, depth + 1, h, l, ipv4, found);
      }
    }
  }

  /** MaxMind's reader over the same bytes. */
  public Reader reader() {
    return reader;
  }

  public Path path() {
    return path;
  }

  public int ipVersion() {
    return ipVersion;
  }

  /** The metadata map, as the file holds it (only what this class decodes: no pointers). */
  public Map<String, Object> metadata() {
    return metadata;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }

  /**
   * Decodes the metadata map (the format's data types without pointers), enough to read the node
   * count and record size, which MaxMind's reader keeps to itself.
   */
  private static final class MiniDecoder {
    private final ByteBuffer b;
    private int depth;

    MiniDecoder(ByteBuffer b) {
      this.b = b;
    }

    private int pos;

    Object decode(int at) {
      pos = at;
      return next();
    }

    private int u8() {
      if (pos >= b.limit()) {
        throw new IllegalStateException("expected more metadata, found the end of the file");
      }
      return b.get(pos++) & 0xFF;
    }

    private Object next() {
      if (++depth > 16) {
        throw new IllegalStateException("expected metadata nested at most 16 deep");
      }
      int start = pos;
      int ctrl = u8();
      int type = ctrl >>> 5;
      if (type == 0) {
        type = 7 + u8();
      }
      int size = ctrl & 0x1F;
      if (type == 1) {
        throw new IllegalStateException(
            "expected no pointer in the metadata, found one at " + start);
      }
      if (size == 29) {
        size = 29 + u8();
      } else if (size == 30) {
        size = 285 + (u8() << 8 | u8());
      } else if (size == 31) {
        size = 65821 + (u8() << 16 | u8() << 8 | u8());
      }
      Object v;
      switch (type) {
        case 2:
          {
            byte[] s = bytes(size);
            v = new String(s, StandardCharsets.UTF_8);
            break;
          }
        case 3:
          v = Double.longBitsToDouble(unsigned(size));
          break;
        case 4:
          v = bytes(size);
          break;
        case 5:
        case 6:
        case 9:
        case 10:
          v = unsigned(size);
          break;
        case 7:
          {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < size; i++) {
              Object k = next();
              m.put(String.valueOf(k), next());
            }
            v = m;
            break;
          }
        case 8:
          v = (int) unsigned(size);
          break;
        case 11:
          {
            List<Object> l = new ArrayList<>();
            for (int i = 0; i < size; i++) {
              l.add(next());
            }
            v = l;
            break;
          }
        case 14:
          v = size != 0;
          break;
        case 15:
          v = Float.intBitsToFloat((int) unsigned(size));
          break;
        default:
          throw new IllegalStateException("expected a data type 2 to 15, found " + type);
      }
      depth--;
      return v;
    }

    private byte[] bytes(int n) {
      if (pos + n > b.limit()) {
        throw new IllegalStateException("expected " + n + " more bytes, found the end of the file");
      }
      byte[] s = new byte[n];
      for (int i = 0; i < n; i++) {
        s[i] = b.get(pos++);
      }
      return s;
    }

    private long unsigned(int n) {
      long v = 0;
      byte[] s = bytes(n);
      for (int i = Math.max(0, n - 8); i < n; i++) {
        v = v << 8 | (s[i] & 0xFF);
      }
      return v;
    }
  }

  @Override
  public String toString() {
    return path + " " + Arrays.asList(metadata.get("database_type"), ipVersion);
  }
}
