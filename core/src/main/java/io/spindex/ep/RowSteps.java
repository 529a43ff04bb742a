/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.ep;

import io.spindex.ep.feed.EpRow;
import io.spindex.ep.feed.Verdict;
import io.spindex.index.ProductIndex;
import io.spindex.text.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The steps that read or change values: normalize, default, map, filter. */
final class RowSteps {
  private RowSteps() {}

  /** {@code { normalize { fields = [..], ops = [..] } }}: normalisers in order, on each field. */
  static final class Normalize extends Step {
    private final List<String> fields;
    private final Normalizer[] ops;

    Normalize(int number, String origin, List<String> fields, List<Normalizer> ops) {
      super(number, "normalize", origin);
      this.fields = new ArrayList<>(fields);
      this.ops = ops.toArray(new Normalizer[0]);
    }

    @Override
    RowStep compile(Schema s) {
      int[] slots = new int[fields.size()];
      for (int i = 0; i < slots.length; i++) {
        slots[i] = s.slot(fields.get(i), where);
      }
      Normalizer[] ops = this.ops;
      Screen screen = new Screen(ops);
      boolean text = screen.textChain;
      boolean trim = screen.trim;
      long cleanSlots = 0;
      for (int slot : slots) {
        cleanSlots |= text && slot < 64 ? 1L << slot : 0;
      }
      long reads = cleanSlots;
      return new RowStep(label()) {
        @Override
        long cleanSlots() {
          return reads;
        }

        @Override
        int apply(EpRow row, Verdict v) {
          int result = UNCHANGED;
          for (int slot : slots) {
            int len = row.length(slot);
            if (len == 0) {
              continue;
            }
            if (text && row.isClean(slot)) {
              // Screened while the line was split: only a space at an end can matter (trim).
              byte[] a = row.array(slot);
              if (!trim || a[row.from(slot)] != ' ' && a[row.to(slot) - 1] != ' ') {
                continue;
              }
            } else if (!screen.mayChange(row.array(slot), row.from(slot), row.to(slot))) {
              continue;
            }
            int at = row.reserve(len);
            byte[] out = row.scratch();
            byte[] in = row.array(slot);
            int f = row.from(slot);
            int t = row.to(slot);
            // Every normaliser shrinks or keeps the length; after the first, work in place.
            for (Normalizer op : ops) {
              t = op.apply(in, f, t, out, at);
              in = out;
              f = at;
            }
            if (row.sameBytes(slot, out, at, t)) {
              row.release(at, 0);
            } else {
              row.release(at, t - at);
              row.set(slot, out, at, t);
              result = CHANGED;
            }
          }
          return result;
        }
      };
    }
  }

  /**
   * One pass over a value instead of one per normaliser: {@code false} only when no normaliser of
   * the chain would change it. Bytes that might matter are marked in a table built from the chain;
   * a marked space matters only next to another space (collapse) or at an end (trim).
   */
  static final class Screen {
    private final boolean[] marked = new boolean[256];
    private final boolean trim;
    private final boolean singleSpaceHarmless;

    /** The chain is only strip-control, collapse-whitespace and trim: a word-at-a-time test. */
    private final boolean textChain;

    private final Normalizer[] ops;

    Screen(Normalizer[] ops) {
      this.ops = ops;
      boolean t = false;
      boolean c = false;
      boolean digits = false;
      for (Normalizer op : ops) {
        switch (op) {
          case STRIP_CONTROL:
            for (int x = 0; x < 0x20; x++) {
              marked[x] = true;
            }
            marked[0x7F] = true;
            marked[0xC2] = true;
            break;
          case COLLAPSE_WHITESPACE:
            marked[' '] = true;
            marked[0xC2] = true;
            marked[0xE3] = true;
            c = true;
            break;
          case TRIM:
            t = true;
            break;
          default: // digits-only: everything but digits (a leading '-' is checked by the op)
            for (int x = 0; x < 256; x++) {
              marked[x] |= x < '0' || x > '9';
            }
            digits = true;
            break;
        }
      }
      this.trim = t;
      // Collapse leaves a lone space alone; digits-only would remove it.
      this.singleSpaceHarmless = c && !digits;
      this.textChain = !digits;
    }

