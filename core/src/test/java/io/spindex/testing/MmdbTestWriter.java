/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.testing;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Writes MaxMind DB files ({@code .mmdb}, format 2.0) for tests: networks and their records in, a
 * file that MaxMind's readers open out. No MMDB writer is published on Maven Central (MaxMind's are
 * Go and Perl), so this follows the public format spec; the bench's {@code MmdbWriter} writes one
 * fixed shape of database, this one any.
 *
 * <p>What a written file holds:
 *
 * <ul>
 *   <li>A binary search tree of 32 bits ({@link #ipv4()}) or 128 ({@link #ipv6()}; an IPv4 network
 *       lives at {@code ::a.b.c.d}, in the {@code ::/96} subtree, where the readers look IPv4
 *       addresses up), its root node 0. Inserts apply in order, a later one overwriting the part of
 *       the earlier ones it covers ({@link #insert}). The tree is minimal for what they map: a node
 *       only where a block's two halves answer differently, so two adjacent networks with identical
 *       records read back as the one network they make up ({@code networks()} of a reader yields
 *       the coarsest CIDR cover). An address of no network reaches the record {@code node_count}:
 *       no data.
 *   <li>With {@link #aliasIpv4()}, as MaxMind's Go writer does by default: {@code ::ffff:0:0/96}
 *       (IPv4-mapped), {@code 2001::/32} (Teredo, the server address in bits 32 to 63) and {@code
 *       2002::/16} (6to4, bits 16 to 47) point at the node of {@code ::/96}, where a reader starts
 *       IPv4 lookups; MaxMind's reader's {@code networks()} skips them as aliases. (When all of
 *       IPv4 is one record, they point at that record, and that reader skips every network of it
 *       outside {@code ::/96} as an alias.)
 *   <li>Records of the smallest size of the spec (24, 28 or 32 bits) that holds every node number
 *       and data pointer, or of the size given ({@link #recordSize}).
 *   <li>The 16 zero bytes of the data section separator, then the data section: each distinct
 *       record once (networks with identical records share one data offset, as in real databases),
 *       only those that some address still answers with. With pointers on (the default, {@link
 *       #pointers}), a value written before, map keys and strings above all, is written again as a
 *       pointer to it wherever the pointer is the shorter of the two, as in GeoIP2 files.
 *   <li>The metadata after the {@code \xAB\xCD\xEFMaxMind.com} marker: {@code node_count}, {@code
 *       record_size}, {@code ip_version}, {@code database_type}, {@code languages}, {@code
 *       binary_format_major_version} 2, {@code binary_format_minor_version} 0, {@code build_epoch}
 *       and {@code description}.
 * </ul>
 *
 * <p>Record values and the type each is written as: {@link Map} (string keys) a map, {@link List}
 * an array, {@link String} a utf8_string, {@link Boolean} a boolean, {@link Double} a double,
 * {@link Float} a float, {@code byte[]} bytes, {@link Integer} an int32, {@link Long} a uint32 (0
 * to 2^32-1), {@link BigInteger} a uint64 below 2^64 and a uint128 from there to 2^128-1; {@link
 * #uint16}, {@link #uint32}, {@link #uint64}, {@link #uint128}, {@link #int32} and {@link #float32}
 * give the type outright. Every type of the spec is written but the data cache container and the
 * end marker. A value is copied when it is inserted (changing a map afterwards changes nothing
 * written); map keys are written in their natural order, so equal maps are one record. Any other
 * value, a null, a number out of its type's range, is an {@link IllegalArgumentException} at {@link
 * #insert}.
 *
 * <p>The same calls write the same bytes. Not thread-safe; {@link #write} may be called again,
 * after more calls.
 */
public final class MmdbTestWriter {
  private static final int POINTER = 1;
  private static final int UTF8_STRING = 2;
  private static final int DOUBLE = 3;
  private static final int BYTES = 4;
  private static final int UINT16 = 5;
  private static final int UINT32 = 6;
  private static final int MAP = 7;
  private static final int INT32 = 8;
  private static final int UINT64 = 9;
  private static final int UINT128 = 10;
  private static final int ARRAY = 11;
  private static final int BOOLEAN = 14;
  private static final int FLOAT = 15;

  /** The largest size a control byte can tell: 65,821 + 2^24 - 1. */
  private static final int MAX_SIZE = 65_821 + 0xFF_FFFF;

  private static final byte[] METADATA_MARKER = {
    (byte) 0xAB, (byte) 0xCD, (byte) 0xEF, 'M', 'a', 'x', 'M', 'i', 'n', 'd', '.', 'c', 'o', 'm'
  };
  private static final int SEPARATOR = 16;
  private static final int EMPTY = -1;

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");
  private static final Pattern PREFIX = Pattern.compile("\\d{1,3}");

  /** The networks {@link #aliasIpv4} points at the IPv4 subtree: tree bytes and prefix length. */
  private static final byte[][] ALIASES = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xFF, (byte) 0xFF, 0, 0, 0, 0},
    {0x20, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0x20, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
  };

  private static final int[] ALIAS_PREFIXES = {96, 32, 16};

  private final int ipVersion;
  private int recordSize;
  private String databaseType = "Spindex-Test";
  private final Map<String, String> description = new LinkedHashMap<>();
  private List<String> languages = new ArrayList<>();
  private long buildEpoch;
  private boolean aliasIpv4;
  private boolean pointers = true;

  /** The records inserted, each distinct one once; {@link Insert#record} indexes this. */
  private final List<Value> records = new ArrayList<>();

  private final Map<ByteBuffer, Integer> recordIds = new HashMap<>();
  private final List<Insert> inserts = new ArrayList<>();

  private MmdbTestWriter(int ipVersion) {
    this.ipVersion = ipVersion;
  }

  /** A database of {@code ip_version} 4: a 32-bit tree, IPv4 networks only. */
  public static MmdbTestWriter ipv4() {
    return new MmdbTestWriter(4);
  }

  /**
   * A database of {@code ip_version} 6: a 128-bit tree, IPv4 networks at {@code ::a.b.c.d} (no
   * aliases unless {@link #aliasIpv4}).
   */
  public static MmdbTestWriter ipv6() {
    return new MmdbTestWriter(6);
  }

  /** Records of 24, 28 or 32 bits; {@link #write} refuses a size too small for the tree. */
  public MmdbTestWriter recordSize(int bits) {
    if (bits != 24 && bits != 28 && bits != 32) {
      throw new IllegalArgumentException("record size " + bits + ": 24, 28 or 32");
    }
    this.recordSize = bits;
    return this;
  }

  /** The metadata {@code database_type} ({@code Spindex-Test} unless set). */
  public MmdbTestWriter databaseType(String type) {
    this.databaseType = requireNonNull(type, "database type");
    return this;
  }

  /** One entry of the metadata {@code description} map (empty unless set). */
  public MmdbTestWriter description(String language, String text) {
    description.put(requireNonNull(language, "language"), requireNonNull(text, "description"));
    return this;
  }

  /** The metadata {@code languages} (none unless set). */
  public MmdbTestWriter languages(String... languages) {
    List<String> list = new ArrayList<>();
    for (String l : languages) {
      list.add(requireNonNull(l, "language"));
    }
    this.languages = list;
    return this;
  }

  /** The metadata {@code build_epoch}, seconds since 1970 (0 unless set). */
  public MmdbTestWriter buildEpoch(long seconds) {
    if (seconds < 0) {
      throw new IllegalArgumentException("build epoch " + seconds);
    }
    this.buildEpoch = seconds;
    return this;
  }

  /**
   * Aliases {@code ::ffff:0:0/96}, {@code 2001::/32} and {@code 2002::/16} to the IPv4 subtree (an
   * IPv6 database only). The aliases win over any insert that contains one of them; {@link #write}
   * refuses an insert inside one, which no address could answer with.
   */
  public MmdbTestWriter aliasIpv4() {
    if (ipVersion != 6) {
      throw new IllegalStateException("IPv4 aliases need an IPv6 database");
    }
    this.aliasIpv4 = true;
    return this;
  }

  /** Whether repeated values are written as pointers to their first copy (on unless set). */
  public MmdbTestWriter pointers(boolean on) {
    this.pointers = on;
    return this;
  }

  /**
   * Maps the network to the record, overwriting what earlier inserts mapped it to (the rest of an
   * earlier, larger network keeps its record). {@code cidr} is {@code "1.2.3.0/24"} or {@code
   * "2001:db8::/32"}, its host bits zero; an IPv4 network in an IPv6 database goes to {@code
   * ::a.b.c.d/(96 + prefix)}, an IPv6 one in an IPv4 database is refused.
   *
   * @throws IllegalArgumentException for a CIDR that is not one (or not of this database), or a
   *     record with a value of no MaxMind DB type
   */
  public MmdbTestWriter insert(String cidr, Object record) {
    byte[] address = parse(cidr);
    int prefix = Integer.parseInt(cidr.substring(cidr.indexOf('/') + 1));
    if (ipVersion == 4 && address.length == 16) {
      throw new IllegalArgumentException(cidr + ": an IPv6 network in an IPv4 database");
    }
    if (ipVersion == 6 && address.length == 4) {
      byte[] v6 = new byte[16];
      System.arraycopy(address, 0, v6, 12, 4);
      address = v6;
      prefix += 96;
    }
    Value value = freeze(record, "record");
    Integer id = recordIds.get(ByteBuffer.wrap(value.plain));
    if (id == null) {
      id = records.size();
      records.add(value);
      recordIds.put(ByteBuffer.wrap(value.plain), id);
    }
    inserts.add(new Insert(cidr, address, prefix, id));
    return this;
  }

  /** A uint16 (0 to 65,535). */
  public static Object uint16(int v) {
    if (v < 0 || v > 0xFFFF) {
      throw new IllegalArgumentException("uint16 " + v);
    }
    return scalar(UINT16, unsigned(BigInteger.valueOf(v)), "uint16(" + v + ")");
  }

  /** A uint32 (0 to 2^32-1); a plain {@link Long} is one too. */
  public static Object uint32(long v) {
    if (v < 0 || v > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("uint32 " + v);
    }
    return scalar(UINT32, unsigned(BigInteger.valueOf(v)), "uint32(" + v + ")");
  }

  /** A uint64 (0 to 2^64-1), whatever its value. */
  public static Object uint64(BigInteger v) {
    if (v.signum() < 0 || v.bitLength() > 64) {
      throw new IllegalArgumentException("uint64 " + v);
    }
    return scalar(UINT64, unsigned(v), "uint64(" + v + ")");
  }

  /** A uint128 (0 to 2^128-1), whatever its value. */
  public static Object uint128(BigInteger v) {
    if (v.signum() < 0 || v.bitLength() > 128) {
      throw new IllegalArgumentException("uint128 " + v);
    }
    return scalar(UINT128, unsigned(v), "uint128(" + v + ")");
  }

  /** An int32; a plain {@link Integer} is one too. */
  public static Object int32(int v) {
    return scalar(INT32, int32Bytes(v), "int32(" + v + ")");
  }

  /** A float (IEEE 754 single); a plain {@link Float} is one too. */
  public static Object float32(float v) {
    return scalar(FLOAT, ByteBuffer.allocate(4).putFloat(v).array(), "float32(" + v + ")");
  }

  /**
   * Writes the database to {@code out}, replacing what is there.
   *
   * @throws IllegalArgumentException for an insert inside an IPv4 alias, or a record size given too
   *     small for the tree
   */
  public void write(Path out) throws IOException {
    Trie root = tree();
    List<Trie> nodes = new ArrayList<>();
    Set<Integer> used = new LinkedHashSet<>();
    number(root, nodes, used);
    int nodeCount = nodes.size();

    DataSection data = new DataSection(pointers);
    int[] offsets = new int[records.size()];
    long largest = nodeCount;
    for (int id : used) {
      offsets[id] = data.record(records.get(id));
      largest = Math.max(largest, (long) nodeCount + SEPARATOR + offsets[id]);
    }
    int size = recordSize;
    int smallest = largest < 1L << 24 ? 24 : largest < 1L << 28 ? 28 : 32;
    if (largest >= 1L << 32) {
      throw new IllegalArgumentException("too large for 32-bit records: " + largest);
    }
    if (size == 0) {
      size = smallest;
    } else if (size < smallest) {
      throw new IllegalArgumentException(
          "record size " + size + " cannot hold " + largest + " (" + smallest + " bits can)");
    }

    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 16)) {
      byte[] node = new byte[size / 4];
      for (Trie n : nodes) {
        putNode(node, size, record(n.zero, nodeCount, offsets), record(n.one, nodeCount, offsets));
        o.write(node);
      }
      o.write(new byte[SEPARATOR]);
      data.out.writeTo(o);
      o.write(METADATA_MARKER);
      o.write(metadata(nodeCount, size).plain);
    }
  }

  /**
   * The tree of the inserts, minimal, with the aliases if asked for; its root a node (a reader
   * starts at node 0).
   */
  private Trie tree() {
    Trie root = new Trie(EMPTY);
    for (Insert in : inserts) {
      if (aliasIpv4) {
        for (int a = 0; a < ALIASES.length; a++) {
          if (in.prefix >= ALIAS_PREFIXES[a]
              && samePrefix(in.address, ALIASES[a], ALIAS_PREFIXES[a])) {
            throw new IllegalArgumentException(
                in.cidr + " lies inside an IPv4 alias: no address could answer with it");
          }
        }
      }
      put(root, in.address, in.prefix, new Trie(in.record));
    }
    merge(root);
    if (aliasIpv4) {
      Trie ipv4 = root;
      for (int d = 0; d < 96 && !ipv4.isLeaf(); d++) {
        ipv4 = ipv4.zero;
      }
      if (!ipv4.isLeaf() || ipv4.value != EMPTY) {
        // The subtree's own node (at ::/96, off every alias's path), or a new leaf of the
        // record ::/96 is part of (which an alias's path may split).
        for (int a = 0; a < ALIASES.length; a++) {
          put(root, ALIASES[a], ALIAS_PREFIXES[a], ipv4.isLeaf() ? new Trie(ipv4.value) : ipv4);
        }
        merge(root);
      }
    }
    if (root.isLeaf()) {
      root.split();
    }
    return root;
  }

  private Value metadata(int nodeCount, int size) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("node_count", uint32(nodeCount));
    m.put("record_size", uint16(size));
    m.put("ip_version", uint16(ipVersion));
    m.put("database_type", databaseType);
    m.put("languages", languages);
    m.put("binary_format_major_version", uint16(2));
    m.put("binary_format_minor_version", uint16(0));
    m.put("build_epoch", uint64(BigInteger.valueOf(buildEpoch)));
    m.put("description", description);
    return freeze(m, "metadata");
  }

  // ---- The search tree.

  /** A node of the tree being built: a leaf (a record id or {@link #EMPTY}) or two children. */
  private static final class Trie {
    Trie zero;
    Trie one;
    int value;
    int number = -1;

    Trie(int value) {
      this.value = value;
    }

    boolean isLeaf() {
      return zero == null;
    }

    void split() {
      zero = new Trie(value);
      one = new Trie(value);
    }
  }

  /**
   * Puts {@code leaf} (a new leaf, or for an alias the IPv4 subtree itself) at the network,
   * splitting the leaves on the way so that the rest of their blocks keep their value.
   */
  private static void put(Trie root, byte[] address, int prefix, Trie leaf) {
    if (prefix == 0) {
      root.zero = leaf.zero;
      root.one = leaf.one;
      root.value = leaf.value;
      return;
    }
    Trie n = root;
    for (int d = 0; d < prefix - 1; d++) {
      if (n.isLeaf()) {
        n.split();
      }
      n = bit(address, d) == 0 ? n.zero : n.one;
    }
    if (n.isLeaf()) {
      n.split();
    }
    if (bit(address, prefix - 1) == 0) {
      n.zero = leaf;
    } else {
      n.one = leaf;
    }
  }

  /** Folds every node whose two children are leaves of one value into a leaf of it. */
  private static void merge(Trie n) {
    if (n.isLeaf()) {
      return;
    }
    merge(n.zero);
    merge(n.one);
    if (n.zero.isLeaf() && n.one.isLeaf() && n.zero.value == n.one.value) {
      n.value = n.zero.value;
      n.zero = null;
      n.one = null;
    }
  }

  /**
   * Numbers the nodes depth-first, low half first, each once (the IPv4 subtree is reached through
   * its aliases too), and lists the records in the order the tree first reaches them.
   */
  private static void number(Trie n, List<Trie> nodes, Set<Integer> used) {
    if (n.isLeaf()) {
      if (n.value != EMPTY) {
        used.add(n.value);
      }
      return;
    }
    if (n.number >= 0) {
      return;
    }
    n.number = nodes.size();
    nodes.add(n);
    number(n.zero, nodes, used);
    number(n.one, nodes, used);
  }

  /** A record's value: a node number, {@code nodeCount} (no data) or a data pointer. */
  private static long record(Trie child, int nodeCount, int[] offsets) {
    if (!child.isLeaf()) {
      return child.number;
    }
    if (child.value == EMPTY) {
      return nodeCount;
    }
    return (long) nodeCount + SEPARATOR + offsets[child.value];
  }

  /** One node, its two records laid out as the spec lays out records of this size. */
  private static void putNode(byte[] b, int size, long left, long right) {
    switch (size) {
      case 24:
        putBigEndian(b, 0, left, 3);
        putBigEndian(b, 3, right, 3);
        break;
      case 28:
        putBigEndian(b, 0, left, 3);
        b[3] = (byte) ((left >>> 24 & 0x0F) << 4 | (right >>> 24 & 0x0F));
        putBigEndian(b, 4, right, 3);
        break;
      default:
        putBigEndian(b, 0, left, 4);
        putBigEndian(b, 4, right, 4);
    }
  }

  private static void putBigEndian(byte[] b, int at, long v, int bytes) {
    for (int i = 0; i < bytes; i++) {
      b[at + i] = (byte) (v >>> (8 * (bytes - 1 - i)));
    }
  }

  private static int bit(byte[] address, int i) {
    return address[i >>> 3] >>> (7 - (i & 7)) & 1;
  }

  private static boolean samePrefix(byte[] a, byte[] b, int prefix) {
    for (int i = 0; i < prefix; i++) {
      if (bit(a, i) != bit(b, i)) {
        return false;
      }
    }
    return true;
  }

  // ---- The data section.

  /**
   * The data section as it is written: each record once, and with pointers on each value written in
   * full once, later copies pointing at it where a pointer is shorter.
   */
  private static final class DataSection {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final boolean pointers;

    /** Where each value (by its pointer-free encoding) was first written in full. */
    final Map<ByteBuffer, Integer> written = new HashMap<>();

    DataSection(boolean pointers) {
      this.pointers = pointers;
    }

    /** The data offset of the record, written now if no equal value was before. */
    int record(Value v) {
      Integer at = written.get(ByteBuffer.wrap(v.plain));
      if (at != null) {
        return at;
      }
      int start = out.size();
      inline(v);
      written.put(ByteBuffer.wrap(v.plain), start);
      return start;
    }

    private void value(Value v) {
      if (!pointers) {
        inline(v);
        return;
      }
      Integer at = written.get(ByteBuffer.wrap(v.plain));
      if (at != null) {
        byte[] pointer = pointer(at);
        if (pointer.length < v.plain.length) {
          out.write(pointer, 0, pointer.length);
          return;
        }
      }
      int start = out.size();
      inline(v);
      written.putIfAbsent(ByteBuffer.wrap(v.plain), start);
    }

    private void inline(Value v) {
      if (v.items == null) {
        out.write(v.plain, 0, v.plain.length);
        return;
      }
      control(out, v.type, v.type == MAP ? v.items.size() / 2 : v.items.size());
      for (Value item : v.items) {
        value(item);
      }
    }
  }

  /** A pointer to the data offset, in the fewest bytes the spec allows (2 to 5). */
  private static byte[] pointer(int offset) {
    if (offset < 1 << 11) {
      return new byte[] {(byte) (POINTER << 5 | offset >>> 8), (byte) offset};
    }
    if (offset < (1 << 11) + (1 << 19)) {
      int v = offset - (1 << 11);
      return new byte[] {(byte) (POINTER << 5 | 1 << 3 | v >>> 16), (byte) (v >>> 8), (byte) v};
    }
    if (offset < (1 << 11) + (1 << 19) + (1 << 27)) {
      int v = offset - (1 << 11) - (1 << 19);
      return new byte[] {
        (byte) (POINTER << 5 | 2 << 3 | v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v
      };
    }
    return new byte[] {
      (byte) (POINTER << 5 | 3 << 3),
      (byte) (offset >>> 24),
      (byte) (offset >>> 16),
      (byte) (offset >>> 8),
      (byte) offset
    };
  }

  /**
   * A value as it is written: its type, its encoding without pointers ({@code plain}, also what
   * makes two values the same), and for a map its keys and values in turn, for an array its
   * elements.
   */
  private static final class Value {
    final int type;
    final byte[] plain;
    final List<Value> items;
    final String text;

    Value(int type, byte[] plain, List<Value> items, String text) {
      this.type = type;
      this.plain = plain;
      this.items = items;
      this.text = text;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Value && Arrays.equals(plain, ((Value) o).plain);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(plain);
    }

    @Override
    public String toString() {
      return text;
    }
  }

  private static Value scalar(int type, byte[] payload, String text) {
    ByteArrayOutputStream o = new ByteArrayOutputStream(payload.length + 6);
    control(o, type, payload.length);
    o.write(payload, 0, payload.length);
    return new Value(type, o.toByteArray(), null, text);
  }

  /** The value as it will be written, checked and copied; {@code where} names it in errors. */
  private static Value freeze(Object v, String where) {
    if (v == null) {
      throw new IllegalArgumentException(where + ": null (a MaxMind DB has no null)");
    }
    if (v instanceof Value) {
      return (Value) v;
    }
    if (v instanceof String) {
      byte[] utf8 = ((String) v).getBytes(StandardCharsets.UTF_8);
      checkSize(utf8.length, where);
      return scalar(UTF8_STRING, utf8, (String) v);
    }
    if (v instanceof Map) {
      TreeMap<String, Object> sorted = new TreeMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (!(e.getKey() instanceof String)) {
          throw new IllegalArgumentException(where + ": map key " + e.getKey() + " not a String");
        }
        sorted.put((String) e.getKey(), e.getValue());
      }
      checkSize(sorted.size(), where);
      List<Value> items = new ArrayList<>(2 * sorted.size());
      for (Map.Entry<String, Object> e : sorted.entrySet()) {
        items.add(freeze(e.getKey(), where));
        items.add(freeze(e.getValue(), where + "." + e.getKey()));
      }
      return container(MAP, sorted.size(), items);
    }
    if (v instanceof List) {
      List<?> list = (List<?>) v;
      checkSize(list.size(), where);
      List<Value> items = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        items.add(freeze(list.get(i), where + "[" + i + "]"));
      }
      return container(ARRAY, list.size(), items);
    }
    if (v instanceof Boolean) {
      // A boolean's value is its size; it has no payload.
      ByteArrayOutputStream o = new ByteArrayOutputStream(2);
      control(o, BOOLEAN, (Boolean) v ? 1 : 0);
      return new Value(BOOLEAN, o.toByteArray(), null, v.toString());
    }
    if (v instanceof Double) {
      return scalar(DOUBLE, ByteBuffer.allocate(8).putDouble((Double) v).array(), v.toString());
    }
    if (v instanceof Float) {
      return (Value) float32((Float) v);
    }
    if (v instanceof byte[]) {
      byte[] b = ((byte[]) v).clone();
      checkSize(b.length, where);
      return scalar(BYTES, b, "bytes[" + b.length + "]");
    }
    if (v instanceof Integer) {
      return (Value) int32((Integer) v);
    }
    if (v instanceof Long) {
      long l = (Long) v;
      if (l < 0 || l > 0xFFFF_FFFFL) {
        throw new IllegalArgumentException(
            where + ": Long " + l + " is written as a uint32 (0 to 2^32-1); uint64() for more");
      }
      return (Value) uint32(l);
    }
    if (v instanceof BigInteger) {
      BigInteger b = (BigInteger) v;
      if (b.signum() < 0 || b.bitLength() > 128) {
        throw new IllegalArgumentException(where + ": BigInteger " + b + " is not a uint128");
      }
      return (Value) (b.bitLength() <= 64 ? uint64(b) : uint128(b));
    }
    throw new IllegalArgumentException(
        where + ": no MaxMind DB type for " + v.getClass().getName() + " " + v);
  }

  private static Value container(int type, int size, List<Value> items) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    control(o, type, size);
    for (Value item : items) {
      o.write(item.plain, 0, item.plain.length);
    }
    return new Value(type, o.toByteArray(), items, items.toString());
  }

  private static void checkSize(int size, String where) {
    if (size > MAX_SIZE) {
      throw new IllegalArgumentException(where + ": size " + size + " over " + MAX_SIZE);
    }
  }

  /**
   * A control byte as the spec lays it out: the type in the top 3 bits (0 and an extended type byte
   * for types above 7), the size in the low 5 (29, 30 or 31 and 1 to 3 more bytes from 29).
   */
  private static void control(ByteArrayOutputStream o, int type, int size) {
    int first = type <= 7 ? type << 5 : 0;
    if (size < 29) {
      o.write(first | size);
    } else if (size < 29 + 256) {
      o.write(first | 29);
    } else if (size < 285 + 65_536) {
      o.write(first | 30);
    } else {
      o.write(first | 31);
    }
    if (type > 7) {
      o.write(type - 7);
    }
    if (size >= 65_821) {
      int s = size - 65_821;
      o.write(s >>> 16);
      o.write(s >>> 8);
      o.write(s);
    } else if (size >= 285) {
      int s = size - 285;
      o.write(s >>> 8);
      o.write(s);
    } else if (size >= 29) {
      o.write(size - 29);
    }
  }

  /** An unsigned integer in as few big-endian bytes as it needs (zero in none). */
  private static byte[] unsigned(BigInteger v) {
    byte[] b = v.toByteArray();
    int skip = 0;
    while (skip < b.length && b[skip] == 0) {
      skip++;
    }
    return Arrays.copyOfRange(b, skip, b.length);
  }

  /**
   * An int32: a negative one in all 4 bytes (readers fill a shorter one with zeros, not the sign),
   * any other in as few as it needs.
   */
  private static byte[] int32Bytes(int v) {
    return v < 0 ? ByteBuffer.allocate(4).putInt(v).array() : unsigned(BigInteger.valueOf(v));
  }

  // ---- Networks.

  /** One insert: the network in tree bits (4 or 16 bytes) and the id of its record. */
  private static final class Insert {
    final String cidr;
    final byte[] address;
    final int prefix;
    final int record;

    Insert(String cidr, byte[] address, int prefix, int record) {
      this.cidr = cidr;
      this.address = address;
      this.prefix = prefix;
      this.record = record;
    }
  }

  /**
   * The address of a CIDR (4 bytes for IPv4 text, 16 for IPv6, {@code ::ffff:a.b.c.d} included),
   * its prefix checked and its host bits zero. Literals only: nothing is looked up.
   */
  private static byte[] parse(String cidr) {
    int slash = cidr == null ? -1 : cidr.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("not a CIDR: " + cidr);
    }
    String host = cidr.substring(0, slash);
    String len = cidr.substring(slash + 1);
    boolean v6 = IPV6.matcher(host).matches();
    if (!(v6 || IPV4.matcher(host).matches()) || !PREFIX.matcher(len).matches()) {
      throw new IllegalArgumentException("not a CIDR: " + cidr);
    }
    byte[] address;
    if (v6) {
      try {
        // Never a name look-up: Java parses text with a colon as an IPv6 literal or refuses it.
        address = InetAddress.getByName(host).getAddress();
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("not a CIDR: " + cidr, e);
      }
    } else {
      String[] octets = host.split("\\.");
      address = new byte[4];
      for (int i = 0; i < 4; i++) {
        int octet = Integer.parseInt(octets[i]);
        if (octet > 255) {
          throw new IllegalArgumentException("not a CIDR: " + cidr);
        }
        address[i] = (byte) octet;
      }
    }
    if (v6 && address.length == 4) {
      // Java reads ::ffff:a.b.c.d as the IPv4 address; the tree keeps it where it is.
      byte[] mapped = new byte[16];
      mapped[10] = (byte) 0xFF;
      mapped[11] = (byte) 0xFF;
      System.arraycopy(address, 0, mapped, 12, 4);
      address = mapped;
    }
    int prefix = Integer.parseInt(len);
    if (prefix > address.length * 8) {
      throw new IllegalArgumentException("prefix too long: " + cidr);
    }
    for (int i = prefix; i < address.length * 8; i++) {
      if (bit(address, i) != 0) {
        throw new IllegalArgumentException("host bits set: " + cidr);
      }
    }
    return address;
  }

  private static <T> T requireNonNull(T v, String what) {
    if (v == null) {
      throw new IllegalArgumentException(what + ": null");
    }
    return v;
  }
}
