/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.index;

import io.spindex.index.search.Encoding;
import io.spindex.index.search.IntColumn;
import io.spindex.index.search.Keys128;
import io.spindex.index.search.LockStep;
import io.spindex.index.search.LongColumn;
import io.spindex.index.search.PackedRows;
import io.spindex.index.search.Search6;
import io.spindex.index.search.SubTables;
import io.spindex.index.search.Tiled6;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Read-only, non-overlapping IP ranges, each with a label from a dictionary in which every distinct
 * label is stored once. IPv4 ranges have 32-bit keys; a dual-stack file adds IPv6 ranges with
 * 128-bit keys, labelled from the same dictionary. Thread-safe; lookups allocate nothing (labels
 * are decoded once each and cached).
 *
 * <p>Rows ({@link #size}, {@link #start}, {@link #end}) are the IPv4 rows; the IPv6 ones have their
 * own ({@link #ipv6Size}, {@link #ipv6Row}). A row is a range, or a gap between ranges (its label
 * id {@link #NONE}); each row ends where the next starts, the last at the top of the space, so a
 * lookup finds the row and reads its label id, and nothing else. An IPv4-mapped IPv6 address
 * ({@code ::ffff:a.b.c.d}) is looked up as the IPv4 address {@code a.b.c.d}.
 */
public final class IpRanges extends SpindexIndex {
  /** Returned by {@link #row} and {@link #labelId} when no range holds the address. */
  public static final int NONE = -1;

  private final IntColumn starts;
  private final IntColumn labelIds;

  /**
   * The rows read in place ({@code mapped}), or {@code null}: a search then compares the low 16
   * bits of the starts of one /16 block, whose rows all share the high bits, and reads the label id
   * from them; {@link #starts} and {@link #labelIds} are views over them for everything else.
   */
  private final PackedRows.InPlace packed;

  private final IntColumn prefix;
  private final SubTables sub;
  private final LabelDictionary dictionary;
  private final String[] decoded;
  private final Keys128 starts6;
  private final IntColumn labelIds6;

  /** The IPv6 rows' search ({@link Tiled6} or {@link Tiled6.InPlace}), or {@code null}: none. */
  private final Search6 search6;

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

    Extras(LabelSchema schema, SourceInfo sourceInfo, Ipv4Aliases aliases) {
      this.schema = schema;
      this.sourceInfo = sourceInfo;
      this.aliases = aliases;
    }
  }

  IpRanges(
      IndexHeader header,
      String loader,
      IntColumn starts,
      IntColumn labelIds,
      PackedRows.InPlace packed,
      IntColumn prefix,
      SubTables sub,
      LabelDictionary dictionary,
      Keys128 starts6,
      IntColumn labelIds6,
      Search6 search6,
      Extras extras) {
    super(header, loader);
    this.search6 = search6;
    this.schema = extras.schema;
    this.sourceInfo = extras.sourceInfo;
    this.aliases = extras.aliases;
    this.starts6 = starts6;
    this.labelIds6 = labelIds6;
    this.starts = starts;
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
   * IPv4 rows: ranges, and the gaps between them (a row whose {@link #labelIdOfRow} is {@link
   * #NONE}).
   */
  @Override
  public int size() {
    return starts.size();
  }

  /** IPv4 ranges: {@link #size} less the gap rows. */
  public int rangeCount() {
    int n = ranges;
    if (n < 0) {
      // Racy but benign: every thread counts the same.
      n = starts.size();
      for (int i = 0; i < starts.size(); i++) {
        n -= labelIds.get(i) == NONE ? 1 : 0;
      }
      ranges = n;
    }
    return n;
  }

  /** Distinct labels in the dictionary. */
  public int labelCount() {
    return decoded.length;
  }

  /** First address of range {@code row}. */
  public int start(int row) {
    return Encoding.flip(starts.get(row));
  }

  /** Last address (inclusive) of row {@code row}: the next row's start less one. */
  public int end(int row) {
    return row + 1 < starts.size() ? Encoding.flip(starts.get(row + 1)) - 1 : -1;
  }

  /** Label id of row {@code row}; {@link #NONE} for a gap row. */
  public int labelIdOfRow(int row) {
    return labelIds.get(row);
  }

  /** The row of the range that holds {@code address}, or {@link #NONE}. */
  public int row(int address) {
    int r = floor(address);
    return r >= 0 && labelAt(r) != NONE ? r : NONE;
  }

  /** The label id of a row a search found: the row holds every address up to the next start. */
  private int labelAt(int row) {
    return packed != null ? packed.labelId(row) : labelIds.get(row);
  }

  /** The last row that starts at or before {@code address}, or -1. */
  private int floor(int address) {
    if (prefix == null) {
      return -1; // no IPv4 rows
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
            : IntColumn.upperBound(starts, lo, hi, Encoding.flip(address)))
        - 1;
  }

  /** The key a search compares for {@code address}: its low 16 bits (packed), else all, flipped. */
  private int key(int address) {
    return packed != null ? address & 0xFFFF : Encoding.flip(address);
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
   * IPv6 rows: ranges, and the gaps between them (a row whose {@link #ipv6LabelIdOfRow} is {@link
   * #NONE}).
   */
  public int ipv6Size() {
    return starts6.size();
  }

  /** IPv6 ranges: {@link #ipv6Size} less the gap rows. */
  public int ipv6RangeCount() {
    int n = ranges6;
    if (n < 0) {
      n = starts6.size();
      for (int i = 0; i < starts6.size(); i++) {
        n -= labelIds6.get(i) == NONE ? 1 : 0;
      }
      ranges6 = n;
    }
    return n;
  }

  /** The IPv6 starts, with their prefix table and tables, for the verifier. */
  Keys128 starts6() {
    return starts6;
  }

  /** The IPv6 rows as {@link Tiled6} (heap loaders), or {@code null}. */
  Tiled6 tiled6Rows() {
    return search6 instanceof Tiled6 ? (Tiled6) search6 : null;
  }

  /** The IPv6 rows ({@link Section#RANGE6_ROWS}, in place or copied) under {@link #labelIds6}. */
  LongColumn packedRows6() {
    return Tiled6.rowsOf(labelIds6);
  }

  /** The IPv6 rows' label ids (-1 for a gap row). */
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

  /**
   * High 64 bits of the last address (inclusive) of IPv6 row {@code row}: the next row's start less
   * one.
   */
  public long ipv6EndHi(int row) {
    if (row + 1 == starts6.size()) {
      return -1L;
    }
    long lo = starts6.lo(row + 1);
    return lo == 0 ? starts6.hi(row + 1) - 1 : starts6.hi(row + 1);
  }

  /** Low 64 bits of the last address (inclusive) of IPv6 row {@code row}. */
  public long ipv6EndLo(int row) {
    return row + 1 == starts6.size() ? -1L : starts6.lo(row + 1) - 1;
  }

  /** Label id of IPv6 row {@code row}; {@link #NONE} for a gap row. */
  public int ipv6LabelIdOfRow(int row) {
    return labelIds6.get(row);
  }

  /**
   * The IPv6 row of the range that holds the address (high and low 64 bits), or {@link #NONE}; an
   * IPv4-mapped address has no IPv6 row (see {@link #labelId(long, long)}).
   */
  public int ipv6Row(long hi, long lo) {
    if (search6 == null) {
      return NONE;
    }
    int r = search6.floor(hi, lo);
    return search6.labelIdAt(r) != NONE ? r : NONE;
  }

  /**
   * The label id of the range that holds the IPv6 address (high and low 64 bits), or {@link #NONE};
   * an IPv4-mapped address is looked up as its IPv4 address.
   */
  public int labelId(long hi, long lo) {
    if (isIpv4Mapped(hi, lo)) {
      return labelId((int) lo);
    }
    int id = search6 == null ? NONE : search6.labelId(hi, lo);
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
    if (search6 != null) {
      search6.floorAll(hi, lo, count, out);
    } else {
      java.util.Arrays.fill(out, 0, count, -1);
    }
    int hits = 0;
    for (int i = 0; i < count; i++) {
      int id;
      if (isIpv4Mapped(hi[i], lo[i])) {
        id = labelId((int) lo[i]);
      } else {
        id = out[i] < 0 ? NONE : search6.labelIdAt(out[i]);
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
    return r < 0 ? NONE : labelAt(r);
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
        int id = row < 0 ? NONE : labelAt(row);
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
      int id = row < 0 ? NONE : labelAt(row);
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