    boolean mayChange(byte[] b, int from, int to) {
      if (isInteger(b, from, to)) {
        return false; // no normaliser changes an integer (prices: the common case of digits-only)
      }
      if (trim && Normalizer.TRIM.mayChange(b, from, to)) {
        return true;
      }
      int i = from;
      if (textChain) {
        // Eight bytes at a time: clean unless a word holds a byte below 0x20, 0x7F, 0xC2 (C1
        // controls, U+00A0), 0xE3 (U+3000) or two spaces in a row. Only existence matters here,
        // so the borrow artefacts of the SWAR tests (in bytes above a real hit) do no harm.
        boolean spaceBefore = false;
        for (; i + 8 <= to; i += 8) {
          long w = Bytes.le64(b, i);
          long odd =
              ((w - 0x2020202020202020L) & ~w)
                  | Bytes.matches(w, DEL)
                  | Bytes.matches(w, C2)
                  | Bytes.matches(w, E3);
          if ((odd & 0x8080808080808080L) != 0) {
            break;
          }
          long sp = exactBytes(w, SPACES);
          if ((sp & (sp >>> 8)) != 0 || spaceBefore && (sp & 0x80L) != 0) {
            break;
          }
          spaceBefore = (sp >>> 56) != 0;
        }
        if (i > from && i < to && spaceBefore) {
          i -= 1; // re-read the last space so a run across the word edge is seen
        }
      }
      for (; i < to; i++) {
        int x = b[i] & 0xFF;
        if (marked[x]) {
          if (x == ' ' && singleSpaceHarmless && (i + 1 == to || b[i + 1] != ' ')) {
            continue;
          }
          // A closer look: the byte may be harmless here (a C2 that starts no control or NBSP).
          for (Normalizer op : ops) {
            if (op.mayChange(b, from, to)) {
              return true;
            }
          }
          return false;
        }
      }
      return false;
    }
  }

  /** Whether {@code b[from, to)} is an optional '-' and one or more ASCII digits. */
  static boolean isInteger(byte[] b, int from, int to) {
    int i = from < to && b[from] == '-' ? from + 1 : from;
    if (i == to) {
      return false;
    }
    for (; i < to; i++) {
      if (b[i] < '0' || b[i] > '9') {
        return false;
      }
    }
    return true;
  }

  private static final long DEL = Bytes.repeat((byte) 0x7F);
  private static final long C2 = Bytes.repeat((byte) 0xC2);
  private static final long E3 = Bytes.repeat((byte) 0xE3);
  private static final long SPACES = Bytes.repeat((byte) ' ');

  /** The top bit set in exactly the bytes of {@code w} equal to the byte of {@code pattern}. */
  static long exactBytes(long w, long pattern) {
    long x = w ^ pattern;
    return ~(((x & 0x7F7F7F7F7F7F7F7FL) + 0x7F7F7F7F7F7F7F7FL) | x) & 0x8080808080808080L;
  }

  /** {@code { default { field = f, value = "v" } }} or {@code from = g}: fills an empty field. */
  static final class Default extends Step {
    private final String field;
    private final byte[] value;
    private final String from;

    Default(int number, String origin, String field, String value, String from) {
      super(number, "default", origin);
      this.field = field;
      this.value = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
      this.from = from;
    }

    @Override
    RowStep compile(Schema s) {
      int src = from == null ? -1 : s.slot(from, where);
      int dst = s.slotOrAdd(field);
      byte[] value = this.value;
      return new RowStep(label()) {
        @Override
        int apply(EpRow row, Verdict v) {
          if (!row.isEmpty(dst)) {
            return UNCHANGED;
          }
          if (src >= 0) {
            if (row.isEmpty(src)) {
              return UNCHANGED;
            }
            row.copy(src, dst);
          } else {
            row.set(dst, value, 0, value.length);
          }
          return CHANGED;
        }
      };
    }
  }

