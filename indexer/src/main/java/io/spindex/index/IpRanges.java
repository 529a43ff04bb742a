/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Read-only, non-overlapping IP ranges, each with a label from a dictionary in which every distinct
 * label is stored once. IPv4 ranges have 32-bit keys; a dual-stack file adds IPv6 ranges with
 * 128-bit keys, labelled from the same dictionary. Thread-safe; lookups allocate nothing (labels
 * are decoded once each and cached).
 *
 * <p>Rows ({@link #size}, {@link #start}, {@link #end}) are the IPv4 ranges; the IPv6 ones have
 * their own rows ({@link #ipv6Size}, {@link #ipv6Row}). An IPv4-mapped IPv6 address ({@code
 * ::ffff:a.b.c.d}) is looked up as the IPv4 address {@code a.b.c.d}.
 *
 * <p>An index whose IPv4 ranges are stored without their ends ({@link #tiled}: section {@code
 * tiled_labels}, format version 6) has a row for each range and one for each gap between ranges; a
 * row ends where the next starts, and a gap row's label id is {@link #NONE}. A lookup then reads
 * the label id of the row it finds and nothing else.
 */
public final class IpRanges extends SpindexIndex {
  /** Returned by {@link #row} and {@link #labelId} when no range holds the address. */
  public static final int NONE = -1;

  private final IntColumn starts;

  /** The ends, or {@code null} when the rows are tiled (each ends where the next starts). */
  private final IntColumn ends;

  private final IntColumn labelIds;

  /**
   * Packed rows read in place ({@code mapped}), or {@code null}: a search then compares the low 16
   * bits of the starts of one /16 block, whose rows all share the high bits, and reads the label id
   * from them; {@link #starts} and {@link #labelIds} are views over them for everything else.
   */
  private final PackedRows.InPlace packed;

  private final IntColumn prefix;
  private final SubTables sub;
  private final LabelDictionary dictionary;
  private final String[] decoded;
  private final Keys128 starts6;
  private final Keys128 ends6;
  private final IntColumn labelIds6;

  /** The heap loaders' IPv6 rows ({@link Tiled6} or {@link Rows6}), or {@code null}. */
  private final Search6 rows6;

  private final Search6 search6;
  private final boolean tiled6;
  private final LabelSchema schema;
  private final SourceInfo sourceInfo;
  private final Ipv4Aliases aliases;
  private final Object[][] values;

  /** {@link #rangeCount} and {@link #ipv6RangeCount}, counted on first use; -1 before. */
  private int ranges = -1;

  private int ranges6 = -1;

  /** What a range index may hold beside its rows: label schema, source information, aliases. */
  static final class Extras {
    final LabelSchema schema;
    final SourceInfo sourceInfo;
    final Ipv4Aliases aliases;

    /** Whether the IPv6 ranges are tiled rows ({@link Section#TILED6_LABELS}). */
    final boolean tiled6;

    Extras(LabelSchema schema, SourceInfo sourceInfo, Ipv4Aliases aliases, boolean tiled6) {
      this.schema = schema;
      this.sourceInfo = sourceInfo;
      this.aliases = aliases;
      this.tiled6 = tiled6;
    }
  }

  IpRanges(
      IndexHeader header,
      String loader,
      IntColumn starts,
      IntColumn ends,
      IntColumn labelIds,
      PackedRows.InPlace packed,
      IntColumn prefix,
      SubTables sub,
      LabelDictionary dictionary,
      Keys128 starts6,
      Keys128 ends6,
      IntColumn labelIds6,
      Search6 rows6,
      Extras extras) {
    super(header, loader);
    this.rows6 = rows6;
    this.tiled6 = extras.tiled6;
    this.search6 =
        rows6 != null ? rows6 : Search6.columns(starts6, tiled6 ? null : ends6, labelIds6);
    this.schema = extras.schema;
    this.sourceInfo = extras.sourceInfo;
    this.aliases = extras.aliases;
    this.starts6 = starts6;
    this.ends6 = ends6;
    this.labelIds6 = labelIds6;
    this.starts = starts;
    this.ends = ends;
    this.labelIds = labelIds;
    this.packed = packed;
    this.prefix = prefix;
    this.sub = sub;
    this.dictionary = dictionary;
    this.decoded = new String[dictionary.count()];
    this.values = new Object[decoded.length][];
  }

  @Override
  public IpRanges asRanges() {
    return this;
  }

  /** The /16 prefix table, or {@code null} when the file has none. */
  IntColumn prefixTable() {
    return prefix;
  }

  /** The /24 sub-tables of the dense /16 blocks, or {@code null} when the file has none. */
  SubTables subTables() {
    return sub;
  }

  /**
   * IPv4 rows: ranges, and in a {@link #tiled} index the gaps between them too (a row whose {@link
   * #labelIdOfRow} is {@link #NONE}).
   */
  @Override
  public int size() {
    return starts.size();
  }

  /** IPv4 ranges: {@link #size} less the gap rows of a {@link #tiled} index. */
  public int rangeCount() {
    int n = ranges;
    if (n < 0) {
      // Racy but benign: every thread counts the same.
      n = starts.size();
      for (int i = 0; ends == null && i < starts.size(); i++) {
        n -= labelIds.get(i) == NONE ? 1 : 0;
      }
      ranges = n;
    }
    return n;
  }

  /**
   * Whether the IPv4 ranges are stored without their ends (format version 6, section {@code
   * tiled_labels}): each row ends where the next starts, the last at 255.255.255.255, and a gap
   * between ranges is a row of its own whose label id is {@link #NONE}.
   */
  public boolean tiled() {
    return ends == null;
  }

  /** Distinct labels in the dictionary. */
  public int labelCount() {
    return decoded.length;
  }

  /** First address of range {@code row}. */
  public int start(int row) {
    return Layout.flip(starts.get(row));
  }

  /** Last address (inclusive) of range {@code row}. */
  public int end(int row) {
    if (ends == null) {
      return row + 1 < starts.size() ? Layout.flip(starts.get(row + 1)) - 1 : -1;
    }
    return Layout.flip(ends.get(row));
  }

  /** Label id of range {@code row}; {@link #NONE} for a gap row of a {@link #tiled} index. */
  public int labelIdOfRow(int row) {
    return labelIds.get(row);
  }

  /** The row of the range that holds {@code address}, or {@link #NONE}. */
  public int row(int address) {
    int r = floor(address);
    return r >= 0 && labelAt(r, Layout.flip(address)) != NONE ? r : NONE;
  }

  /**
   * The label id of {@code row} if it holds the flipped {@code key}, else {@link #NONE}; the row
   * starts at or before the key (a row a search found). A tiled row holds every key up to the next
   * row's start, which a search never passes.
   */
  private int labelAt(int row, int key) {
    if (packed != null) {
      return packed.labelId(row);
    }
    return ends == null || ends.get(row) >= key ? labelIds.get(row) : NONE;
  }

  /** The last row that starts at or before {@code address}, or -1. */
  private int floor(int address) {
    if (prefix == null) {
      return upperBound(starts, 0, starts.size(), Layout.flip(address)) - 1;
    }
    int p = address >>> 16;
    int lo = prefix.get(p);
    int hi = prefix.get(p + 1);
    int table = sub == null ? -1 : sub.of(p);
    if (table >= 0) {
      // Only the rows that start in the address's /24 (or the one before them) are candidates.
      int q = (address >>> 8) & 0xFF;
      int block = lo;
      lo = block + sub.before(table, q);
      hi = q == 255 ? hi : block + sub.before(table, q + 1);
    }
    // The last row of the /16 block starting at or before the address, or (when none does) the
    // one before the candidates, which starts before them.
    return (packed != null
            ? packed.upperBound(lo, hi, address & 0xFFFF)
            : upperBound(starts, lo, hi, Layout.flip(address)))
        - 1;
  }

  /** The key a search compares for {@code address}: its low 16 bits (packed), else all, flipped. */
  private int key(int address) {
    return packed != null ? address & 0xFFFF : Layout.flip(address);
  }

  /** The key a search compares at {@code row}, as {@link #key} gives an address's. */
  private int keyAt(int row) {
    return packed != null ? packed.low(row) : starts.get(row);
  }

  /**
   * The names of the fields a label is made of, as the build declared them ({@code spindex build
   * ranges --label-fields}); empty when it declared none.
   */
  public List<String> labelFields() {
    return schema == null ? List.of() : schema.names();
  }

  /** The delimiter that splits a label into {@link #labelFields}; {@code null} without fields. */
  public String labelDelimiter() {
    return schema == null ? null : schema.delimiter();
  }

  /**
   * The label's fields with their types ({@link LabelSchema#typed} when the build declared types,
   * else all STRING), or {@code null} when the build declared no fields.
   */
  public LabelSchema labelSchema() {
    return schema;
  }

  /**
   * Label {@code labelId}'s fields as Java values of their types ({@link LabelSchema#values}); a
   * label of an index without fields is one String. Decoded once per label and cached; the array is
   * shared, not to be changed.
   */
  public Object[] labelValues(int labelId) {
    Object[] v = values[labelId];
    if (v == null) {
      // Racy but benign, like labelText.
      if (schema == null) {
        v = new Object[] {labelText(labelId)};
      } else {
        byte[] b = labelBytes(labelId);
        v = schema.values(b, 0, b.length);
      }
      values[labelId] = v;
    }
    return v;
  }

  /** What the sources said of themselves (a MaxMind database's metadata); empty for text. */
  public SourceInfo sourceInfo() {
    return sourceInfo;
  }

  /** The IPv6 prefixes looked up as IPv4 addresses; {@link Ipv4Aliases#NONE} for most indexes. */
  public Ipv4Aliases ipv4Aliases() {
    return aliases;
  }

  /**
   * IPv6 rows: ranges, and in an index whose IPv6 ranges are {@link #ipv6Tiled} the gaps between
   * them too (a row whose {@link #ipv6LabelIdOfRow} is {@link #NONE}).
   */
  public int ipv6Size() {
    return starts6.size();
  }

  /** IPv6 ranges: {@link #ipv6Size} less the gap rows. */
  public int ipv6RangeCount() {
    int n = ranges6;
    if (n < 0) {
      n = starts6.size();
      for (int i = 0; tiled6 && i < starts6.size(); i++) {
        n -= labelIds6.get(i) == NONE ? 1 : 0;
      }
      ranges6 = n;
    }
    return n;
  }

  /**
   * Whether the IPv6 ranges are stored without their ends (section {@code tiled6_labels}, format
   * version 6), as {@link #tiled} says of the IPv4 ones.
   */
  public boolean ipv6Tiled() {
    return tiled6;
  }

  /** The IPv6 starts (with their prefix table) and ends, for the verifier. */
  Keys128 starts6() {
    return starts6;
  }

  Keys128 ends6() {
    return ends6;
  }

  /**
   * The IPv6 ranges as {@link Rows6} (heap loaders, ranges with their ends or tiled ones whose
   * tables do not allow {@link Tiled6}), or {@code null}.
   */
  Rows6 rows6() {
    return rows6 instanceof Rows6 ? (Rows6) rows6 : null;
  }

  /** The tiled IPv6 ranges as {@link Tiled6} (heap loaders), or {@code null}. */
  Tiled6 tiled6Rows() {
    return rows6 instanceof Tiled6 ? (Tiled6) rows6 : null;
  }

  /**
   * The packed IPv6 rows whose label ids {@link #labelIds6} reads, or {@code null}: the file's
   * ({@link Section#TILED6_ROWS}, in place or copied) or made at open from {@code tiled6_labels}.
   */
  LongColumn packedRows6() {
    return Tiled6.rowsOf(labelIds6);
  }

  /** The IPv6 rows' label ids (-1 for a gap row of tiled rows). */
  IntColumn labelIds6() {
    return labelIds6;
  }

  /** High 64 bits of the first address of IPv6 range {@code row}. */
  public long ipv6StartHi(int row) {
    return starts6.hi(row);
  }

  /** Low 64 bits of the first address of IPv6 range {@code row}. */
  public long ipv6StartLo(int row) {
    return starts6.lo(row);
  }

  /** High 64 bits of the last address (inclusive) of IPv6 range {@code row}. */
  public long ipv6EndHi(int row) {
    return ends6.hi(row);
  }

  /** Low 64 bits of the last address (inclusive) of IPv6 range {@code row}. */
  public long ipv6EndLo(int row) {
    return ends6.lo(row);
  }

  /** Label id of IPv6 range {@code row}; {@link #NONE} for a gap row of tiled IPv6 ranges. */
  public int ipv6LabelIdOfRow(int row) {
    return labelIds6.get(row);
  }

  /**
   * The IPv6 row of the range that holds the address (high and low 64 bits), or {@link #NONE}; an
   * IPv4-mapped address has no IPv6 row (see {@link #labelId(long, long)}).
   */
  public int ipv6Row(long hi, long lo) {
    int r = search6.floor(hi, lo);
    return search6.labelIdAt(r, hi, lo) != NONE ? r : NONE;
  }

  /**
   * The label id of the range that holds the IPv6 address (high and low 64 bits), or {@link #NONE};
   * an IPv4-mapped address is looked up as its IPv4 address.
   */
  public int labelId(long hi, long lo) {
    if (isIpv4Mapped(hi, lo)) {
      return labelId((int) lo);
    }
    int id = search6.labelId(hi, lo);
    return id != NONE || aliases.isEmpty() ? id : aliased(hi, lo);
  }

  /** The label id of an IPv6 address no IPv6 range holds: its IPv4 alias's, or NONE. */
  private int aliased(long hi, long lo) {
    long a = aliases.ipv4(hi, lo);
    return a < 0 ? NONE : labelId((int) a);
  }

  /**
   * Batch IPv6 lookup: {@code out[i] = labelId(hi[i], lo[i])} for {@code i < count}, the searches
   * in lock step like {@link #labelIds} (IPv4-mapped addresses go to the IPv4 lookup). Allocates a
   * few small arrays per call, nothing per address.
   *
   * @return how many addresses fell in a range
   */
  public int labelIds(long[] hi, long[] lo, int count, int[] out) {
    search6.floorAll(hi, lo, count, out);
    int hits = 0;
    for (int i = 0; i < count; i++) {
      int id;
      if (isIpv4Mapped(hi[i], lo[i])) {
        id = labelId((int) lo[i]);
      } else {
        id = search6.labelIdAt(out[i], hi[i], lo[i]);
        if (id == NONE && !aliases.isEmpty()) {
          id = aliased(hi[i], lo[i]);
        }
      }
      out[i] = id;
      hits += id == NONE ? 0 : 1;
    }
    return hits;
  }

  /** The label of the range that holds the IPv6 address, or {@code null}. */
  public String label(long hi, long lo) {
    int id = labelId(hi, lo);
    return id == NONE ? null : labelText(id);
  }

  /** The label id of the range that holds {@code address}, or {@link #NONE}. */
  public int labelId(int address) {
    int r = floor(address);
    return r < 0 ? NONE : labelAt(r, Layout.flip(address));
  }

  /** The label of the range that holds {@code address}, or {@code null}. */
  public String label(int address) {
    int id = labelId(address);
    return id == NONE ? null : labelText(id);
  }

  /**
   * Batch lookup: {@code out[i] = labelId(addresses[i])} for {@code i < count}. Like {@link
   * IpSet#containsAll}, searches {@value LockStep#GROUP} addresses in lock step ({@link LockStep})
   * so that their cache misses overlap. The /16 blocks of real databases differ widely (thousands
   * of rows in a dense one, none in most), so an address whose block leaves at most two candidate
   * rows is answered at once, and only the others are searched in lock step: they need about as
   * many steps as each other, and the quick ones do not wait for the densest. The /24 sub-tables
   * are not used here: they save a dependent read or two per address, which the lock step already
   * overlaps, and cost two more rounds of reads (map, sub-table) before the search can start
   * (real-shaped ranges, addresses by range: 14.5 ns an address with the /16 table alone, 18.5 with
   * the sub-tables). Allocates a few small arrays per call, nothing per address.
   *
   * @return how many addresses fell in a range
   */
  public int labelIds(int[] addresses, int count, int[] out) {
    int last = starts.size() - 1;
    if (prefix == null || last < 0) {
      int hits = 0;
      for (int i = 0; i < count; i++) {
        int id = labelId(addresses[i]);
        out[i] = id;
        hits += id == NONE ? 0 : 1;
      }
      return hits;
    }
    LockStep search = new LockStep();
    LockStep.IntKeys probe =
        packed != null ? new LockStep.IntKeys(packed.lows()) : new LockStep.IntKeys(starts);
    int before = packed != null ? 0 : 1;
    int[] slot = new int[LockStep.GROUP];
    int hits = 0;
    for (int i = 0; i < count; i++) {
      int address = addresses[i];
      int p = address >>> 16;
      // The range holding the address starts in its /16 block or is the row just before it,
      // which the search includes where the keys are whole starts.
      int from = Math.max(prefix.get(p) - before, 0);
      int n = prefix.get(p + 1) - from;
      int k = key(address);
      if (n <= 2) {
        int row = n == 2 && keyAt(from + 1) <= k ? from + 1 : from;
        row = n > 0 && keyAt(row) <= k ? row : from - 1;
        int id = row < 0 ? NONE : labelAt(row, Layout.flip(address));
        out[i] = id;
        hits += id == NONE ? 0 : 1;
        continue;
      }
      int j = search.add(from, n);
      probe.key[j] = k;
      slot[j] = i;
      if (search.size() == LockStep.GROUP) {
        hits += lockStep(search, probe, addresses, slot, out);
      }
    }
    return search.size() == 0 ? hits : hits + lockStep(search, probe, addresses, slot, out);
  }

  /**
   * Runs the lock-step search of {@link #labelIds} for the addresses added (of blocks with three
   * rows or more), writes their answers and clears it. A search that found no row of its block at
   * or before its key ended on the block's first row; the row before that holds the address.
   */
  private int lockStep(
      LockStep search, LockStep.IntKeys probe, int[] addresses, int[] slot, int[] out) {
    search.search(probe);
    int hits = 0;
    for (int j = 0, m = search.size(); j < m; j++) {
      int row = search.row(j);
      row = keyAt(row) <= probe.key[j] ? row : row - 1;
      int id = row < 0 ? NONE : labelAt(row, Layout.flip(addresses[slot[j]]));
      out[slot[j]] = id;
      hits += id == NONE ? 0 : 1;
    }
    search.clear();
    return hits;
  }

  /** The label with this id, decoded from UTF-8 once and then cached. */
  public String labelText(int labelId) {
    String s = decoded[labelId];
    if (s == null) {
      // Racy but benign: every thread decodes the same immutable String.
      s = new String(labelBytes(labelId), StandardCharsets.UTF_8);
      decoded[labelId] = s;
    }
    return s;
  }

  /** The labels' dictionary, for {@code verify}. */
  LabelDictionary dictionary() {
    return dictionary;
  }

  /** A copy of the label's bytes exactly as they stood in the source. */
  public byte[] labelBytes(int labelId) {
    return dictionary.bytes(labelId);
  }
}