  /** What a map step does when the key is not in the side file. */
  enum OnMissing {
    KEEP,
    EMPTY,
    REJECT
  }

  /**
   * {@code { map { key = [..], separator = ">", file = F, to = T, overwrite = false, on-missing =
   * keep } }}: sets field T to the side file's value for the key fields joined by the separator
   * (empty key fields at the end left out).
   */
  static final class MapStep extends Step {
    private final List<String> key;
    private final byte[] separator;
    private final ValueMap map;
    private final String to;
    private final boolean overwrite;
    private final OnMissing onMissing;

    MapStep(
        int number,
        String origin,
        List<String> key,
        String separator,
        ValueMap map,
        String to,
        boolean overwrite,
        OnMissing onMissing) {
      super(number, "map", origin);
      this.key = new ArrayList<>(key);
      this.separator = separator.getBytes(StandardCharsets.UTF_8);
      this.map = map;
      this.to = to;
      this.overwrite = overwrite;
      this.onMissing = onMissing;
    }

    @Override
    RowStep compile(Schema s) {
      int[] keySlots = new int[key.size()];
      for (int i = 0; i < keySlots.length; i++) {
        keySlots[i] = s.slot(key.get(i), where);
      }
      int dst = s.slotOrAdd(to);
      String reason = "unmapped:" + to;
      return new RowStep(label()) {
        @Override
        int apply(EpRow row, Verdict v) {
          if (!overwrite && !row.isEmpty(dst)) {
            return UNCHANGED;
          }
          int last = keySlots.length - 1;
          while (last > 0 && row.isEmpty(keySlots[last])) {
            last--;
          }
          int n = 0;
          for (int i = 0; i <= last; i++) {
            n += row.length(keySlots[i]) + (i > 0 ? separator.length : 0);
          }
          int at = row.reserve(n);
          byte[] buf = row.scratch();
          int o = at;
          for (int i = 0; i <= last; i++) {
            if (i > 0) {
              System.arraycopy(separator, 0, buf, o, separator.length);
              o += separator.length;
            }
            int k = keySlots[i];
            System.arraycopy(row.array(k), row.from(k), buf, o, row.length(k));
            o += row.length(k);
          }
          byte[] value = map.get(buf, at, o);
          row.release(at, 0);
          if (value != null) {
            if (row.sameBytes(dst, value, 0, value.length)) {
              return UNCHANGED;
            }
            row.set(dst, value, 0, value.length);
            return CHANGED;
          }
          switch (onMissing) {
            case REJECT:
              return v.reject(reason, "no mapping for '" + new String(buf, at, o - at, UTF8) + "'");
            case EMPTY:
              if (row.isEmpty(dst)) {
                return UNCHANGED;
              }
              row.set(dst, buf, at, at);
              return CHANGED;
            default:
              return UNCHANGED;
          }
        }
      };
    }
  }

  private static final java.nio.charset.Charset UTF8 = StandardCharsets.UTF_8;

  /**
   * {@code { filter { field = id, index = F, keep = present } }}: keeps rows whose field value is
   * (or, with {@code keep = absent}, is not) an id of the product index F; the others are rejected
   * with reason {@code filtered:FIELD-not-in-index} (or {@code -in-index}).
   */
  static final class Filter extends Step {
    private final String field;
    private final ProductIndex index;
    private final boolean keepPresent;

    Filter(int number, String origin, String field, ProductIndex index, boolean keepPresent) {
      super(number, "filter", origin);
      this.field = field;
      this.index = index;
      this.keepPresent = keepPresent;
    }

    @Override
    RowStep compile(Schema s) {
      int slot = s.slot(field, where);
      String reason = "filtered:" + field + (keepPresent ? "-not-in-index" : "-in-index");
      String detail = (keepPresent ? "not in " : "in ") + index.header().file().getFileName();
      return new RowStep(label()) {
        @Override
        int apply(EpRow row, Verdict v) {
          boolean present = index.rowOfId(row.array(slot), row.from(slot), row.to(slot)) >= 0;
          return present == keepPresent ? UNCHANGED : v.reject(reason, detail);
        }
      };
    }
  }
}
